// A subscription's delivery on one day, as a print job (print-job.ts holds the
// lifecycle every job shares): its record, claimed once per subscription and
// date, and how the publication's answer and the printer's settle it and change
// the subscription (subscription.ts). The spec's own table (what prints, what
// ends) is delivery-rules.ts.
import { addDays, utcDateOf, type IsoDate } from "./dates.ts";
import { editionAction, lastEtagAfter, type EditionAction } from "./delivery-rules.ts";
import { noticeAfter } from "./end-notice.ts";
import { firstTry, printKeyReached, tryState, type PrintResult } from "./print-job.ts";
import { failingAfter, type DueDelivery, type Subscription } from "./subscription.ts";

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

/** A fresh claim of `due` for `sub` (the first attempt). */
export function firstClaim(sub: Subscription, due: DueDelivery, at: Date): DeliveryRecord {
  return {
    subscription: sub.id,
    date: due.date,
    localDeliveryTime: due.time.text,
    deliveryCount: sub.deliveryCount,
    status: null,
    etag: null,
    printed: false,
    ...firstTry(at),
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
 * failing streak moved from the latest copy's, so that overlapping runs count a
 * day once. A change that ends it carries its end notice (end-notice.ts's
 * noticeAfter, dated the end), in the same write, so that a subscription never
 * ends without its slip being owed; an end already stored keeps its own.
 */
export function afterDelivery(latest: Subscription, rec: DeliveryRecord, change?: SubscriptionChange): Subscription {
  const deliveryCount = Math.max(latest.deliveryCount, rec.deliveryCount + 1);
  if (!change) return { ...latest, deliveryCount };
  const notice = !latest.ended && change.ended && noticeAfter(rec, new Date(change.ended.at));
  const after: Subscription = {
    ...latest,
    deliveryCount,
    lastEtag: change.lastEtag,
    ended: latest.ended ?? change.ended,
    ...(notice ? { endNotice: notice } : {}),
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
