import { Ajv, type ErrorObject } from "ajv";
import { isChoice, type ConfigField } from "./config-fields.ts";
import { plural } from "./words.ts";
import { NO_SETTINGS, unknownSetting, type ConfigValidator } from "./config-check.ts";

export type { ConfigCheck, ConfigValidator, ValidationResult } from "./config-check.ts";

// configSchema's schemas are made by this module from checked fields: checked against JSON Schema's
// meta-schema by a test (config-validator.test.ts), not by every function that starts (50 ms of a cold start).
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });

function fieldSchema(f: ConfigField): object {
  if (isChoice(f)) return { type: "string", enum: f.options.map(([, value]) => value) };
  const schema: Record<string, unknown> = { type: "string" };
  if (f.min_length !== undefined) schema.minLength = f.min_length;
  if (f.max_length !== undefined) schema.maxLength = f.max_length;
  if (f.pattern !== undefined) schema.pattern = `^(?:${f.pattern})$`;
  return schema;
}

/** The JSON Schema of a submitted config: one string per field, nothing else. */
export function configSchema(fields: ConfigField[]): object {
  return {
    type: "object",
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
    required: fields.filter((f) => f.required).map((f) => f.name),
    additionalProperties: false,
  };
}

/** Compiles the fields' schema once; the returned function checks one submitted config. */
export function compileConfigValidator(fields: ConfigField[]): ConfigValidator {
  if (!fields.length) return NO_SETTINGS;
  const validate = ajv.compile(configSchema(fields));
  const byName = new Map(fields.map((f) => [f.name, f]));
  return (config) => {
    // An empty value means "not given": only a required field objects to it.
    const given = Object.fromEntries(
      Object.entries(config).filter(([name, value]) => !(value === "" && byName.has(name))),
    );
    if (validate(given)) return { result: { valid: true }, badFields: new Set() };
    const messages = new Map<string, string>();
    const unknown: string[] = [];
    for (const e of validate.errors ?? []) {
      const p = e.params as Record<string, unknown>;
      if (e.keyword === "additionalProperties") {
        unknown.push(unknownSetting(String(p.additionalProperty)));
        continue;
      }
      const name =
        e.keyword === "required"
          ? String(p.missingProperty)
          : e.instancePath.slice(1).replace(/~1/g, "/").replace(/~0/g, "~");
      const field = byName.get(name);
      if (field && !messages.has(name)) messages.set(name, errorText(field, e, given[name]));
    }
    const errors = [...fields.filter((f) => messages.has(f.name)).map((f) => messages.get(f.name)!), ...unknown];
    return { result: { valid: false, errors }, badFields: new Set(messages.keys()) };
  };
}

/** A sentence for the subscriber: the field's label, then what is acceptable. */
function errorText(f: ConfigField, e: ErrorObject, value: unknown): string {
  const p = e.params as Record<string, unknown>;
  if (isChoice(f) && (e.keyword === "enum" || e.keyword === "required" || e.keyword === "type")) {
    return `${f.label}: choose ${orList(f.options.map(([label]) => label))}.`;
  }
  switch (e.keyword) {
    case "required":
      return `${f.label}: please fill this in.`;
    case "type":
      return `${f.label}: must be text, not ${kindOf(value)}.`;
    case "minLength":
      return `${f.label}: use at least ${plural(Number(p.limit), "character")}.`;
    case "maxLength":
      return `${f.label}: use at most ${plural(Number(p.limit), "character")}.`;
    case "pattern":
      return (
        `${f.label}: ` +
        (f.type === "text" && f.pattern_message ? f.pattern_message : "this is not in the expected form.")
      );
    default:
      return `${f.label}: this value is not accepted.`;
  }
}

function orList(items: string[]): string {
  if (items.length > 8) return `one of the ${items.length} options`;
  return items.length < 2 ? (items[0] ?? "an option") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

const kindOf = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`;
