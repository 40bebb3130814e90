// The lines of a delivery run's report: one per delivery worked on, per
// paused subscription skipping its day, and per end slip. Printer names are
// cleaned here, before any report shows them.
import { addDays, utcDateOf } from "../../model/dates.ts";
import type { EditionAction } from "../../model/delivery-rules.ts";
import { printerName } from "../../model/printer-name.ts";
import type { DeliveryRecord } from "../../model/delivery-record.ts";
import { nextTryOn, PAUSED_TRY_EVERY_DAYS, type DueDelivery, type Subscription } from "../../model/subscription.ts";
import type { JobRun } from "../printing/print-job.ts";

/** One line of a run's report. */
export interface DeliveryLine {
  subscription: string;
  printer: string;
  slug: string;
  date: string;
  deliveryCount: number;
  /** What happened, or for a dry run what would: "printed", "would print", "not-printed", "paused", … */
  outcome: string;
  detail: string;
  etag: string | null;
}

/** A line about one subscription's day (`date`, `deliveryCount`: its record's, or the subscription's own). */
export function lineOf(
  sub: Subscription,
  day: { date: string; deliveryCount: number },
  outcome: string,
  detail: string,
  etag: string | null = null,
): DeliveryLine {
  const { date, deliveryCount } = day;
  return {
    subscription: sub.id,
    printer: printerName(sub.printer),
    slug: sub.slug,
    date,
    deliveryCount,
    outcome,
    detail,
    etag,
  };
}

/** What a delivery's preparing gave that its line tells: what to do with the edition, and its ETag. */
interface AskedLine {
  action: EditionAction;
  edition: { etag: string | null };
}

/**
 * The line of a day's delivery as its print job ran (`after`: its subscription
 * as the settle left it): settled, taken over, or a dry run's. None when
 * there is nothing to tell (another run holds it, or it was done already).
 */
export function jobLine<A extends AskedLine>(
  sub: Subscription,
  done: JobRun<DeliveryRecord, A>,
  after: Subscription | undefined,
): DeliveryLine | undefined {
  if (done.step === "settled") {
    const [outcome, detail] = pauseNews(sub, after, done.record);
    return lineOf(sub, done.record, outcome, detail, done.record.etag);
  }
  if (done.step === "taken-over") {
    const detail = "another run took this delivery over (this one was too slow)";
    return lineOf(sub, done.record, "taken over", detail, done.record.etag);
  }
  if (done.step !== "would") return undefined;
  const prints = done.prepared.action === "print";
  const detail = prints ? `would print on ${printerName(sub.printer)}` : `would not print (${done.prepared.action})`;
  return lineOf(sub, done.record, prints ? "would print" : "would not print", detail, done.prepared.edition.etag);
}

/** The line of a delivery the store failed under: its claim stays, and goes stale for the next run to resume. */
export function storeFailedLine(sub: Subscription, when: DueDelivery, error: unknown): DeliveryLine {
  const day = { date: when.date, deliveryCount: sub.deliveryCount };
  return lineOf(sub, day, "error", `the store failed: ${(error as Error).message}`);
}

/** The line of an end slip, dated the day its subscription ended. */
export function noticeLine(sub: Subscription, at: Date, outcome: string, detail: string): DeliveryLine {
  const date = utcDateOf(new Date(sub.ended?.at ?? at));
  return lineOf(sub, { date, deliveryCount: sub.deliveryCount }, outcome, detail);
}

/** The report's line for a paused subscription skipping the day. */
export function pausedLine(sub: Subscription, when: DueDelivery): DeliveryLine {
  const since = sub.failing?.paused ?? when.date;
  const detail = `${pauseWords(sub)}; next try on ${nextTryOn(since, when.date)}`;
  return lineOf(sub, { date: when.date, deliveryCount: sub.deliveryCount }, "paused", detail);
}

/** A settled delivery's outcome and detail, saying when it paused its subscription, or ended its pause. */
function pauseNews(before: Subscription, after: Subscription | undefined, record: DeliveryRecord): [string, string] {
  const was = before.failing?.paused;
  const is = after?.failing?.paused;
  if (!was && is && after) return ["paused", `${record.detail}; ${pauseWords(after)}`];
  if (was && is && after)
    return [record.state, `${record.detail}; still paused, next try on ${nextTryOn(is, addDays(record.date, 1))}`];
  if (was && after && !is) return [record.state, `${record.detail}; no longer paused`];
  return [record.state, record.detail];
}

const pauseWords = (sub: Pick<Subscription, "failing">) =>
  `paused since ${sub.failing?.paused}: the print key failed on ${sub.failing?.days} delivery days in a row, ` +
  `so it is tried every ${PAUSED_TRY_EVERY_DAYS}th day only`;

/** Report lines in order: by publication, then subscription. */
export const byName = (a: DeliveryLine, b: DeliveryLine) =>
  a.slug.localeCompare(b.slug) || a.subscription.localeCompare(b.subscription);
