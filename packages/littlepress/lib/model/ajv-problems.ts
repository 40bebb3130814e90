import type { ErrorObject } from "ajv";
import { nearNames } from "./near-miss.ts";

/** `/config/fields/1/options` -> `config.fields[1].options` */
export function dottedPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

const join = (parent: string, child: string) => (parent ? `${parent}.${child}` : child);

/** Where the docs describe a publication.json field: subscriber settings have their own page. */
function docsSection(field: string): string {
  return field.startsWith("config")
    ? 'docs/settings.md: "Subscriber settings"'
    : 'docs/writing-publications.md: "publication.json"';
}

type Described = { field: string; problem: string; fix: string };

/** What an error's rule needs besides the error: hints for missing fields, the schema it was checked against. */
interface Context {
  at: string;
  p: Record<string, unknown>;
  hints: Record<string, string>;
  schema: unknown;
}

/** The key a value is written under (`"end_notice": …`), for examples; none for an item of a list. */
const keyOf = (field: string) => /(?:^|\.)([^.[\]]+)$/.exec(field)?.[1];

/** How a value of each JSON type is written, as an author would type it after its key. */
const TYPE_EXAMPLES: Record<string, { name: string; example: string; note?: string }> = {
  array: { name: "a list", example: '["first", "second"]', note: "in square brackets" },
  boolean: { name: "true or false", example: "true", note: "without quotes" },
  integer: { name: "a whole number", example: "3", note: "without quotes" },
  number: { name: "a number", example: "3", note: "without quotes" },
  object: { name: "an object", example: '{ "key": "value" }', note: "in curly brackets" },
  string: { name: "text", example: '"text"', note: "in double quotes" },
};

/** A value of the wrong JSON type: the type meant, with how it is written there. */
function typeProblem({ at, p }: Context): Described {
  const type = String(p.type);
  const known = TYPE_EXAMPLES[type];
  if (!known) return { field: at, problem: `must be ${type}`, fix: `write it as ${type}` };
  const key = keyOf(at);
  const example = key ? `"${key}": ${known.example}` : known.example;
  return { field: at, problem: `must be ${known.name}`, fix: `write it ${known.note}, for example ${example}` };
}

/** The names the object at an error's schema path allows (its `properties`), to find the one a slip meant. */
function allowedNames(schema: unknown, schemaPath: string): string[] {
  let node = schema;
  for (const part of schemaPath.split("/").slice(1, -1)) node = (node as Record<string, unknown> | undefined)?.[part];
  const properties = (node as { properties?: object } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

/** Keys an author may put in publication.json that belong elsewhere: where they go. */
const ELSEWHERE: Record<string, string> = {
  lang:
    "remove it: a page's language is set in each edition's front matter, as a BCP 47 tag " +
    '(lang: fr), and is English without one (docs/writing-publications.md: "Editions")',
};

const RULES: Record<string, (c: Context, e: ErrorObject) => Described> = {
  required: ({ at, p, hints }) => {
    const name = String(p.missingProperty);
    return { field: join(at, name), problem: "is missing", fix: hints[name] ?? `add "${name}"` };
  },
  additionalProperties: ({ at, p, schema }, e) => {
    const name = String(p.additionalProperty);
    const meant = nearNames(name, allowedNames(schema, e.schemaPath))[0];
    const spelling = meant
      ? `did you mean "${meant}"? Rename it "${meant}" (${docsSection(at)})`
      : `remove it, or check its spelling (${docsSection(at)})`;
    const fix = ELSEWHERE[join(at, name)] ?? spelling;
    return { field: join(at, name), problem: "is not a field littlepress knows", fix };
  },
  enum: ({ at, p }) => ({
    field: at,
    problem: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
    fix: "use one of those values",
  }),
  discriminator: ({ at, p }) => ({
    field: join(at, String(p.tag)),
    problem: 'must be "text", "select" or "radio"',
    fix: "use one of those field types",
  }),
  type: typeProblem,
  pattern: ({ at, p }) => ({ field: at, problem: "is not in the expected form", fix: patternFix(at, p) }),
  dependencies: ({ at, p, hints }) => {
    const name = String(p.missingProperty);
    const problem = `is missing: "${String(p.property)}" belongs to a rule of recurring editions`;
    return { field: join(at, name), problem, fix: hints[name] ?? `add "${name}", or remove "${String(p.property)}"` };
  },
  minLength: ({ at }) => ({ field: at, problem: "is empty", fix: "fill it in" }),
  minItems: ({ at }) => ({
    field: at,
    problem: "must be a [label, value] pair",
    fix: 'write it as ["Label", "value"]',
  }),
};
RULES.maxItems = RULES.minItems!;

function patternFix(at: string, p: Record<string, unknown>): string {
  if (at.endsWith("owner_email")) return "use an e-mail address like you@example.com";
  if (/\.(?:from|until)$/.test(at)) return "write a date as YYYY-MM-DD, such as 2026-01-01";
  return `match ${String(p.pattern)}`;
}

/**
 * The field an ajv error is about, and what was wrong with it, in an author's words. `schema` (the one
 * checked against) lets a misspelt field name be answered with the name meant.
 */
export function describeAjvError(e: ErrorObject, hints: Record<string, string>, schema?: unknown): Described {
  const at = dottedPath(e.instancePath);
  const rule = RULES[e.keyword];
  if (rule) return rule({ at, p: e.params as Record<string, unknown>, hints, schema }, e);
  return { field: at, problem: e.message ?? "is not valid", fix: `correct it (${docsSection(at)})` };
}
