// config.fields: the form the platform builds for subscribers. Each field
// needs a type it can draw, a name (the config key and the query parameter)
// and a label; select and radio need [label, value] option pairs.
import { type CheckResult, judge, type Observation, result, skip } from "./report.ts";
import { plural } from "../../lib/model/words.ts";

const TYPES = new Set(["text", "select", "radio"]);
/** Names the platform already uses on /edition/: a field named so would clash. */
const RESERVED = new Set(["local_delivery_time", "delivery_count"]);

type Problem = Omit<Observation, "request">;

export function checkForm(meta: Record<string, unknown>, request: string): CheckResult[] {
  if (meta.config === undefined) {
    const none = "no config section: subscribers get no form";
    return [result("meta.config", "pass", none, request), skip("meta.config-names", none)];
  }
  const config = meta.config as { fields?: unknown };
  if (!config || typeof config !== "object" || !Array.isArray(config.fields)) {
    const detail =
      `"config" must be an object holding a "fields" array; ` +
      `it is ${String(JSON.stringify(meta.config)).slice(0, 80)}`;
    return [result("meta.config", "fail", detail, request), skip("meta.config-names", "no fields array")];
  }
  const fields = config.fields;
  const observations: Observation[] = fields.flatMap((field, i) =>
    fieldProblems(field, i).map((o) => ({ ...o, request })),
  );
  if (observations.length === 0)
    observations.push({
      status: "pass",
      detail: `${plural(fields.length, "field")}, all well formed`,
      request,
    });
  return [judge("meta.config", observations, ""), judge("meta.config-names", nameObservations(fields, request), "")];
}

function fieldProblems(field: unknown, i: number): Problem[] {
  const at = `config.fields[${i}]`;
  if (!field || typeof field !== "object" || Array.isArray(field))
    return [{ status: "fail", detail: `${at} is not an object` }];
  const f = field as Record<string, unknown>;
  const problems: Problem[] = [];
  if (typeof f.name !== "string" || f.name === "")
    problems.push({ status: "fail", detail: `${at} has no "name" string` });
  if (typeof f.label !== "string" || f.label === "")
    problems.push({ status: "fail", detail: `${at} has no "label" string` });
  if (f.type === "checkbox")
    problems.push({ status: "warn", detail: `${at} is a checkbox; no known value semantics on the platform` });
  else if (typeof f.type !== "string" || !TYPES.has(f.type))
    problems.push({ status: "fail", detail: `${at} has type ${JSON.stringify(f.type)}; use text, select or radio` });
  if (f.type === "select" || f.type === "radio") problems.push(...optionProblems(f.options, at));
  return problems;
}

function optionProblems(options: unknown, at: string): Problem[] {
  if (!Array.isArray(options) || options.length === 0)
    return [{ status: "fail", detail: `${at} needs "options": a non-empty array of [label, value] pairs` }];
  const bad = options.findIndex(
    (o) => !Array.isArray(o) || o.length !== 2 || typeof o[0] !== "string" || typeof o[1] !== "string",
  );
  if (bad >= 0)
    return [
      {
        status: "fail",
        detail:
          `${at}.options[${bad}] is ${JSON.stringify(options[bad])}; ` +
          "each option is a [label, value] pair of strings",
      },
    ];
  const values = options.map((o) => (o as string[])[1]);
  if (new Set(values).size !== values.length)
    return [{ status: "warn", detail: `${at} has two options with the same value` }];
  return [];
}

function nameObservations(fields: unknown[], request: string): Observation[] {
  const names = fields
    .map((f) => (f && typeof f === "object" ? (f as { name?: unknown }).name : undefined))
    .filter((n): n is string => typeof n === "string");
  const dupes = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  const clashes = names.filter((n) => RESERVED.has(n));
  const observations: Observation[] = [];
  if (dupes.length)
    observations.push({
      status: "fail",
      detail: `more than one field is named ${dupes.map((d) => `"${d}"`).join(", ")}`,
      request,
    });
  if (clashes.length)
    observations.push({
      status: "fail",
      detail: `a field named "${clashes[0]}" would clash with the platform's own edition/ parameter`,
      request,
    });
  if (!observations.length)
    observations.push({ status: "pass", detail: names.length ? `names: ${names.join(", ")}` : "no fields", request });
  return observations;
}
