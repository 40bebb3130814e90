// The `local_delivery_time` the platform sends for a delivery: what the
// delivery runs and the desk send. Reading one from a request is requested-key.ts.
import { dateParts, isoDate, pad, type IsoDate } from "./dates.ts";
import { offsetMinutes, offsetText, wallClock } from "./time-zones.ts";

/** A `local_delivery_time` as the platform sends it, with the instant it names. */
export interface LocalDeliveryTime {
  /** "2026-11-22T06:00:00-08:00": the printer's wall clock and that day's UTC offset. */
  text: string;
  /** The instant, in milliseconds since the epoch. */
  ms: number;
  /** The offset part of `text`, "-08:00". */
  offset: string;
}

const HOUR_MS = 3_600_000;
/**
 * UTC offsets in use run from -12:00 to +14:00, so the instant a wall-clock
 * time names in any zone lies between 14 hours before and 12 hours after the
 * same digits read as UTC. The zone's offsets at those two ends are the ones
 * that can apply: one on an ordinary day, two on a day the clocks change.
 */
const EARLIEST_MS = 14 * HOUR_MS;
const LATEST_MS = 12 * HOUR_MS;

/**
 * The `local_delivery_time` the platform sends for a delivery at `hour`:00 on
 * the local `date` in `zone`: "2026-11-22T06:00:00-08:00", with that day's own
 * offset (summer time included).
 *
 * On the days the clocks change, a wall-clock time may happen twice or not at
 * all. Twice (the clocks go back): the first time, at the summer offset. Not at
 * all (the clocks go forward, and the time falls in the gap): it is read with
 * the offset in force before the gap, which lands as far past the gap as it was
 * into it, so 02:00 on a day that goes from 02:00 straight to 03:00 is sent as
 * 03:00 at the new offset. That is what a platform's scheduler does: it is
 * JavaScript's own Date, Temporal's default ("compatible") and RFC 5545's rule
 * for calendar times (section 3.3.5), and what a printer's clock would show. A
 * day a zone skips whole (Pacific/Apia's 30 December 2011) comes out the same
 * way: on the next day, at the same hour.
 */
export function localDeliveryTime(date: IsoDate, hour: number, zone: string): LocalDeliveryTime {
  const [y, m, d] = dateParts(date);
  const wall = Date.UTC(y, m - 1, d, hour);
  const before = offsetMinutes(zone, wall - EARLIEST_MS);
  const after = offsetMinutes(zone, wall + LATEST_MS);
  // The readings at which the zone's clock shows exactly this date and hour.
  const exact = [before, after]
    .map((offset) => wall - offset * 60_000)
    .filter((instant) => wall - offsetMinutes(zone, instant) * 60_000 === instant);
  const ms = exact.length ? Math.min(...exact) : wall - before * 60_000;
  const w = wallClock(zone, ms);
  const offset = offsetText(offsetMinutes(zone, ms));
  const text = `${isoDate(w.year, w.month, w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${offset}`;
  return { text, ms, offset };
}
