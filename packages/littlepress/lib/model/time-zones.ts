// IANA time zones, read with Intl alone (in Node and in the browser alike):
// the wall clock in a zone at an instant, and the zone's UTC offset then, with
// summer time right on each day, not just today.
import { isoDate, pad, type IsoDate } from "./dates.ts";

/** What a clock in a zone shows at an instant. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Whether Intl knows `name` as a time zone. */
export function isTimeZone(name: string): boolean {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    // Intl's RangeError is exactly "not a time zone", which is the answer.
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `instant` (milliseconds since the epoch). */
export function wallClock(zone: string, instant: number): WallClock {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, format);
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of format.formatToParts(new Date(instant)))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  const { year = NaN, month = NaN, day = NaN, hour = NaN, minute = NaN, second = NaN } = parts;
  return { year, month, day, hour: hour % 24, minute, second };
}

/** Today's date as a printer in `zone` sees it. */
export function todayIn(zone: string, now = new Date()): IsoDate {
  const w = wallClock(zone, now.getTime());
  return isoDate(w.year, w.month, w.day);
}

/** Minutes east of UTC in `zone` at `instant`. */
export function offsetMinutes(zone: string, instant: number): number {
  const w = wallClock(zone, instant);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** "+01:00", "-08:00", "+05:45", as ISO 8601 writes an offset. */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
