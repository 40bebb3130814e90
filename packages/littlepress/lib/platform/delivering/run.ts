// A delivery run: the platform's side, played for the kit's own subscribers.
// Every subscription due at the run's instant gets its day's /edition/
// request, asked over HTTP exactly as the platform asked; what is to print is
// POSTed to the subscriber's print key. Each delivery is claimed first (one
// record per subscription and date, created only if new), so overlapping runs
// never send twice, and a run that dies halfway leaves claims that the next
// run resumes once they are stale.
//
// The stages, each in its file, top-down:
// - this file: a run's options, its shared state (Run), its report, and the self-hosted run;
// - deliver-batch.ts: a batch of subscriptions, each read, kept and delivered to if due;
// - deliver-one.ts: one delivery: claim (claims.ts), ask (asking.ts), post
//   (../printers/print-key-post.ts), settle (settling.ts);
// - upkeep.ts: what a run keeps tidy beside its deliveries, bounded (pruning, stray index keys);
// - end-notices.ts: the one slip a subscription that a 410 ended owes its subscriber.
//
// Everything a run does is bounded: it starts no delivery after its time
// budget less the longest one can take (run-budget.ts) and leaves the rest to
// the next run; retries back off, and a print key failing day after day is
// paused (subscription.ts).
import { DELIVERY_TIMEOUT_MS, RUN_BUDGET_MS, runTimes, type RunTimes } from "../../model/run-budget.ts";
import type { PrintKeyPolicy } from "../printers/print-key-client.ts";
import type { PruneBudget, StateStore } from "../stores/state-store.ts";
import { LIVE, SEATS, SLOTS, SUBSCRIPTIONS } from "../stores/store-keys.ts";
import { runCache, type RunCache } from "./asking.ts";
import { deliverBatch } from "./deliver-batch.ts";
import { byName, type DeliveryLine } from "./report-lines.ts";
import { runUpkeep } from "./upkeep.ts";

export type { DeliveryLine } from "./report-lines.ts";

export interface DeliveryRunOptions {
  store: StateStore;
  /** Where the publications are served ("https://example.netlify.app"): asked as the platform asks. */
  origin: string;
  /** The key the print keys are sealed under. */
  sealKey: Buffer;
  /** Where print keys may be, and how they are asked (lib/platform/printers/print-key-client.ts). */
  printKeys: PrintKeyPolicy;
  /** The run's instant (the clock is passed in, so tests and --at control it). */
  at: Date;
  /** Only say what would be sent: no claims, no POSTs, nothing written or pruned. */
  dryRun?: boolean;
  /** Deliveries in flight at once (default DELIVERY_CONCURRENCY). */
  concurrency?: number;
  /** Per request, to the publication and to the print key, its body included (default DELIVERY_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * The run's time, measured from its start on the wall clock (default
   * RUN_BUDGET_MS): no delivery starts later than this less three timeouts
   * (run-budget.ts), so the run ends within it; what is left goes to the next run.
   */
  budgetMs?: number;
  /**
   * Delivery records older than this many days are deleted, and subscriptions
   * that ended longer ago (default KEEP_DELIVERIES_DAYS).
   */
  keepDeliveriesDays?: number;
  /** Deletions a run makes at most to prune what piles up (default PRUNES_PER_RUN); the rest goes on the next run. */
  prunesPerRun?: number;
  /**
   * Whether the publication `slug` prints the end slip when its series is
   * over (publication.json's `end_notice`; end-notices.ts's endNoticesOf
   * reads a built site's). Default: every publication does.
   */
  endNotice?: (slug: string) => boolean;
  /**
   * A first claim younger than this (ms on the run's clock) is settled from
   * the version its create answered, without reading it back before the POST
   * (default CLAIM_RECHECK_MS): no other run can take over a claim before it is stale.
   */
  claimRecheckMs?: number;
  /** The site's address for people, which the end slip's subscribe link names (default: `origin`). */
  publicOrigin?: string;
  fetch?: typeof fetch;
}

export interface DeliveryReport {
  at: string;
  subscriptions: number;
  /** Subscriptions due at the run's instant (the paused ones skipping the day not among them). */
  due: number;
  /** What the run did, one line per delivery it worked on. */
  lines: DeliveryLine[];
  /** The subscriptions due but paused, skipping the day (their print keys kept failing), one line each. */
  paused: DeliveryLine[];
  /** Due deliveries still to do that the run did not start, its time being up: the next run takes them. */
  left: number;
  /** Subscriptions the run did not even read, its time being up (some may be due): the next run reads them. */
  unchecked: number;
  /** Entries deleted as too old: delivery records, long-ended subscriptions, rate-limit counters, stray index keys. */
  pruned: number;
  /** The end slips the run worked on (or, dry, would), one line each: outcome "printed", "offline", "off", … */
  notices: DeliveryLine[];
}

/**
 * Deliveries in flight at once. A delivery mostly waits (the store, edition/,
 * the print key across the internet), so many at once: 48 ran 1,000
 * subscribers some 25% faster than 16 did (BENCHMARKS.md, "Delivery run").
 */
export const DELIVERY_CONCURRENCY = 48;
export { DELIVERY_TIMEOUT_MS, RUN_BUDGET_MS };
export { PREPARED_PER_POST } from "./deliver-batch.ts";
/** How long delivery records are kept, in days (the desk's history shows them). */
export const KEEP_DELIVERIES_DAYS = 90;
/** Deletions a run makes at most to prune, and only before its last start time: the rest goes on the next run. */
export const PRUNES_PER_RUN = 500;
/** Subscriptions a self-hosted run (npm run deliver) works on per batch, one batch after the other. */
export const SELF_HOSTED_BATCH = 1_000;

/**
 * What a run knows of the indexes before it starts: the live index's keys and
 * the schedule's (listed by a self-hosted run, which reads every
 * subscription), or nothing (a batch, which adds what may be missing with
 * conditional creates when `repair`, and otherwise takes them to be there).
 */
export interface RunIndexes {
  indexed?: ReadonlySet<string>;
  slotted?: ReadonlySet<string>;
  /** The seats' keys (seats.ts), listed by a self-hosted run. */
  seated?: ReadonlySet<string>;
  /** A batch of the daily sweep: make sure each live subscription has its index and schedule keys. */
  repair?: boolean;
}

/** What the deliveries of one run share: its options, clock and budgets, its caches, and its report so far. */
export interface Run {
  o: DeliveryRunOptions & { timeoutMs: number };
  /** Deliveries in flight at once: POSTs to print keys at once. */
  concurrency: number;
  /** Holds the POSTs to print keys to `concurrency` at once. */
  posts: <R>(work: () => Promise<R>) => Promise<R>;
  indexes: RunIndexes;
  /** The live-index and schedule keys of the subscriptions read. */
  seen: Set<string>;
  /** Subscriptions whose delivery another run held (claimed, not yet stale, not settled). */
  held: Set<string>;
  lines: DeliveryLine[];
  paused: DeliveryLine[];
  due: number;
  left: number;
  unchecked: number;
  cache: RunCache;
  times: RunTimes;
  /** The run's wall clock, on which `times` are. */
  now: () => number;
  keepDays: number;
  /** Deletions still allowed this run (counted down by every pruning), and only before startBy. */
  prunes: PruneBudget;
  /** The end slips worked on so far. */
  notices: DeliveryLine[];
}

/** A self-hosted run (npm run deliver): every subscription, in batches one after the other, then the upkeep. */
export async function runDeliveries(options: DeliveryRunOptions): Promise<DeliveryReport> {
  const { store } = options;
  // The index is listed before the subscriptions: a key that a subscribe writes in between is young, and kept.
  const listed = async (prefix: string) => new Set(options.dryRun ? [] : await store.list(prefix));
  const indexes = { indexed: await listed(LIVE), slotted: await listed(SLOTS), seated: await listed(SEATS) };
  const run = openRun(options, indexes);
  const keys = await store.list(SUBSCRIPTIONS);
  // The same batches a scheduled run hands to background functions (batches.ts), one after the other.
  for (let i = 0; i < keys.length; i += SELF_HOSTED_BATCH)
    await deliverBatch(run, keys.slice(i, i + SELF_HOSTED_BATCH));
  await runUpkeep(run, indexes);
  return runReport(run, keys.length);
}

/** A run's state, for one or more batches of subscriptions (deliverBatch), then its report (runReport). */
export function openRun(options: DeliveryRunOptions, indexes: RunIndexes = {}): Run {
  const now = () => performance.now();
  const o = { ...options, timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS };
  const times = runTimes(now(), options.budgetMs ?? RUN_BUDGET_MS, o.timeoutMs);
  if ("error" in times) throw new RangeError(`runDeliveries: ${times.error}`);
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  return {
    o,
    times,
    now,
    concurrency,
    posts: gate(concurrency),
    indexes,
    keepDays: options.keepDeliveriesDays ?? KEEP_DELIVERIES_DAYS,
    prunes: { deletes: options.prunesPerRun ?? PRUNES_PER_RUN, inTime: () => now() < times.startBy },
    cache: runCache(o),
    notices: [],
    seen: new Set(),
    held: new Set(),
    lines: [],
    paused: [],
    due: 0,
    left: 0,
    unchecked: 0,
  };
}

/** The report of a run that read `subscriptions` subscriptions. */
export function runReport(run: Run, subscriptions: number): DeliveryReport {
  return {
    at: run.o.at.toISOString(),
    subscriptions,
    due: run.due,
    lines: run.lines.sort(byName),
    paused: run.paused.sort(byName),
    left: run.left,
    unchecked: run.unchecked,
    pruned: run.prunes.taken ?? 0,
    notices: run.notices.sort(byName),
  };
}

/** At most `limit` holders at once: `run(work)` waits for a place. */
function gate(limit: number): <R>(work: () => Promise<R>) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (active >= limit) await new Promise<void>((go) => waiting.push(go));
    else active++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
