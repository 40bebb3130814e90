import type { ErrorObject } from "ajv";

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

/** The field an ajv error is about, and what was wrong with it, in an author's words. */
export function describeAjvError(
  e: ErrorObject,
  hints: Record<string, string>,
): { field: string; problem: string; fix: string } {
  const at = dottedPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": {
      const name = String(p.missingProperty);
      return { field: join(at, name), problem: "is missing", fix: hints[name] ?? `add "${name}"` };
    }
    case "additionalProperties": {
      const name = String(p.additionalProperty);
      const fix = `remove it, or check its spelling (${docsSection(at)})`;
      return { field: join(at, name), problem: "is not a field littlepress knows", fix };
    }
    case "enum":
      return {
        field: at,
        problem: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        fix: "use one of those values",
      };
    case "discriminator":
      return {
        field: join(at, String(p.tag)),
        problem: 'must be "text", "select" or "radio"',
        fix: "use one of those field types",
      };
    case "type":
      return {
        field: at,
        problem: `must be ${p.type === "array" ? "a list" : `a ${String(p.type)}`}`,
        fix: `write it as a ${String(p.type)}`,
      };
    case "pattern":
      return {
        field: at,
        problem: "is not in the expected form",
        fix: at.endsWith("owner_email")
          ? "use an e-mail address like you@example.com"
          : /\.(?:from|until)$/.test(at)
            ? "write a date as YYYY-MM-DD, such as 2026-01-01"
            : `match ${String(p.pattern)}`,
      };
    case "dependencies": {
      const name = String(p.missingProperty);
      return {
        field: join(at, name),
        problem: `is missing: "${String(p.property)}" belongs to a rule of recurring editions`,
        fix: hints[name] ?? `add "${name}", or remove "${String(p.property)}"`,
      };
    }
    case "minLength":
      return { field: at, problem: "is empty", fix: "fill it in" };
    case "minItems":
    case "maxItems":
      return { field: at, problem: "must be a [label, value] pair", fix: 'write it as ["Label", "value"]' };
    default:
      return { field: at, problem: e.message ?? "is not valid", fix: `correct it (${docsSection(at)})` };
  }
}
