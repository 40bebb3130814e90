// One batch of a run: every subscription of a list of store keys read, kept
// (upkeep.ts), and delivered to if due. The one code that delivers, whether
// the batch runs in a background function (Netlify, batches.ts) or in-process
// (npm run deliver, run.ts).
//
// A day's delivery is a print job (lib/platform/printing/print-job.ts): its
// record, claimed once per subscription and date; what to print, asked of the
// publication (asking.ts); the page sent to the print key
// (../printers/print-key-post.ts); then the record settled (the model's
// settle(), one conditional write) and the subscription updated from it (its
// ETag, its count, a pause, an end: a subscription the delivery ended leaves
// the indexes and owes its end slip). So the same batch run twice, or two batches at once,
// print once. A delivery never throws: a store that fails under it is its
// report line, and its claim goes stale for the next run to resume.
import pLimit from "p-limit";
import { editionAction, type EditionAction } from "../../model/delivery-rules.ts";
import { noticeNext } from "../../model/end-notice.ts";
import { jobNext } from "../../model/print-job.ts";
import {
  afterDelivery,
  deliveryExpired,
  firstClaim,
  recordedChange,
  settle,
  type DeliveryRecord,
  type EditionAnswer,
  type SubscriptionChange,
} from "../../model/delivery-record.ts";
import { deliveryDueAt, pausedOn, type DueDelivery, type Subscription } from "../../model/subscription.ts";
import { postToPrinter, printService } from "../printers/print-key-post.ts";
import { runJob, type PrintJob } from "../printing/print-job.ts";
import { recordSlot } from "../printing/record-slot.ts";
import type { StateStore, Stored } from "../stores/state-store.ts";
import { deliveryKey, liveKey, seatKey, slotKey, subscriptionKey } from "../stores/store-keys.ts";
import { leaveLive } from "../stores/seats.ts";
import { pruneDeliveries } from "../stores/subscriptions.ts";
import { editionUrl, type FetchedEdition } from "./asking.ts";
import { workOnEndNotice } from "./end-notices.ts";
import { jobLine, pausedLine, storeFailedLine } from "./report-lines.ts";
import type { RunReport, RunSettings } from "./run-state.ts";
import { upkeep } from "./upkeep.ts";

/**
 * Subscriptions worked on at once per page in flight: a delivery's four store
 * round trips (30 ms each on Blobs) take longer than its POST, so many more
 * deliveries read, claim and record than POST at once (4x left the POSTs
 * waiting; BENCHMARKS.md, "Delivery fan-out").
 */
export const PREPARED_PER_POST = 10;

/**
 * Delivers to every subscription of `keys` (store keys, "subscriptions/<id>")
 * that is due, `run.concurrency * PREPARED_PER_POST` at once, so that the
 * sends, held to each print service's limit, are what a batch waits on. A
 * store that fails outside a delivery (a subscription's read) fails the batch,
 * once what is in flight is done.
 */
export async function deliverBatch(run: RunSettings, report: RunReport, keys: readonly string[]): Promise<void> {
  let failed: { error: unknown } | undefined;
  await pLimit(run.concurrency * PREPARED_PER_POST).map(keys, async (key) => {
    try {
      await deliverKey(run, report, key);
    } catch (error) {
      failed ??= { error };
    }
  });
  if (failed) throw failed.error;
}

/**
 * One subscription of a batch: read, kept, delivered to if due, and its end
 * slip sent when it owes one: its delivery just ended it, or a crash or an
 * offline printer left the slip of an end before to do.
 */
async function deliverKey(run: RunSettings, report: RunReport, key: string): Promise<void> {
  const { store, at, dryRun, times, now } = run;
  if (now() >= times.readBy) return report.unread();
  const stored = await store.get<Subscription>(key);
  if (!stored) return;
  const sub = stored.value;
  markSeen(report, sub);
  if (!dryRun && now() < times.startBy && !(await upkeep(run, sub))) return;
  const ended = sub.ended ? sub : await deliverIfDue(run, report, stored);
  if (!ended) return;
  // Just ended: out of the live index and the schedule, its seat given back (what fails, a later run's upkeep does).
  if (ended !== sub) await leaveLive(store, ended, new Date()).catch(() => undefined);
  // An end before this run: its slip still to do, one request, started in time.
  else if (noticeNext(sub.endNotice, at) === "leave" || now() >= times.startBy) return;
  const line = await workOnEndNotice(run, ended);
  if (line) report.noticed(line);
}

/** The day's delivery, if one is due and not paused. Answers the subscription when its delivery ended it. */
async function deliverIfDue(
  run: RunSettings,
  report: RunReport,
  stored: Stored<Subscription>,
): Promise<Subscription | undefined> {
  const { store, at, times, now } = run;
  const sub = stored.value;
  const when = deliveryDueAt(sub, at);
  if (!when) return undefined;
  if (pausedOn(sub, when.date)) {
    report.skipped(pausedLine(sub, when));
    return undefined;
  }
  report.due();
  if (now() < times.startBy) return deliverOne(run, report, stored, when);
  // Out of time: whether it is still to do is all that is looked at (one read), for the report.
  if (await stillToDo(store, deliveryKey(sub.id, when.date), at).catch(() => true)) report.left();
  return undefined;
}

/** Whether the day's delivery (its record under `key`) is still to do: a run out of time counts it, unclaimed. */
async function stillToDo(store: StateStore, key: string, at: Date): Promise<boolean> {
  const held = await store.get<DeliveryRecord>(key);
  return held === undefined || jobNext(held.value, at) === "claim";
}

/** The index keys a subscription holds: those left unseen by a run that read every subscription are strays. */
function markSeen(report: RunReport, sub: Subscription): void {
  report.seen.add(liveKey(sub.slug, sub.id));
  report.seen.add(slotKey(sub));
  if (sub.seat !== undefined) report.seen.add(seatKey(sub.slug, sub.seat));
}

/** What asking gave: the answer, its page, what to do with it, and who it is from (meta.json's name, once read). */
interface Asked {
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

/**
 * One subscription's delivery for the day `when`, as a print job: claimed,
 * asked, printed and settled; then its effect written on the subscription
 * (also for a record found settled that the subscription does not show: the
 * run that settled it died before that write). Its line goes to the report.
 * Answers the subscription as written when the delivery ended it.
 */
async function deliverOne(
  run: RunSettings,
  report: RunReport,
  stored: Stored<Subscription>,
  when: DueDelivery,
): Promise<Subscription | undefined> {
  const sub = stored.value;
  const beside: Beside = {};
  const job = deliveryJob(run, sub, when, beside);
  try {
    const done = await runJob(job, run.jobs);
    if (done.step === "held") report.held.add(sub.id);
    if (done.step === "late") report.left();
    // A record found settled may not be on the subscription yet: the run that settled it died before this write.
    const settled = done.step === "settled" || (done.step === "found" && !run.dryRun) ? done.record : undefined;
    const change = done.step === "settled" ? beside.change : undefined;
    const after = settled && (await updateSubscription(run.store, stored, settled, change));
    const line = jobLine(sub, done, after);
    if (line) report.delivered(line);
    return after?.ended ? after : undefined;
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
  const { store, at, dryRun, keys } = run;
  return {
    slot: recordSlot(store, deliveryKey(sub.id, when.date)),
    first: () => firstClaim(sub, when, at),
    service: printService(sub, keys.sealKey),
    prepare: (claimed) => {
      // Beside the delivery rather than after it: the store round trips on a delivery's way are what a batch waits on.
      if (claimed.attempts === 1 && !dryRun) beside.pruning = pruneOldRecords(run, sub);
      return ask(run, sub, claimed);
    },
    page: ({ action, page, from }) =>
      action === "print" && page && from !== undefined ? { ...page, from } : undefined,
    send: (page, boundMs) => postToPrinter({ ...keys, timeoutMs: boundMs }, sub, page, page.from),
    settle: (claimed, asked, print) => {
      const { record, change } = settle(sub, claimed, asked.edition, print, new Date(at.getTime()));
      beside.change = change;
      return record;
    },
  };
}

/** The publication's meta.json and the day's edition, both from the run's cache, and what the answer means. */
async function ask(run: RunSettings, sub: Subscription, rec: DeliveryRecord): Promise<Asked> {
  const { cache, origin } = run;
  const meta = await cache.metaOf(sub.slug);
  const fetched: FetchedEdition =
    "error" in meta
      ? { status: null, etag: null, error: meta.error }
      : await cache.editionOf(editionUrl(origin, sub, rec, meta));
  const { page, ...edition } = fetched;
  const action = editionAction(edition.status, edition.etag, sub.lastEtag);
  return { edition, page, action, ...(!("error" in meta) && { from: meta.name }) };
}

/** The subscription's delivery records older than the run keeps, deleted (bounded by the run's budget). */
function pruneOldRecords(run: RunSettings, sub: Subscription): Promise<unknown> {
  const { store, at, keepDays, prunes } = run;
  const expired = (date: string) => deliveryExpired(date, at, keepDays);
  // A store that fails here fails the delivery's own writes too, and says so there; the next day prunes again.
  return pruneDeliveries(store, sub.id, expired, prunes).catch(() => false);
}

/**
 * Writes a delivery's effect on its subscription: the change its settle made,
 * or for a record found settled (`settled` undefined: the run that settled it
 * died before this write), the change the record shows, unless the
 * subscription shows it already. First over the copy the run read (nearly
 * always still current), then from the latest stored copy (runs and
 * unsubscribes overlap). Answers the subscription as written (undefined:
 * nothing to write, or it was unsubscribed meanwhile).
 */
async function updateSubscription(
  store: StateStore,
  read: Stored<Subscription>,
  rec: DeliveryRecord,
  settled?: SubscriptionChange,
): Promise<Subscription | undefined> {
  const id = read.value.id;
  let latest: Stored<Subscription> | undefined = read;
  for (let tries = 0; tries < 5; tries++) {
    if (!latest) return undefined; // unsubscribed meanwhile
    const change = settled ?? recordedChange(latest.value, rec);
    if (!change) return undefined;
    const after = afterDelivery(latest.value, rec, change);
    if (await store.replace(subscriptionKey(id), after, latest.version)) return after;
    latest = await store.get<Subscription>(subscriptionKey(id));
  }
  throw new Error(`subscription ${id} kept changing under the run`);
}
