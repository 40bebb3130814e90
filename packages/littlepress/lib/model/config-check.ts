// What checking a subscriber's settings answers, and the check of a publication
// that asks for none. That one needs no schema: the functions open such a
// publication without importing ajv, about half the edition function's cold
// start (config-validator.ts compiles the schema of a publication with settings).

/** The answer of /validate_config/, exactly as the platform expects it. */
export type ValidationResult = { valid: true } | { valid: false; errors: string[] };

/** A validation result, plus the names of the fields that failed (the router falls back for those). */
export interface ConfigCheck {
  result: ValidationResult;
  badFields: Set<string>;
}

export type ConfigValidator = (config: Record<string, unknown>) => ConfigCheck;

/** The error for a setting the publication does not ask for (its name cut at 40 characters). */
export const unknownSetting = (name: string): string =>
  `Unknown setting ${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name)}: ` +
  "this publication does not ask for it.";

/** The check of a publication without settings: anything sent is a setting it does not ask for. */
export const NO_SETTINGS: ConfigValidator = (config) => {
  const errors = Object.keys(config).map(unknownSetting);
  return { result: errors.length ? { valid: false, errors } : { valid: true }, badFields: new Set() };
};
