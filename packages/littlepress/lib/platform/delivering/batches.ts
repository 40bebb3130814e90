// One kept batch of a delivery run (plan.ts plans them, hand-over.ts hands
// them over): what the background function deliver-background runs, with the
// code every delivery runs with (deliver-batch.ts).
import { subscriptionKey } from "../stores/store-keys.ts";
import { deliverBatch } from "./deliver-batch.ts";
import { BATCH_AGAIN_MS, batchKey, newId, type StoredBatch } from "./hand-over.ts";
import { openRun, RunReport, type DeliveryReport, type DeliveryRunOptions } from "./run-state.ts";
import { pruneRateCounters } from "./upkeep.ts";

/** What a batch did: the report of its deliveries, and whether it is kept for another try. */
export interface BatchOutcome {
  report: DeliveryReport;
  /** Subscriptions kept to be tried again (offline printers, unreachable publications, end slips to retry). */
  again: number;
  /** The batch was gone (done already): nothing was run. */
  gone?: boolean;
}

/** Outcomes that a later try may change: the delivery or slip is tried again ("unknown" never is). */
const TRY_AGAIN = new Set(["offline", "failed", "error"]);

/**
 * Runs one kept batch at `options.at`, and then keeps what is left of it to
 * try again (BATCH_AGAIN_MS on), or drops it. Safe to run twice, and at once
 * with another run over the same subscriptions. Throws when the store fails
 * before the batch is done (Netlify invokes the function again).
 */
export async function runBatch(options: DeliveryRunOptions, key: string): Promise<BatchOutcome> {
  const { store, at } = options;
  const kept = await store.get<StoredBatch>(key);
  if (!kept) return { report: new RunReport().final(at, 0, 0), again: 0, gone: true };
  const batch = kept.value;
  const run = openRun(options, { repair: batch.repair === true });
  const progress = new RunReport();
  await deliverBatch(
    run,
    progress,
    batch.ids.map((id) => subscriptionKey(id)),
  );
  // The daily sweep's batches also prune the rate limit's counters.
  if (batch.repair && !options.dryRun) await pruneRateCounters(run);
  const report = progress.final(at, batch.ids.length, run.prunes.taken ?? 0);
  if (options.dryRun) return { report, again: 0 };
  const again = new Set<string>(
    [...report.lines, ...report.notices].filter((l) => TRY_AGAIN.has(l.outcome)).map((l) => l.subscription),
  );
  // Deliveries another run holds (a function that died a moment ago, its claims not stale yet): tried again.
  for (const id of progress.held) again.add(id);
  // What the batch had no time for (its 15 minutes) is handed over again whole: claims make that safe.
  const retry = report.left || report.unchecked ? batch.ids : batch.ids.filter((id) => again.has(id));
  if (retry.length) {
    const next = batchKey(at.getTime() + BATCH_AGAIN_MS, newId());
    await store.put(next, { ...batch, ids: retry, repair: false });
  }
  await store.delete(key);
  return { report, again: retry.length };
}
