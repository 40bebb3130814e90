// Values a subscriber could plausibly enter in the publication's form, found
// from the form definition alone: the first option of a select or radio, a
// name-like text. `--config name=value` overrides any of them.

type Config = Record<string, string>;

interface FieldLike {
  type?: unknown;
  name?: unknown;
  label?: unknown;
  options?: unknown;
}

export const UNKNOWN_KEY = "littlepress_check_unknown";
export const NOT_AN_OPTION = "littlepress-check-not-an-option";
const SAMPLE_TEXT = "Ada";

const named = (fields: unknown[]) =>
  fields.filter(
    (f): f is FieldLike & { name: string } => !!f && typeof f === "object" && typeof (f as FieldLike).name === "string",
  );

function firstOptionValue(field: FieldLike): string {
  const first: unknown = Array.isArray(field.options) ? field.options[0] : undefined;
  return Array.isArray(first) && typeof first[1] === "string" ? first[1] : "";
}

/**
 * Configs to try, most natural first. When the publication refuses "Ada" in
 * some text field (a pattern, say), the next try leaves the text fields its
 * errors mention empty, and the last leaves every text field empty: what a
 * subscriber who skips them would send.
 */
export function sampleConfigs(fields: unknown[], overrides: Config, errors: string[] = []): Config[] {
  const base: Config = {};
  for (const f of named(fields))
    base[f.name] =
      f.type === "select" || f.type === "radio" ? firstOptionValue(f) : f.type === "text" ? SAMPLE_TEXT : "";
  const texts = named(fields).filter((f) => f.type === "text");
  const mentioned = texts.filter((f) =>
    errors.some((e) => e.includes(f.name) || (typeof f.label === "string" && e.includes(f.label))),
  );
  const blank = (which: typeof texts) => ({ ...base, ...Object.fromEntries(which.map((f) => [f.name, ""])) });
  const tries = [base, blank(mentioned), blank(texts)].map((c) => ({ ...c, ...overrides }));
  return tries.filter((c, i) => tries.findIndex((d) => JSON.stringify(d) === JSON.stringify(c)) === i);
}

/** A config the platform's form could never produce: an unknown key, and a value outside a select's options. */
export function invalidConfig(fields: unknown[], valid: Config): { config: Config; hasBadOption: boolean } {
  const choice = named(fields).find((f) => f.type === "select") ?? named(fields).find((f) => f.type === "radio");
  const config: Config = { ...valid, [UNKNOWN_KEY]: "x" };
  if (choice) config[choice.name] = NOT_AN_OPTION;
  return { config, hasBadOption: !!choice };
}
