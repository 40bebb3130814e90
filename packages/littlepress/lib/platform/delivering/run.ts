// A delivery run: the platform's side, played for the kit's own subscribers.
// Every subscription due at the run's instant gets its day's /edition/
// request, asked over HTTP exactly as the platform asked; what is to print is
// sent to the subscriber's print key as one print job (lib/platform/printing/
// print-job.ts): claimed first, so overlapping runs never send twice, and a
// run that dies halfway leaves claims that the next run resumes once they are
// stale; a page sent with no answer is "unknown", never sent again.
//
// The stages, each in its file, top-down:
// - this file: the self-hosted run (npm run deliver), batch after batch;
// - batches.ts: a run's settings opened (read-only), and one kept batch run (the background function);
// - run-state.ts: what a run's settings hold, and its report (methods);
// - deliver-batch.ts: a batch of subscriptions, each read, kept and delivered to if due, as a print job:
//   ask (asking.ts), send, settle, and the subscription updated from the settled record;
// - upkeep.ts: what a run keeps tidy beside its deliveries, bounded (pruning, stray index keys);
// - end-notices.ts: the one slip a subscription that a 410 ended owes its subscriber.
//
// Everything a run does is bounded: it starts no delivery after its time
// budget less the longest one can take (run-budget.ts) and leaves the rest to
// the next run; retries back off, and a print key failing day after day is
// paused (subscription.ts).
import { LIVE, SEATS, SLOTS, SUBSCRIPTIONS } from "../stores/store-keys.ts";
import { openRun } from "./batches.ts";
import { deliverBatch } from "./deliver-batch.ts";
import { RunReport, type DeliveryReport, type DeliveryRunOptions } from "./run-state.ts";
import { runUpkeep } from "./upkeep.ts";

export type { DeliveryLine } from "./report-lines.ts";
export {
  CLAIM_RECHECK_MS,
  DELIVERY_CONCURRENCY,
  KEEP_DELIVERIES_DAYS,
  PRUNES_PER_RUN,
  type DeliveryReport,
  type DeliveryRunOptions,
} from "./run-state.ts";
export { DELIVERY_TIMEOUT_MS, PRINT_TIMEOUT_MS, RUN_BUDGET_MS } from "../../model/run-budget.ts";
export { PREPARED_PER_POST } from "./deliver-batch.ts";

/** Subscriptions a self-hosted run (npm run deliver) works on per batch, one batch after the other. */
export const SELF_HOSTED_BATCH = 1_000;

/** A self-hosted run (npm run deliver): every subscription, in batches one after the other, then the upkeep. */
export async function runDeliveries(options: DeliveryRunOptions): Promise<DeliveryReport> {
  const { store, at } = options;
  // The index is listed before the subscriptions: a key that a subscribe writes in between is young, and kept.
  const listed = async (prefix: string) => new Set(options.dryRun ? [] : await store.list(prefix));
  const indexes = { indexed: await listed(LIVE), slotted: await listed(SLOTS), seated: await listed(SEATS) };
  const run = openRun(options, indexes);
  const report = new RunReport();
  const keys = await store.list(SUBSCRIPTIONS);
  // The same batches a scheduled run hands to background functions (batches.ts), one after the other.
  for (let i = 0; i < keys.length; i += SELF_HOSTED_BATCH)
    await deliverBatch(run, report, keys.slice(i, i + SELF_HOSTED_BATCH));
  await runUpkeep(run, report, indexes);
  return report.final(at, keys.length, run.prunes.taken ?? 0);
}
