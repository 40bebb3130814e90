// Whether a subscriber setting changes anything on paper. Every edition is
// built once per combination of choices (variants.ts); a choice whose options
// give the same page in every edition, the other choices held still, changes
// nothing, and a text setting no edition prints is never seen. Either is almost
// never what the author meant: a condition that reads another name, or a
// template that forgot the setting.
import { isChoice, type ConfigField } from "./config-fields.ts";
import { slotToken } from "./text-slots.ts";
import type { Variant } from "./variants.ts";

/** One edition rendered in one variant. */
export interface VariantPage {
  key: string;
  variant: Variant;
  html: string;
}

/** A setting nothing reacts to, and how that shows. */
export interface InertSetting {
  field: ConfigField;
  /** "every edition prints the same page for short and long", or "no edition prints it". */
  why: string;
}

/** The settings of `fields` that no page of `pages` (one publication's, every variant) reacts to. */
export function inertSettings(fields: readonly ConfigField[], pages: readonly VariantPage[]): InertSetting[] {
  if (!pages.length) return [];
  const inert: InertSetting[] = [];
  for (const field of fields) {
    if (!isChoice(field)) {
      if (!pages.some((p) => p.html.includes(slotToken(field.name))))
        inert.push({ field, why: "no edition prints it" });
      continue;
    }
    if (field.options.length < 2 || choiceChanges(field.name, fields, pages)) continue;
    const options = field.options.map(([, value]) => JSON.stringify(value));
    const listed = options.length === 2 ? options.join(" and ") : `each of ${options.join(", ")}`;
    inert.push({ field, why: `every edition prints the same page for ${listed}` });
  }
  return inert;
}

/** Whether some edition prints differently for two options of `name`, every other choice the same. */
function choiceChanges(name: string, fields: readonly ConfigField[], pages: readonly VariantPage[]): boolean {
  const others = fields.filter((f) => isChoice(f) && f.name !== name).map((f) => f.name);
  const first = new Map<string, string>();
  for (const page of pages) {
    const rest = JSON.stringify([page.key, others.map((o) => page.variant.values[o])]);
    const seen = first.get(rest);
    if (seen === undefined) first.set(rest, page.html);
    else if (seen !== page.html) return true;
  }
  return false;
}
