// A built publication's schedule for its subscribe page (lib/model/schedule.ts
// words it): read from the editions the deliveries would find in its index.
import { addDays, utcDateOf } from "../../model/dates.ts";
import { datedSchedule, SCHEDULE_DAYS, SERIAL_SCHEDULE } from "../../model/schedule.ts";
import type { PublishedPublication } from "../../edge/publication-store.ts";

/** When `pub` is delivered, from `at` on: its dated editions of the next four weeks, or a serial's parts. */
export async function publicationSchedule(pub: PublishedPublication, at: Date): Promise<string> {
  const { by, first, last } = pub.index;
  if (by === "delivery_count") return SERIAL_SCHEDULE;
  // An hour's edition is asked once a day, at the subscriber's hour.
  if (by === "utc_hour") return "every day";
  const today = utcDateOf(at);
  const from = first > today ? first : today;
  const has: boolean[] = [];
  for (let i = 0, day = from; i < SCHEDULE_DAYS && day <= last; i++, day = addDays(from, i))
    has.push(((await pub.shardFor(day))?.keys ?? []).includes(day));
  return datedSchedule(from, has);
}
