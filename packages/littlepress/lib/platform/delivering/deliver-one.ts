// One subscription's delivery for its day, as a print job (lib/platform/
// printing/print-job.ts): its record, claimed once per subscription and
// date; what to print, asked of the publication (asking.ts); the page sent to
// the print key (../printers/print-key-post.ts); then the record and the
// subscription settled (settling.ts). Never throws: a store that fails under a
// delivery is its report line, and its claim goes stale for the next run to resume.
import { editionAction, type EditionAction } from "../../model/delivery-rules.ts";
import { printerName } from "../../model/printer-name.ts";
import {
  deliveryExpired,
  firstClaim,
  settle,
  type DeliveryRecord,
  type DueDelivery,
  type EditionAnswer,
  type Subscription,
  type SubscriptionChange,
} from "../../model/subscription.ts";
import { postToPrinter, printService } from "../printers/print-key-post.ts";
import { runJob, type PrintJob } from "../printing/print-job.ts";
import { recordSlot } from "../printing/record-slot.ts";
import type { Stored } from "../stores/state-store.ts";
import { deliveryKey } from "../stores/store-keys.ts";
import { pruneDeliveries } from "../stores/subscriptions.ts";
import { editionUrl, type FetchedEdition } from "./asking.ts";
import { lineOf, storeFailedLine, type DeliveryLine } from "./report-lines.ts";
import type { RunReport, RunSettings } from "./run-state.ts";
import { finishSettled, settleSubscription, takenOver } from "./settling.ts";

/** What asking gave: the answer, its page, what to do with it, and who it is from (meta.json's name, once read). */
export interface Asked {
  edition: EditionAnswer;
  page?: FetchedEdition["page"];
  action: EditionAction;
  from?: string;
}

/** What a delivery's job leaves beside its record: the pruning it started, the change its settle made. */
interface Beside {
  pruning?: Promise<unknown>;
  change?: SubscriptionChange;
}

/** One subscription's delivery for the day `when`: claim, ask, print, record; its line goes to the report. */
export async function deliverOne(
  run: RunSettings,
  report: RunReport,
  stored: Stored<Subscription>,
  when: DueDelivery,
): Promise<void> {
  const sub = stored.value;
  const beside: Beside = {};
  try {
    const done = await runJob(deliveryJob(run, sub, when, beside), run.jobs);
    if (done.step === "found" && !run.o.dryRun) await finishSettled(run, report, stored, done.record);
    else if (done.step === "held") report.held.add(sub.id);
    else if (done.step === "late") report.left();
    else if (done.step === "taken-over") report.delivered(takenOver(sub, done.record, done.record.etag));
    else if (done.step === "would") report.delivered(dryRunLine(sub, done.record, done.prepared));
    else if (done.step === "settled")
      report.delivered(await settleSubscription(run, report, stored, done.record, beside.change!));
  } catch (error) {
    report.delivered(storeFailedLine(sub, when, error));
  } finally {
    await beside.pruning;
  }
}

/** A day's delivery as a print job. Its first claim also prunes the subscription's old records. */
function deliveryJob(
  run: RunSettings,
  sub: Subscription,
  when: DueDelivery,
  beside: Beside,
): PrintJob<DeliveryRecord, Asked> {
  const { o } = run;
  return {
    slot: recordSlot(o.store, deliveryKey(sub.id, when.date)),
    first: () => firstClaim(sub, when, o.at),
    service: printService(sub, o.sealKey),
    prepare: (claimed) => {
      // Beside the delivery rather than after it: the store round trips on a delivery's way are what a batch waits on.
      if (claimed.attempts === 1 && !o.dryRun) beside.pruning = pruneOldRecords(run, sub);
      return ask(run, sub, claimed);
    },
    page: ({ action, page, from }) =>
      action === "print" && page && from !== undefined ? { ...page, from } : undefined,
    send: (page, boundMs) => postToPrinter({ ...o, timeoutMs: boundMs }, sub, page, page.from),
    settle: (claimed, asked, print) => {
      const { record, change } = settle(sub, claimed, asked.edition, print, new Date(o.at.getTime()));
      beside.change = change;
      return record;
    },
  };
}

/** The publication's meta.json and the day's edition, both from the run's cache, and what the answer means. */
async function ask(run: RunSettings, sub: Subscription, rec: DeliveryRecord): Promise<Asked> {
  const meta = await run.cache.metaOf(sub.slug);
  const fetched: FetchedEdition =
    "error" in meta
      ? { status: null, etag: null, error: meta.error }
      : await run.cache.editionOf(editionUrl(run.o.origin, sub, rec, meta));
  const { page, ...edition } = fetched;
  const action = editionAction(edition.status, edition.etag, sub.lastEtag);
  return { edition, page, action, ...(!("error" in meta) && { from: meta.name }) };
}

/** The subscription's delivery records older than the run keeps, deleted (bounded by the run's budget). */
function pruneOldRecords(run: RunSettings, sub: Subscription): Promise<unknown> {
  const { o } = run;
  const expired = (date: string) => deliveryExpired(date, o.at, run.keepDays);
  // A store that fails here fails the delivery's own writes too, and says so there; the next day prunes again.
  return pruneDeliveries(o.store, sub.id, expired, run.prunes).catch(() => false);
}

/** A dry run's line: what would be done. */
function dryRunLine(sub: Subscription, rec: DeliveryRecord, asked: Asked): DeliveryLine {
  const prints = asked.action === "print";
  const detail = prints ? `would print on ${printerName(sub.printer)}` : `would not print (${asked.action})`;
  return lineOf(sub, rec, prints ? "would print" : "would not print", detail, asked.edition.etag);
}
