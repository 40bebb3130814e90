// When a subscriber's printer gets an edition, in words, for the subscribe
// page. Said from the editions a delivery would find, not from publication.json:
// a delivery asks the publication every day at the subscriber's hour, and
// prints only when that day has an edition (a day a rule skips answers 204),
// so the days with an edition are the schedule, whatever rule or rows made them.
import { addDays, type IsoDate } from "./dates.ts";
import { weekdayOf } from "./recurrence.ts";

/** How far ahead the dated editions are read to tell the pattern: four weeks. */
export const SCHEDULE_DAYS = 28;

/** Day names as the page says them, Sunday first (as weekdayOf counts). */
const DAYS = ["Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays"];
/** Monday first, as a week is read. */
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/**
 * A dated publication's schedule from `has`: whether each day from `from`
 * on has an edition. A weekly pattern is said only when it holds on every day
 * read, over a week at least ("every day", "Monday to Friday", "on Mondays and
 * Thursdays"); anything else, as on the days it has one.
 */
export function datedSchedule(from: IsoDate, has: readonly boolean[]): string {
  const weekday = (i: number) => weekdayOf(addDays(from, i));
  const days = new Set(has.flatMap((yes, i) => (yes ? [weekday(i)] : [])));
  if (!days.size) return "on the days it has an edition (none in the next four weeks)";
  const weekly = has.length >= 7 && has.every((yes, i) => yes === days.has(weekday(i)));
  if (!weekly) return "on the days it has an edition";
  if (days.size === 7) return "every day";
  if (days.size === 5 && [1, 2, 3, 4, 5].every((d) => days.has(d))) return "Monday to Friday";
  const names = WEEK_ORDER.filter((d) => days.has(d)).map((d) => DAYS[d]!);
  return `on ${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}` : names[0]!}`;
}

/** A serial's schedule: each delivery prints its next part, one a day (delivery_count counts them). */
export const SERIAL_SCHEDULE = "one part a day";
