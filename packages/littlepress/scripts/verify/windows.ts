// Which deliveries to play against each publication: a window taken from the
// publication's own editions (its index in the built site), so every
// publication is checked where it has editions, whatever today's date is.
import type { PublicationIndex } from "../../lib/model/shard.ts";
import { addDays } from "../../lib/model/dates.ts";
import type { CheckOptions } from "../check/run-check.ts";

export type CheckWindow = Required<Pick<CheckOptions, "days" | "hour" | "zones">> & Pick<CheckOptions, "start">;

/** Printers on both sides of UTC: a dated publication is asked for its days from two local clocks. */
export const DATED_ZONES = ["America/Los_Angeles", "Asia/Tokyo"];

/** The local hour the platform delivers at, unless the editions are keyed by the hour. */
const HOUR = 6;

/**
 * From the first edition to one delivery past the last (its 410, or a 204 for
 * an open series), at most `maxDays` days. Deliveries counted from 0 need no
 * date: the checker counts one a day from today.
 */
export function checkWindow(index: Pick<PublicationIndex, "by" | "first" | "last">, maxDays: number): CheckWindow {
  if (index.by === "delivery_count") {
    return { days: Math.min(Number(index.last) + 2, maxDays), hour: HOUR, zones: ["UTC"] };
  }
  const start = index.first.slice(0, 10);
  const days = Math.min(daysFrom(start, index.last.slice(0, 10)) + 2, maxDays);
  if (index.by === "utc_hour") return { start, days, hour: Number(index.first.slice(11, 13)), zones: ["UTC"] };
  return { start, days, hour: HOUR, zones: DATED_ZONES };
}

/** Whole days from one YYYY-MM-DD to a later one. */
function daysFrom(first: string, last: string): number {
  let days = 0;
  // Editions span days to a few years: counting is plain and cannot go wrong on a time change.
  for (let d = first; d < last; d = addDays(d, 1)) days++;
  return days;
}

/** "8 deliveries from delivery_count 0", "27 days from 2026-11-16 at 06:00 in …", for the summary line. */
export function describeWindow(by: PublicationIndex["by"], w: CheckWindow): string {
  if (by === "delivery_count") return `${w.days} deliveries from delivery_count 0`;
  return `${w.days} days from ${w.start} at ${String(w.hour).padStart(2, "0")}:00 in ${w.zones.join(", ")}`;
}
