// One batch of a run: every subscription of a list of store keys read, kept
// (upkeep.ts), and delivered to if due (deliver-one.ts). The one code that
// delivers, whether the batch runs in a background function (Netlify,
// batches.ts) or in-process (npm run deliver, run.ts). Idempotent: every
// delivery is claimed first, so the same batch run twice, or two batches at
// once, print once.
import { eachAtMost } from "../../model/each-at-most.ts";
import { noticeNext } from "../../model/end-notice.ts";
import { deliveryDueAt, pausedOn, type Subscription } from "../../model/subscription.ts";
import { seatKey, liveKey, slotKey } from "../stores/store-keys.ts";
import { peek } from "./claims.ts";
import { deliverOne } from "./deliver-one.ts";
import { workOnEndNotice } from "./end-notices.ts";
import { pausedLine } from "./report-lines.ts";
import type { Run } from "./run.ts";
import { upkeep } from "./upkeep.ts";

/**
 * Store work in flight per POST in flight: a delivery's four store round
 * trips (30 ms each on Blobs) take longer than its POST, so many more
 * deliveries read, claim and record than POST at once (4x left the POSTs
 * waiting; BENCHMARKS.md, "Delivery fan-out").
 */
export const PREPARED_PER_POST = 10;

/**
 * Delivers to every subscription of `keys` (store keys, "subscriptions/<id>")
 * that is due, `run.concurrency * PREPARED_PER_POST` at once, so that the
 * POSTs, at `concurrency` in flight, are what a batch waits on. A store that
 * fails outside a delivery (a subscription's read) fails the batch, once what
 * is in flight is done.
 */
export async function deliverBatch(run: Run, keys: readonly string[]): Promise<void> {
  let failed: { error: unknown } | undefined;
  await eachAtMost(run.concurrency * PREPARED_PER_POST, keys, async (key) => {
    try {
      await deliverKey(run, key);
    } catch (error) {
      failed ??= { error };
    }
  });
  if (failed) throw failed.error;
}

/** One subscription of a batch: read, kept, and delivered to if due. */
async function deliverKey(run: Run, key: string): Promise<void> {
  const { o, times, now } = run;
  if (now() >= times.readBy) return void run.unchecked++;
  const stored = await o.store.get<Subscription>(key);
  if (!stored) return;
  const sub = stored.value;
  markSeen(run, sub);
  if (!o.dryRun && now() < times.startBy && !(await upkeep(run, sub))) return;
  // An ended subscription's end slip still to do (a crash, an offline printer): one request, started in time.
  if (sub.ended && noticeNext(sub.endNotice, o.at) !== "leave" && now() < times.startBy)
    return void (await workOnEndNotice(run, sub));
  const when = deliveryDueAt(sub, o.at);
  if (!when) return;
  if (pausedOn(sub, when.date)) return void run.paused.push(pausedLine(sub, when));
  run.due++;
  if (now() >= times.startBy) {
    // Out of time: whether it is still to do is all that is looked at (one read), for the report.
    if (await peek(o.store, o.at, sub, when).catch(() => true)) run.left++;
    return;
  }
  const line = await deliverOne(run, stored, when);
  if (line) run.lines.push(line);
}

/** The index keys a subscription holds: those left unseen by a run that read every subscription are strays. */
function markSeen(run: Run, sub: Subscription): void {
  run.seen.add(liveKey(sub.slug, sub.id));
  run.seen.add(slotKey(sub));
  if (sub.seat !== undefined) run.seen.add(seatKey(sub.slug, sub.seat));
}
