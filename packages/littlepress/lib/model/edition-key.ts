// An edition's key and its order; how it is written in front matter is
// front-matter-key.ts, how a request asks for one requested-key.ts.

/** How a request picks an edition (`editions.by` in publication.json). */
export type EditionsBy = "delivery_count" | "local_date" | "utc_date" | "utc_hour";
export const EDITIONS_BY: readonly EditionsBy[] = ["delivery_count", "local_date", "utc_date", "utc_hour"];

/**
 * Names one edition: a delivery count ("0", "1", ...), a date ("2026-11-22") or
 * a UTC hour ("2026-11-22T07"), depending on the publication's `editions.by`.
 * Keys of one publication sort chronologically with `compareKeys`.
 */
export type EditionKey = string;

export const isDated = (by: EditionsBy) => by !== "delivery_count";

export function compareKeys(by: EditionsBy, a: EditionKey, b: EditionKey): number {
  if (by === "delivery_count") return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}
