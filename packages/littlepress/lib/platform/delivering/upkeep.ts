// The upkeep stage: what delivery runs keep tidy, off a delivery's own path
// and bounded by the run's deletions (PruneBudget). A subscription's index
// keys follow it (upkeep, dropKeys); a subscription that ended longer ago than
// records are kept goes; after a run that read every subscription, index keys
// and seats that no subscription holds go (runUpkeep), and the rate limit's
// counters of hours that are over. What fails of it (the store) the next run
// does again: upkeep never fails a delivery or a report.
import { subscriptionExpired, type Subscription } from "../../model/subscription.ts";
import type { StateStore } from "../stores/state-store.ts";
import { liveKey, seatKey, slotKey, type LiveEntry } from "../stores/store-keys.ts";
import { pruneRateLimits } from "../stores/rate-limit-pruning.ts";
import { dropStrayIndexKeys } from "../stores/subscriptions.ts";
import { removeSubscription } from "../stores/subscription-removal.ts";
import { dropStraySeats, releaseSeat } from "../stores/seats.ts";
import type { RunIndexes, RunReport, RunSettings } from "./run-state.ts";

/**
 * Keeps a subscription's entries right before its delivery: removes one that
 * ended longer ago than records are kept (false: it is gone, or going, with
 * the next run when the run's deletions ran out), and keeps the live index in
 * step with it (in it while live, out of it once ended; its seat given back once ended).
 */
export async function upkeep(run: RunSettings, sub: Subscription): Promise<boolean> {
  const { store, at } = run.o;
  try {
    if (subscriptionExpired(sub, at, run.keepDays)) {
      await removeSubscription(store, sub, run.prunes, at);
      return false;
    }
    await keepIndexKeys(store, sub, run.indexes);
    if (sub.ended && sub.seat !== undefined) {
      const { seated, repair = false } = run.indexes;
      if (seated ? seated.has(seatKey(sub.slug, sub.seat)) : repair) await releaseSeat(store, sub, at);
    }
  } catch {
    // The store failed: the next run does it again; the delivery goes on (if the store lets it).
  }
  return true;
}

/** A subscription in the live index and the schedule while live, out of them once ended. */
async function keepIndexKeys(store: StateStore, sub: Subscription, indexes: RunIndexes): Promise<void> {
  const entry: LiveEntry = { at: sub.created };
  const { indexed, slotted, repair = false } = indexes;
  // A run that listed an index knows what to add or drop; a batch that did not adds and drops on a sweep only.
  for (const [key, listed] of [
    [liveKey(sub.slug, sub.id), indexed],
    [slotKey(sub), slotted],
  ] as const) {
    const there = listed ? listed.has(key) : undefined;
    if (!sub.ended && (there === undefined ? repair : !there)) await store.create(key, entry);
    if (sub.ended && (there ?? repair)) await store.delete(key);
  }
}

/**
 * An ended subscription leaves the live index and the schedule, and gives back
 * its seat. Each step is tried on its own: what fails, a later run's upkeep does.
 */
export async function dropKeys(store: StateStore, sub: Subscription): Promise<void> {
  await store.delete(liveKey(sub.slug, sub.id)).catch(() => undefined);
  await store.delete(slotKey(sub)).catch(() => undefined);
  await releaseSeat(store, sub, new Date()).catch(() => undefined);
}

/**
 * After a self-hosted run, in its time only: index keys and seats that no
 * subscription holds (known only once every subscription was read), and the
 * rate limit's counters of hours that are over.
 */
export async function runUpkeep(
  run: RunSettings,
  report: RunReport,
  listed: Required<Omit<RunIndexes, "repair">>,
): Promise<void> {
  if (run.o.dryRun || run.now() >= run.times.startBy) return;
  const { store, at } = run.o;
  const unseen = (keys: ReadonlySet<string>) => [...keys].filter((key) => !report.seen.has(key));
  try {
    if (!report.unchecked) {
      await dropStrayIndexKeys(store, at, [...unseen(listed.indexed), ...unseen(listed.slotted)], run.prunes);
      // Seats no subscription holds: a subscribe or a release cut short (young ones are left alone).
      await dropStraySeats(store, at, unseen(listed.seated), run.prunes);
    }
    await pruneRateCounters(run);
  } catch {
    // The store failed: the next run does it again, and the report is not lost for it.
  }
}

/**
 * The rate limit's counters of hours that are over, pruned within the run's
 * deletions: after a self-hosted run, and by a daily sweep's batches.
 */
export async function pruneRateCounters(run: RunSettings): Promise<void> {
  const { store, at } = run.o;
  // The store failed: the next run (or sweep) prunes them.
  await pruneRateLimits(store, at, run.prunes, Math.min(8, run.concurrency)).catch(() => 0);
}
