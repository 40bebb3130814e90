import { fallbackValue, type ConfigField } from "./config-fields.ts";
import type { ConfigValidator } from "./config-validator.ts";
import { variantId, type VariantId } from "./variants.ts";

/** One subscriber's settings as an /edition/ request carries them, made usable. */
export interface SubscriberSettings {
  /** Which prebuilt copy of the edition to serve. */
  variantId: VariantId;
  /** Every field's value after fallbacks, in field order (text values fill the slots). */
  values: Map<string, string>;
}

const NO_FIELDS_VARIANT = variantId([], {});

/**
 * Reads the settings from query parameters. A missing value, or one that
 * validate_config would refuse (an option the author removed since, say),
 * falls back to the field's default: an edition request never fails on them.
 */
export function subscriberSettings(
  fields: ConfigField[],
  params: URLSearchParams,
  validate: ConfigValidator,
): SubscriberSettings {
  // Most publications have no settings: one answer for all their requests, nothing to validate.
  if (!fields.length) return { variantId: NO_FIELDS_VARIANT, values: new Map() };
  const sent = Object.create(null) as Record<string, string>;
  for (const f of fields) sent[f.name] = params.get(f.name) ?? "";
  const { badFields } = validate(sent);
  const values = new Map(
    fields.map((f) => [f.name, sent[f.name] === "" || badFields.has(f.name) ? fallbackValue(f) : sent[f.name]!]),
  );
  return { variantId: variantId(fields, Object.fromEntries(values)), values };
}
