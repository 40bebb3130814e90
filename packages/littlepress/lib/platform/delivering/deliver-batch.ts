// One batch of a run: every subscription of a list of store keys read, kept
// (upkeep.ts), and delivered to if due (deliver-one.ts). The one code that
// delivers, whether the batch runs in a background function (Netlify,
// batches.ts) or in-process (npm run deliver, run.ts). Idempotent: every
// delivery is a print job, claimed first, so the same batch run twice, or two
// batches at once, print once.
import { eachAtMost } from "../../model/each-at-most.ts";
import { noticeNext } from "../../model/end-notice.ts";
import { jobNext } from "../../model/print-job.ts";
import { deliveryDueAt, pausedOn, type DeliveryRecord, type Subscription } from "../../model/subscription.ts";
import type { Stored } from "../stores/state-store.ts";
import { deliveryKey, seatKey, liveKey, slotKey } from "../stores/store-keys.ts";
import { deliverOne } from "./deliver-one.ts";
import { workOnEndNotice } from "./end-notices.ts";
import { pausedLine } from "./report-lines.ts";
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
  await eachAtMost(run.concurrency * PREPARED_PER_POST, keys, async (key) => {
    try {
      await deliverKey(run, report, key);
    } catch (error) {
      failed ??= { error };
    }
  });
  if (failed) throw failed.error;
}

/** One subscription of a batch: read, kept, and delivered to if due. */
async function deliverKey(run: RunSettings, report: RunReport, key: string): Promise<void> {
  const { o, times, now } = run;
  if (now() >= times.readBy) return report.unread();
  const stored = await o.store.get<Subscription>(key);
  if (!stored) return;
  const sub = stored.value;
  markSeen(report, sub);
  if (!o.dryRun && now() < times.startBy && !(await upkeep(run, sub))) return;
  // An ended subscription's end slip still to do (a crash, an offline printer): one request, started in time.
  if (sub.ended && noticeNext(sub.endNotice, o.at) !== "leave" && now() < times.startBy)
    return workOnEndNotice(run, report, sub);
  const when = deliveryDueAt(sub, o.at);
  if (!when) return;
  if (pausedOn(sub, when.date)) return report.skipped(pausedLine(sub, when));
  report.due();
  if (now() < times.startBy) return deliverOne(run, report, stored, when);
  // Out of time: whether it is still to do is all that is looked at (one read), for the report.
  if (await stillToDo(run, stored, when.date).catch(() => true)) report.left();
}

/** Whether the day's delivery is still to do (a run out of time counts it, without claiming it). */
async function stillToDo(run: RunSettings, stored: Stored<Subscription>, date: string): Promise<boolean> {
  const held = await run.o.store.get<DeliveryRecord>(deliveryKey(stored.value.id, date));
  return held === undefined || jobNext(held.value, run.o.at) === "claim";
}

/** The index keys a subscription holds: those left unseen by a run that read every subscription are strays. */
function markSeen(report: RunReport, sub: Subscription): void {
  report.seen.add(liveKey(sub.slug, sub.id));
  report.seen.add(slotKey(sub));
  if (sub.seat !== undefined) report.seen.add(seatKey(sub.slug, sub.seat));
}
