import { isRealDate } from "./dates.ts";
import { parseDeliveryTime } from "./delivery-time.ts";

/** How a request picks an edition (`editions.by` in publication.json). */
export type EditionsBy = "delivery_count" | "local_date" | "utc_date" | "utc_hour";
export const EDITIONS_BY: readonly EditionsBy[] = ["delivery_count", "local_date", "utc_date", "utc_hour"];

/**
 * Names one edition: a delivery count ("0", "1", ...), a date ("2026-11-22") or
 * a UTC hour ("2026-11-22T07"), depending on the publication's `editions.by`.
 * Keys of one publication sort chronologically with `compareKeys`.
 */
export type EditionKey = string;

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

export const isDated = (by: EditionsBy) => by !== "delivery_count";

export function compareKeys(by: EditionsBy, a: EditionKey, b: EditionKey): number {
  if (by === "delivery_count") return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads an edition's key from its front-matter value; the error text says how to write it. */
export function keyFromFrontMatter(
  by: EditionsBy,
  value: unknown,
): { key: EditionKey } | { problem: string; fix: string } {
  const field = KEY_FIELD[by];
  const fix = `write the key in the front matter as \`${EXAMPLE[by]}\``;
  if (value === undefined || value === null)
    return { problem: `the edition has no \`${field}\` (this publication's editions are keyed by ${by})`, fix };
  if (by === "delivery_count") {
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return { key: String(value) };
    return {
      problem: `\`number\` must be a whole number from 0 up, got ${JSON.stringify(value)}`,
      fix: `${fix} (0 is the first edition)`,
    };
  }
  const text = typeof value === "string" ? value : "";
  const m = (by === "utc_hour" ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/ : /^(\d{4})-(\d{2})-(\d{2})$/).exec(text);
  if (!m)
    return { problem: `\`${field}\` must look like ${EXAMPLE[by].split(": ")[1]}, got ${JSON.stringify(value)}`, fix };
  if (!isRealDate(Number(m[1]), Number(m[2]), Number(m[3])))
    return { problem: `\`${field}\` ${text} is not a real calendar date`, fix: "correct the date" };
  if (m[4] !== undefined && Number(m[4]) > 23)
    return { problem: `\`hour\` ${text} has an hour past 23`, fix: "use an hour from 00 to 23 (UTC)" };
  return { key: text };
}

/** What a request's parameters say about which edition it wants. */
export type RequestedKey =
  | { kind: "key"; key: EditionKey }
  /** The parameter that picks the edition was not sent: a browser, or the platform's validator. */
  | { kind: "absent" }
  /** The parameter was sent but cannot be used; `reason` is safe to show. */
  | { kind: "invalid"; reason: string };

/** Reads the edition key a request asks for, from the parameters the platform sends. */
export function requestedKey(by: EditionsBy, params: URLSearchParams): RequestedKey {
  if (by === "delivery_count") {
    const raw = params.get("delivery_count");
    if (raw === null || raw === "") return { kind: "absent" };
    if (!/^\d+$/.test(raw)) return { kind: "invalid", reason: "delivery_count is not a non-negative integer" };
    return { kind: "key", key: BigInt(raw).toString() };
  }
  const raw = params.get("local_delivery_time");
  if (raw === null || raw === "") return { kind: "absent" };
  const time = parseDeliveryTime(raw);
  if ("error" in time) return { kind: "invalid", reason: time.error };
  const key = by === "local_date" ? time.localDate : by === "utc_date" ? time.utcDate : time.utcHour;
  return { kind: "key", key };
}
