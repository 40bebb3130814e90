import { isChoice, type ConfigField } from "./config-fields.ts";

/**
 * One combination of select/radio values. Every edition is prebuilt once per
 * variant; text values are not part of it (they fill slots at request time).
 */
export interface Variant {
  /** Canonical query string of the choice values in field order ("lang=fr&size=l"), "" when there are none. */
  id: VariantId;
  values: Record<string, string>;
}
export type VariantId = string;

/** More prebuilt copies per edition than this is a mistake, not a publication. */
export const MAX_VARIANTS = 256;

export function variantCount(fields: ConfigField[]): number {
  return fields.filter(isChoice).reduce((n, f) => n * Math.max(1, f.options.length), 1);
}

export function variantId(fields: ConfigField[], values: Record<string, string>): VariantId {
  return new URLSearchParams(fields.filter(isChoice).map((f) => [f.name, values[f.name] ?? ""])).toString();
}

/** Every combination of choice values, in a stable order (the first options first). */
export function variantsOf(fields: ConfigField[]): Variant[] {
  let combos: Record<string, string>[] = [{}];
  for (const f of fields.filter(isChoice)) {
    combos = combos.flatMap((combo) => f.options.map(([, value]) => ({ ...combo, [f.name]: value })));
  }
  return combos.map((values) => ({ id: variantId(fields, values), values }));
}
