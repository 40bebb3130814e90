// How an edition's key is written in its front matter, read for the build.
import { isRealDate } from "./dates.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";
import { nearNames } from "./near-miss.ts";

/** The front-matter field that carries an edition's key, per mode. */
export const KEY_FIELD = {
  delivery_count: "number",
  local_date: "date",
  utc_date: "date",
  utc_hour: "hour",
} as const satisfies Record<EditionsBy, string>;

const EXAMPLE = {
  delivery_count: "number: 0",
  local_date: "date: 2026-11-22",
  utc_date: "date: 2026-11-22",
  utc_hour: "hour: 2026-11-22T07",
};

/**
 * Reads an edition's key from its front-matter value; the error text says how to write it, with `meant()` (the key
 * the edition most likely means, when the caller can tell: asked only of a key that is wrong) or else an example.
 */
export function keyFromFrontMatter(
  by: EditionsBy,
  value: unknown,
  meant: () => EditionKey | undefined = () => undefined,
): { key: EditionKey } | { problem: string; fix: string } {
  const field = KEY_FIELD[by];
  const fix = () => {
    const key = meant();
    return `write the key in the front matter as \`${key === undefined ? EXAMPLE[by] : `${field}: ${key}`}\``;
  };
  if (value === undefined || value === null)
    return { problem: `the edition has no \`${field}\` (this publication's editions are keyed by ${by})`, fix: fix() };
  if (by === "delivery_count") {
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return { key: String(value) };
    return {
      problem: `\`number\` must be a whole number from 0 up, got ${JSON.stringify(value)}`,
      fix: `${fix()} (0 is the first edition)`,
    };
  }
  const text = typeof value === "string" ? value : "";
  const m = (by === "utc_hour" ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/ : /^(\d{4})-(\d{2})-(\d{2})$/).exec(text);
  if (!m)
    return {
      problem: `\`${field}\` must look like ${EXAMPLE[by].split(": ")[1]}, got ${JSON.stringify(value)}`,
      fix: fix(),
    };
  if (!isRealDate(Number(m[1]), Number(m[2]), Number(m[3])))
    return { problem: `\`${field}\` ${text} is not a real calendar date`, fix: "correct the date" };
  if (m[4] !== undefined && Number(m[4]) > 23)
    return { problem: `\`hour\` ${text} has an hour past 23`, fix: "use an hour from 00 to 23 (UTC)" };
  return { key: text };
}

/** A key's value as written in text (a CSV cell, `"sample": "2"`, a file's name): digits are a number there. */
export function keyValueOfText(by: EditionsBy, value: unknown): unknown {
  return by === "delivery_count" && typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
}

/** The name among `fields` that is a slip of the key's `field` (`nubmer`, `Date`: near-miss.ts's rule), if one is. */
export function slippedKeyName(fields: object, field: string): string | undefined {
  return Object.keys(fields).find((name) => name !== field && nearNames(name, [field]).length > 0);
}
