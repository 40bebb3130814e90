// What one delivery run is made of, apart from its top (run.ts, batches.ts):
// its settings, which nothing changes once it is open, and its report, which
// the deliveries add to through its methods and nothing else writes.
import {
  BACKGROUND_BUDGET_MS,
  DELIVERY_TIMEOUT_MS,
  runTimes,
  sendWindow,
  type RunTimes,
} from "../../model/run-budget.ts";
import { STALE_CLAIM_MS } from "../../model/print-job.ts";
import type { PrintKeyPolicy } from "../printers/print-key-client.ts";
import { serviceLimits } from "../printing/in-flight.ts";
import type { JobRunner } from "../printing/print-job.ts";
import type { PruneBudget, StateStore } from "../stores/state-store.ts";
import { runCache, type RunCache } from "./asking.ts";
import { byName, type DeliveryLine } from "./report-lines.ts";

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
  /**
   * Pages in flight at once to one print service, at most (default DELIVERY_CONCURRENCY); each service's own limit
   * adapts below it (in-flight.ts).
   */
  concurrency?: number;
  /** Per request to the publication, its body included (default DELIVERY_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The longest a send to a print key waits for its answer, within the run's time (default PRINT_TIMEOUT_MS). */
  printTimeoutMs?: number;
  /**
   * The run's time, measured from its start on the wall clock (default
   * BACKGROUND_BUDGET_MS): no delivery starts later than this less four
   * timeouts (run-budget.ts), so the run ends within it; what is left goes to the next run.
   */
  budgetMs?: number;
  /**
   * Delivery records older than this many days are deleted, and subscriptions that ended longer ago (default
   * KEEP_DELIVERIES_DAYS).
   */
  keepDeliveriesDays?: number;
  /** Deletions a run makes at most to prune what piles up (default PRUNES_PER_RUN); the rest goes on the next run. */
  prunesPerRun?: number;
  /** Whether the publication `slug` prints the end slip (publication.json's `end_notice`). Default: every one does. */
  endNotice?: (slug: string) => boolean;
  /**
   * A first claim younger than this (ms on the run's clock) is settled without reading it back (default
   * CLAIM_RECHECK_MS).
   */
  claimRecheckMs?: number;
  /** The site's address for people, which the end slip's subscribe link names (default: `origin`). */
  publicOrigin?: string;
  fetch?: typeof fetch;
}

/**
 * Pages in flight at once to one print service, at most: each service's limit
 * starts low and grows while it answers fast (in-flight.ts), so a shared
 * sirius that renders before it answers is never sent 48 at once.
 */
export const DELIVERY_CONCURRENCY = 48;
/** How long delivery records are kept, in days (the desk's history shows them). */
export const KEEP_DELIVERIES_DAYS = 90;
/** Deletions a run makes at most to prune, and only before its last start time: the rest goes on the next run. */
export const PRUNES_PER_RUN = 500;
/** Half the time a claim holds: a claim younger than this cannot have been taken over. */
export const CLAIM_RECHECK_MS = STALE_CLAIM_MS / 2;

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

/** What the deliveries of one run share and never change: its options, clock and times, caches and limits. */
export interface RunSettings {
  readonly o: DeliveryRunOptions & { timeoutMs: number };
  /** Subscriptions worked on at once, and the most pages in flight to one service. */
  readonly concurrency: number;
  readonly indexes: RunIndexes;
  readonly cache: RunCache;
  readonly times: RunTimes;
  /** The run's wall clock, on which `times` are. */
  readonly now: () => number;
  readonly keepDays: number;
  /**
   * Deletions still allowed this run (counted down by every pruning, the one shared budget), and only before startBy.
   */
  readonly prunes: PruneBudget;
  /** What every print job of the run is given (lib/platform/printing/print-job.ts). */
  readonly jobs: JobRunner;
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
  /** Pages sent with no answer (deliveries and end slips): they may have printed, and are not sent again. */
  unknown: number;
}

/** A run's report as it goes: the deliveries add to it, and only through these methods. */
export class RunReport {
  #lines: DeliveryLine[] = [];
  #paused: DeliveryLine[] = [];
  #notices: DeliveryLine[] = [];
  #due = 0;
  #left = 0;
  #unchecked = 0;
  /** Subscriptions whose delivery another run held (claimed, not yet stale, not settled). */
  readonly held = new Set<string>();
  /** The live-index and schedule keys of the subscriptions read. */
  readonly seen = new Set<string>();

  delivered(line: DeliveryLine): void {
    this.#lines.push(line);
  }
  skipped(paused: DeliveryLine): void {
    this.#paused.push(paused);
  }
  noticed(line: DeliveryLine): void {
    this.#notices.push(line);
  }
  due(): void {
    this.#due++;
  }
  left(): void {
    this.#left++;
  }
  unread(): void {
    this.#unchecked++;
  }
  get unchecked(): number {
    return this.#unchecked;
  }

  /** The report of a run that read `subscriptions` subscriptions. */
  final(at: Date, subscriptions: number, pruned: number): DeliveryReport {
    const lines = this.#lines.sort(byName);
    const notices = this.#notices.sort(byName);
    return {
      at: at.toISOString(),
      subscriptions,
      due: this.#due,
      lines,
      paused: this.#paused.sort(byName),
      left: this.#left,
      unchecked: this.#unchecked,
      pruned,
      notices,
      unknown: [...lines, ...notices].filter((l) => l.outcome === "unknown").length,
    };
  }
}

/** A run's settings, for one or more batches of subscriptions. Throws when its budget cannot hold a delivery. */
export function openRun(options: DeliveryRunOptions, indexes: RunIndexes = {}): RunSettings {
  const now = () => performance.now();
  const o = { ...options, timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS };
  const times = runTimes(now(), options.budgetMs ?? BACKGROUND_BUDGET_MS, o.timeoutMs);
  if ("error" in times) throw new RangeError(`runDeliveries: ${times.error}`);
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  const jobs: JobRunner = {
    at: o.at,
    now,
    recheckMs: o.claimRecheckMs ?? CLAIM_RECHECK_MS,
    limits: serviceLimits(concurrency, now),
    sendWindow: () => sendWindow(times, now(), o.printTimeoutMs),
    dryRun: o.dryRun,
  };
  return {
    o,
    times,
    now,
    concurrency,
    indexes,
    keepDays: options.keepDeliveriesDays ?? KEEP_DELIVERIES_DAYS,
    prunes: { deletes: options.prunesPerRun ?? PRUNES_PER_RUN, inTime: () => now() < times.startBy },
    cache: runCache(o),
    jobs,
  };
}
