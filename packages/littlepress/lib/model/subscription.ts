// A subscription, as the platform kept one for each subscriber, and the rules
// for its daily delivery: when it is due, and when a print key failing day
// after day pauses it. What a delivery's record says, and how an answer from
// the publication and one from the printer change both, is delivery-record.ts;
// the spec's own table (what prints, what ends) is delivery-rules.ts.
import { addDays, type IsoDate } from "./dates.ts";
import { localDeliveryTime, type LocalDeliveryTime } from "./delivery-time.ts";
import type { EndNotice } from "./end-notice.ts";
import { daysBetween } from "./recurrence.ts";
import { todayIn } from "./time-zones.ts";

/** A printer's subscription to one publication. */
export interface Subscription {
  /** Random and public: names the subscription in logs, the dry run and the desk (never the print key). */
  id: string;
  /** The publication's slug ("" for the one at the site root). */
  slug: string;
  /**
   * The print key URL (`https://<host>/printkey/<secret>`), sealed (seal.ts)
   * under the deploy's key, in base64. A print key prints on someone's
   * printer: it is never shown back, logged or printed.
   */
  printKey: string;
  /** The printer's name as its print key answered ("Kitchen"), for people. */
  printer: string;
  /** The printer's IANA time zone. */
  zone: string;
  /** The delivery hour on the printer's clock, 0 to 23: the platform delivered on the hour. */
  hour: number;
  /** The settings that validate_config accepted, sent as query parameters on every delivery. */
  settings: [string, string][];
  /** When it was made (ISO 8601): its first delivery is the first one due after. */
  created: string;
  /** Deliveries so far, printed or not (the spec): the next delivery's delivery_count. */
  deliveryCount: number;
  /** The ETag of the last 200 seen: the same one again prints nothing. */
  lastEtag: string | null;
  /** Set when the subscription ended (410, or a print key that no longer exists). */
  ended: { at: string; reason: string } | null;
  /**
   * The end notice (end-notice.ts), set in the same write as `ended` by a
   * delivery run; absent from subscriptions that ended before it was kept, or not by a run.
   */
  endNotice?: EndNotice | null;
  /** SHA-256 (hex) of the private unsubscribe token; the token itself is only in the subscriber's link. */
  unsubscribeHash: string;
  /**
   * The print key's failing streak, while it has one (see failingAfter);
   * absent from subscriptions stored before it was kept, which read as none.
   */
  failing?: Failing | null;
  /**
   * The publication's seat it holds (lib/platform/subscribing/seats.ts), given back when it
   * ends; absent from subscriptions stored before seats were kept.
   */
  seat?: number;
}

/**
 * Delivery days in a row on which the print key was tried and never took the
 * edition: every POST that day answered 504 (offline), another status than
 * 200 (a 3xx included: redirects are not followed), or nothing (refused, no
 * such host, a timeout). Days that asked nothing of it (a 204, the same ETag,
 * an unreachable publication) neither count nor break the streak; a 200 ends it.
 */
export interface Failing {
  /** How many such days (one a day however many tries). */
  days: number;
  /** The last of them. */
  last: IsoDate;
  /**
   * From PAUSE_AFTER_FAILING_DAYS days on, the date the subscription was paused:
   * it is tried that day and every PAUSED_TRY_EVERY_DAYS days after, not on the days between.
   */
  paused: IsoDate | null;
}

/** Delivery days in a row of a failing print key after which its subscription is paused. */
export const PAUSE_AFTER_FAILING_DAYS = 7;
/** A paused subscription is tried on every this many days (so that a printer back from a holiday recovers). */
export const PAUSED_TRY_EVERY_DAYS = 7;

/** The print key's streak after a delivery that reached it (`"reached"`: it answered 200) or failed to. */
export function failingAfter(
  failing: Failing | null | undefined,
  date: IsoDate,
  printKey: "reached" | "failed",
): Failing | null {
  if (printKey === "reached") return null;
  if (failing && date <= failing.last) return failing; // that day counted already (or an older day, late)
  const days = (failing?.days ?? 0) + 1;
  return { days, last: date, paused: failing?.paused ?? (days >= PAUSE_AFTER_FAILING_DAYS ? date : null) };
}

/**
 * Whether a paused subscription skips its delivery of `date` (it is tried on
 * its pause date and every 7th day after).
 */
export function pausedOn(sub: Pick<Subscription, "failing">, date: IsoDate): boolean {
  const since = sub.failing?.paused;
  if (!since) return false;
  const days = daysBetween(since, date);
  return days > 0 && days % PAUSED_TRY_EVERY_DAYS !== 0;
}

/** The next date a paused subscription is tried, from `date` on (`date` itself when it is a try day). */
export function nextTryOn(paused: IsoDate, date: IsoDate): IsoDate {
  const days = Math.max(0, daysBetween(paused, date));
  return addDays(date, (PAUSED_TRY_EVERY_DAYS - (days % PAUSED_TRY_EVERY_DAYS)) % PAUSED_TRY_EVERY_DAYS);
}

/** The delivery a subscription is due for: its local date and time. */
export interface DueDelivery {
  date: IsoDate;
  time: LocalDeliveryTime;
}

/**
 * The delivery due at `at`, if any. A delivery's day runs from its time (the
 * hour on the printer's clock that day, summer time included) to the next
 * day's: a run anywhere in it delivers, or retries, that day's edition. None
 * for an ended subscription, or before its first delivery time after it was made.
 */
export function deliveryDueAt(
  sub: Pick<Subscription, "zone" | "hour" | "created" | "ended">,
  at: Date,
): DueDelivery | undefined {
  if (sub.ended) return undefined;
  let date = todayIn(sub.zone, at);
  let time = localDeliveryTime(date, sub.hour, sub.zone);
  if (time.ms > at.getTime()) {
    date = addDays(date, -1);
    time = localDeliveryTime(date, sub.hour, sub.zone);
  }
  if (time.ms > at.getTime() || time.ms < Date.parse(sub.created)) return undefined;
  return { date, time };
}

/**
 * Whether an ended subscription is old enough to go, with its records: it
 * ended more than `keepDays` days before `at`.
 */
export function subscriptionExpired(sub: Pick<Subscription, "ended">, at: Date, keepDays: number): boolean {
  return sub.ended !== null && Date.parse(sub.ended.at) < at.getTime() - keepDays * 86_400_000;
}
