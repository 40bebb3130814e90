// A subscription, as the platform kept one for each subscriber, and the rules
// for its daily delivery: when it is due, what a delivery's record says, and
// how an answer from the publication and one from the printer change both.
// The spec's own table (what prints, what ends) is in delivery-rules.ts.
import { addDays, utcDateOf, type IsoDate } from "./dates.ts";
import { editionAction, lastEtagAfter, type EditionAction } from "./delivery-rules.ts";
import { localDeliveryTime, type LocalDeliveryTime } from "./delivery-time.ts";
import type { EndNotice } from "./end-notice.ts";
import { daysBetween } from "./recurrence.ts";
import { printKeyReached, tryState, type PrintResult } from "./print-job.ts";
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
 * Where one delivery stands:
 * - "sending": a run has claimed it and is at work (or crashed: see claimable);
 * - "printed": the printer took the edition;
 * - "not-printed": nothing to print (204, or the same ETag as last time);
 * - "ended": 410, the series is over;
 * - "offline": the printer was offline (504); retried within the day;
 * - "failed": the publication or the print key could not be reached, or the print key surely did not take
 *   the edition; retried within the day;
 * - "unknown": the edition was sent and no answer came: it may have printed, so it is not sent again;
 * - "unknown-key": the print key no longer exists (404); the subscription ends.
 * (The lifecycle every print job shares is print-job.ts's.)
 */
export type DeliveryState =
  "sending" | "printed" | "not-printed" | "ended" | "offline" | "failed" | "unknown" | "unknown-key";

/** One subscription's delivery on one date: the store keeps one per subscription and date. */
export interface DeliveryRecord {
  subscription: string;
  date: IsoDate;
  /** The local_delivery_time this delivery's request carries. */
  localDeliveryTime: string;
  /** The delivery_count this delivery's request carries (fixed at the first claim, kept on retries). */
  deliveryCount: number;
  state: DeliveryState;
  /** When it last changed (ISO 8601); for "sending", when it was claimed. */
  at: string;
  attempts: number;
  /** The /edition/ status (null: not asked yet, or no answer). */
  status: number | null;
  etag: string | null;
  printed: boolean;
  /** What happened, in words, for the desk and the log. */
  detail: string;
}

// The claim and retry rules are every print job's (print-job.ts).
export {
  claimable,
  MAX_ATTEMPTS,
  RETRY_EARLY_MS,
  RETRY_FIRST_MS,
  RETRY_MAX_MS,
  retryDelayMs,
  STALE_CLAIM_MS,
  type PrintResult,
} from "./print-job.ts";

/** A fresh claim of `due` for `sub` (the first attempt). */
export function firstClaim(sub: Subscription, due: DueDelivery, at: Date): DeliveryRecord {
  return {
    subscription: sub.id,
    date: due.date,
    localDeliveryTime: due.time.text,
    deliveryCount: sub.deliveryCount,
    state: "sending",
    at: at.toISOString(),
    attempts: 1,
    status: null,
    etag: null,
    printed: false,
    detail: "claimed",
  };
}

/** What /edition/ answered (status null: no answer, with the reason in `error`). */
export interface EditionAnswer {
  status: number | null;
  etag: string | null;
  error?: string;
}

/** What a settled delivery changes in its subscription (besides delivery_count, moved at the claim). */
export interface SubscriptionChange {
  lastEtag: string | null;
  ended: Subscription["ended"];
  /** Whether the print key took the edition, when it was asked to (not for a 404, which ends the subscription). */
  printKey?: "reached" | "failed";
  /** For a change that ends the subscription: its end notice (end-notice.ts's noticeAfter). */
  endNotice?: EndNotice;
}

/** Why a delivery in each of the states that end a subscription ended it. */
const END_REASONS: Partial<Record<DeliveryState, string>> = {
  ended: "the series is over (410)",
  "unknown-key": "the print key is unknown (404)",
};

/**
 * The record after a delivery's edition answered, and, when it was to print,
 * after the print key answered; with what changes in the subscription. The
 * last ETag moves only when the edition was seen to the end (printed, or
 * judged the same), so that a retry after an offline printer still prints.
 */
export function settle(
  sub: Pick<Subscription, "lastEtag" | "ended">,
  rec: DeliveryRecord,
  edition: EditionAnswer,
  print: PrintResult | undefined,
  at: Date,
): { record: DeliveryRecord; change: SubscriptionChange } {
  const action: EditionAction = editionAction(edition.status, edition.etag, sub.lastEtag);
  const base = { ...rec, at: at.toISOString(), status: edition.status, etag: edition.etag };
  const settled = (state: DeliveryState, detail: string, printKey?: "reached" | "failed") => {
    const record: DeliveryRecord = { ...base, state, detail, printed: state === "printed" };
    const change = changeOf(sub, record);
    return { record, change: printKey ? { ...change, printKey } : change };
  };
  switch (action) {
    case "same":
      return settled("not-printed", "same ETag as last time");
    case "none":
      return settled("not-printed", "204: nothing today");
    case "end":
      return settled("ended", "410: the series is over");
    case "error":
      return settled("failed", edition.error ?? `edition/ answered ${edition.status}`);
    case "print": {
      if (!print) return settled("failed", "not sent");
      const { state, detail } = tryState(print);
      return settled(state, detail, printKeyReached(print));
    }
  }
}

/**
 * What a settled record changes in its subscription (settle's rule, one home): an
 * end (a 410, an unknown print key) ends it; an edition seen to the end (printed,
 * or judged the same) moves the last ETag, and so does one sent with no answer
 * (unknown: it may have printed, and the same ETag must not print it again);
 * anything else changes neither.
 */
function changeOf(sub: Pick<Subscription, "lastEtag" | "ended">, rec: DeliveryRecord): SubscriptionChange {
  const reason = END_REASONS[rec.state];
  if (reason) return { lastEtag: sub.lastEtag, ended: { at: rec.at, reason } };
  const seen = rec.state === "printed" || rec.state === "not-printed" || rec.state === "unknown";
  return { lastEtag: seen ? lastEtagAfter(rec.status, rec.etag, sub.lastEtag) : sub.lastEtag, ended: sub.ended };
}

/**
 * The subscription as last stored, after one of its deliveries: delivery_count
 * past that delivery's (it counts deliveries, printed or not, and never goes
 * back when runs overlap), and the delivery's change, if any: the print key's
 * failing streak moved from the latest copy's, so that overlapping runs count a day once.
 */
export function afterDelivery(latest: Subscription, rec: DeliveryRecord, change?: SubscriptionChange): Subscription {
  const deliveryCount = Math.max(latest.deliveryCount, rec.deliveryCount + 1);
  if (!change) return { ...latest, deliveryCount };
  const after: Subscription = {
    ...latest,
    deliveryCount,
    lastEtag: change.lastEtag,
    ended: latest.ended ?? change.ended,
    // The notice comes with the end that owes it, in the same write; an end already stored keeps its own.
    ...(change.endNotice && !latest.ended && change.ended ? { endNotice: change.endNotice } : {}),
  };
  return change.printKey ? { ...after, failing: failingAfter(latest.failing, rec.date, change.printKey) } : after;
}

/**
 * What a settled delivery record changes in its subscription, for a run that
 * finds it recorded but not on the subscription (the run that settled it died
 * before its second write); undefined once the subscription shows it (its
 * count is past the record's, or it ended). The change settle() gave, read
 * back from the record (changeOf). (The print key's failing streak is not
 * read back: a day missed there only delays a pause.)
 */
export function recordedChange(
  sub: Pick<Subscription, "lastEtag" | "ended" | "deliveryCount">,
  rec: DeliveryRecord,
): SubscriptionChange | undefined {
  return sub.ended || sub.deliveryCount > rec.deliveryCount ? undefined : changeOf(sub, rec);
}

/**
 * Whether a delivery record of `date` is old enough to go: older than
 * `keepDays` days before the UTC date of `at` (the run's instant).
 */
export function deliveryExpired(date: IsoDate, at: Date, keepDays: number): boolean {
  return date < addDays(utcDateOf(at), -keepDays);
}

/**
 * Whether an ended subscription is old enough to go, with its records: it
 * ended more than `keepDays` days before `at`.
 */
export function subscriptionExpired(sub: Pick<Subscription, "ended">, at: Date, keepDays: number): boolean {
  return sub.ended !== null && Date.parse(sub.ended.at) < at.getTime() - keepDays * 86_400_000;
}
