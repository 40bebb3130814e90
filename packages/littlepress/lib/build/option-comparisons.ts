// `{% if config.length == "Long" %}` when the option's value is `long`: the comparison is never true, and
// the part it guards never prints, without a word; as a misspelt setting name fails the build
// (edition-config.ts), so does a comparison of a select or radio setting with a value not among its options.
// Read from the edition's text, since Liquid compares two plain strings and tells nobody.
import type { ContentProblem } from "../model/content-error.ts";
import { isChoice, type ChoiceField } from "../model/config-fields.ts";
import { nearNames } from "../model/near-miss.ts";
import type { EditionsRead } from "./edition-checks.ts";

// `config.name == "value"` or `"value" == config.name` (with != or <>), in either quotes.
const COMPARISON =
  /config\.([A-Za-z_][\w-]*)\s*(?:==|!=|<>)\s*(["'])(.*?)\2|(["'])(.*?)\4\s*(?:==|!=|<>)\s*config\.([A-Za-z_][\w-]*)/g;

/** One problem per file and line: each comparison of a choice setting with a value it cannot have. */
export function optionComparisons(pub: EditionsRead): ContentProblem[] {
  const choices = new Map(pub.fields.filter(isChoice).map((f) => [f.name, f]));
  if (!choices.size) return [];
  const said = new Map<string, ContentProblem>();
  for (const edition of pub.editions.list)
    for (const { file, body, bodyLine } of edition.parts ?? [edition])
      for (const m of body.matchAll(COMPARISON)) {
        const name = m[1] ?? m[6]!;
        const value = m[3] ?? m[5]!;
        const field = choices.get(name);
        if (!field || field.options.some(([, v]) => v === value)) continue;
        const line = bodyLine + body.slice(0, m.index).split("\n").length - 1;
        said.set(`${file}\u0000${line}`, notAnOption(file, line, m[0], field, value));
      }
  return [...said.values()];
}

function notAnOption(file: string, line: number, written: string, field: ChoiceField, value: string): ContentProblem {
  const values = field.options.map(([, v]) => v);
  const meant =
    values.find((v) => v.toLowerCase() === value.toLowerCase()) ??
    field.options.find(([label]) => label === value)?.[1] ??
    nearNames(value, values)[0];
  return {
    file,
    field: `config.${field.name}`,
    problem:
      `\`${written}\` (line ${line}) compares the setting with "${value}", which is not one of its values ` +
      `(${values.map((v) => `"${v}"`).join(", ")}), so it is never true` +
      (meant ? `: did you mean "${meant}"?` : ""),
    fix:
      (meant ? `write "${meant}"` : "compare with one of the values") +
      ": an option is [label, value] in publication.json, and editions see the value",
  };
}
