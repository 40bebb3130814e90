// Every set of settings a subscriber can have, as the preview and verify
// render them: each combination of select and radio values (each is its own
// prebuilt copy of every edition, lib/model/variants.ts), and for each, the
// text fields at their defaults and at a long value, one field at a time and
// all together (text values fill slots at request time, lib/model/text-slots.ts).
import {
  fallbackValue,
  isChoice,
  textFields,
  type ConfigField,
  type TextField,
} from "../../lib/model/config-fields.ts";
import { compileConfigValidator } from "../../lib/model/config-validator.ts";
import { variantsOf } from "../../lib/model/variants.ts";

/** The long value of a text field without max_length: a subscriber may type more, but this is what is tried. */
export const LONG_TEXT_CHARS = 200;

/** One subscriber's settings, as the platform sends them on /edition/. */
export interface Settings {
  /** Every field's value, as query parameters. */
  values: Record<string, string>;
  /** The settings in words, to reproduce them: "lang=fr, name=<80 characters>". */
  label: string;
  /** Every field at its default (what a bare /edition/ shows). */
  defaults: boolean;
}

/**
 * The settings to render, the defaults first. Choices: every combination.
 * Text: the default, each field alone at its long value, and all of them long
 * (when there are two or more). A long value the field's own rules refuse
 * (a pattern that wants digits, say) is not tried: the server would fall back
 * to the default, which is already rendered.
 */
export function subscriberSettings(fields: ConfigField[]): Settings[] {
  if (fields.length === 0) return [{ values: {}, label: "", defaults: true }];
  const texts = textFields(fields);
  const validate = compileConfigValidator(fields);
  const defaults = Object.fromEntries(texts.map((f) => [f.name, fallbackValue(f)]));
  const longs = new Map<string, string>();
  for (const f of texts) {
    const value = longValue(f, (v) => !validate({ [f.name]: v }).badFields.has(f.name));
    if (value !== undefined) longs.set(f.name, value);
  }
  const textSets: Record<string, string>[] = [defaults];
  for (const [name, value] of longs) textSets.push({ ...defaults, [name]: value });
  if (longs.size > 1) textSets.push({ ...defaults, ...Object.fromEntries(longs) });
  const choiceDefaults = Object.fromEntries(fields.filter(isChoice).map((f) => [f.name, fallbackValue(f)]));
  const choices = variantsOf(fields).map((v) => v.values);
  // The default choices first, then the others in the fields' order.
  const isDefaultChoice = (c: Record<string, string>) => Object.entries(choiceDefaults).every(([k, v]) => c[k] === v);
  choices.sort((a, b) => Number(isDefaultChoice(b)) - Number(isDefaultChoice(a)));
  const settings: Settings[] = [];
  for (const choice of choices)
    for (const text of textSets) {
      const values = Object.fromEntries(fields.map((f) => [f.name, choice[f.name] ?? text[f.name] ?? ""]));
      settings.push({
        values,
        label: fields.map((f) => `${f.name}=${describe(f, values[f.name]!, longs)}`).join(", "),
        defaults: isDefaultChoice(choice) && text === defaults,
      });
    }
  return settings;
}

/** A value as a label shows it: a long value by its length, the others as they are ("" when empty). */
function describe(f: ConfigField, value: string, longs: Map<string, string>): string {
  if (!isChoice(f) && longs.get(f.name) === value) return `<${[...value].length} characters>`;
  return value === "" ? '""' : value;
}

/**
 * A value of the field's longest length (max_length, or LONG_TEXT_CHARS) that
 * its own rules accept: words of wide letters that wrap as prose does, or
 * failing that one unbroken run of letters or of digits; shorter when the
 * rules allow no such value of that length.
 */
export function longValue(f: TextField, accepted: (value: string) => boolean): string | undefined {
  const most = f.max_length ?? Math.max(LONG_TEXT_CHARS, f.min_length ?? 0);
  // The longest such value: a pattern may allow only a few characters ("[0-9]{5}").
  for (let n = most; n > 0; n--) {
    const words = "Wmwmwmw ".repeat(Math.ceil(n / 8)).slice(0, n);
    const prose = words.endsWith(" ") ? `${words.slice(0, -1)}W` : words;
    const found = [prose, "W".repeat(n), "w".repeat(n), "9".repeat(n)].find(accepted);
    if (found !== undefined) return found;
  }
  return undefined;
}
