// The scheduled delivery run (every 15 minutes, functions/deliver.mts). On
// Netlify it delivers nothing itself: it plans. It finds who is due, without
// reading anyone, and hands them, in signed batches (hand-over.ts), to the
// background function deliver-background (batches.ts), which has 15 minutes a
// batch where this function has 30 seconds; hand-overs are POSTs that Netlify
// answers 202 at once. Each batch runs with the code a self-hosted run delivers
// with (deliver-batch.ts): every delivery is claimed first, so a batch run
// twice, or two batches at once, print once. After the plan it prints the
// deploy's push editions (push-run.ts), in the time the run has left.
//
// Finding who is due: the schedule index, slots/<hour>.<zone>/<id>
// (store-keys.ts). A run lists the slots (one folder per delivery hour and
// time zone in use), keeps those whose delivery time today falls in the run's
// quarter hour, and lists their keys. Once a day (the run of 00:00 UTC, and
// the first run ever), a sweep hands over every subscription, as batches that
// also repair the indexes, prune, and catch what a missed run left; the plan
// then deletes index keys whose subscription is gone (sweep.ts).
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { addDays } from "../../model/dates.ts";
import { localDeliveryTime } from "../../model/delivery-time.ts";
import { RUN_BUDGET_MS } from "../../model/run-budget.ts";
import { todayIn } from "../../model/time-zones.ts";
import { platformFunction } from "../platform-function.ts";
import { scheduledPushes } from "../pushing/push-run.ts";
import type { PruneBudget, StateStore } from "../stores/state-store.ts";
import { LIVE, SEATS, slotFrom, slotOf, SLOTS, SUBSCRIPTIONS } from "../stores/store-keys.ts";
import {
  BATCH_MAX_AGE_MS,
  BATCH_RETRY_MS,
  BATCHES,
  batchKey,
  handOverByPost,
  newId,
  notBeforeOf,
  type BatchCall,
  type StoredBatch,
} from "./hand-over.ts";
import { dropStrays } from "./sweep.ts";

export const deliver: FunctionHandler = platformFunction(
  "deliver",
  async (req, runtime) => {
    const started = performance.now();
    const state = runtime.state();
    if ("error" in state) {
      console.error(`deliver: ${state.error}`);
      return jsonResponse({ error: state.error }, 503);
    }
    const origin = runtime.originFor(req);
    const plan = await planRun({ store: state.store, at: new Date(), hand: handOverByPost(origin, state.sealKey) });
    console.log(`deliver: ${planSummary(plan)}`);
    // Then the push editions of this deploy, in what is left of the run's time.
    const pushBy = started + RUN_BUDGET_MS;
    const { site } = runtime;
    await scheduledPushes({ ...state, site, origin, printKeys: runtime.printKeys(), at: new Date() }, pushBy);
    return jsonResponse(plan);
  },
  () => jsonResponse({ error: "the run failed; the next one resumes it" }, 500),
);

/** The plan in one line for the log. */
function planSummary(plan: PlanReport): string {
  return (
    `at ${plan.at}: ${plan.dueSlots} of ${plan.slots} delivery slots due; ` +
    `${plan.subscriptions} subscriptions handed over in ${plan.batches} batches` +
    (plan.sweep ? " (the daily sweep: every subscription)" : "") +
    (plan.again ? `; ${plan.again} kept batches handed over again` : "") +
    (plan.dropped ? `; ${plan.dropped} batches dropped as over a day old` : "") +
    (plan.failed ? `; ${plan.failed} hand-overs failed (kept for the next run)` : "") +
    (plan.strays ? `; ${plan.strays} index keys without a subscription deleted` : "")
  );
}

/**
 * Stray index keys a sweep deletes at most, and only in its first 20 seconds
 * (the plan has 30): strays are rare, and the next day's sweep takes the rest.
 */
const STRAYS_PER_SWEEP = 200;
const STRAYS_UNTIL_MS = 20_000;
/**
 * Subscriptions a batch takes at most. A batch has fixed costs (its first POSTs
 * wait for a read and a claim, its last for two writes): at 2,000 they weigh a
 * quarter of what they did at 500, and a batch still takes seconds of its 15 minutes.
 */
export const BATCH_SIZE = 2_000;
/** Runs are scheduled every 15 minutes: a run plans the slots whose time is in its quarter hour. */
export const QUARTER_MS = 15 * 60_000;
/** The marker of a store that had its first sweep (the schedule index is complete from then on). */
export const SWEPT = "meta/schedule-swept";

export interface PlanOptions {
  store: StateStore;
  /** The run's instant. */
  at: Date;
  /** Hands a batch over (a signed POST to the background function, or in-process): resolves once it is taken. */
  hand: (call: BatchCall) => Promise<void>;
  /** Subscriptions a batch takes (default BATCH_SIZE). */
  batchSize?: number;
  /** Hand-overs at once (default 8). */
  concurrency?: number;
  /** Sweep: hand every subscription over (default: at the run of 00:00 UTC, and when the store was never swept). */
  sweep?: boolean;
}

export interface PlanReport {
  at: string;
  /** Slots (delivery hour and zone) in use, and those due in this run's quarter hour. */
  slots: number;
  dueSlots: number;
  /** Subscriptions handed over fresh (due now, or the sweep's). */
  subscriptions: number;
  /** New batches handed over. */
  batches: number;
  /** Kept batches handed over again (died, or with deliveries to retry). */
  again: number;
  /** Kept batches dropped as too old. */
  dropped: number;
  sweep: boolean;
  /** Hand-overs that failed (the batch stays kept, and a later run hands it over). */
  failed: number;
  /** Index keys deleted on the sweep, their subscription gone (subscriptions.ts). */
  strays: number;
}

/** The start of the quarter hour `at` is in: a run plans the slots whose time is in (start - 15 min, start]. */
const quarterOf = (at: Date) => Math.floor(at.getTime() / QUARTER_MS) * QUARTER_MS;

/** Whether a slot's delivery time today (or yesterday, on the printer's clock) falls in the run's quarter. */
export function slotDue(zone: string, hour: number, at: Date): boolean {
  const end = quarterOf(at);
  const today = todayIn(zone, at);
  for (const date of [today, addDays(today, -1)]) {
    const { ms } = localDeliveryTime(date, hour, zone);
    if (ms > end - QUARTER_MS && ms <= end) return true;
  }
  return false;
}

/**
 * A scheduled run: hands over, in batches, every kept batch whose time has
 * come, on a sweep every subscription, and otherwise every subscription whose
 * slot is due in this quarter hour. Reads no subscription: lists the schedule
 * and the kept batches, writes one key per batch.
 */
export async function planRun(o: PlanOptions): Promise<PlanReport> {
  const started = performance.now();
  const report: PlanReport = {
    ...{ at: o.at.toISOString(), slots: 0, dueSlots: 0, subscriptions: 0, batches: 0, again: 0 },
    ...{ dropped: 0, sweep: false, failed: 0, strays: 0 },
  };
  const hands = handOvers(o, report);
  // Kept batches first (listed before this run adds its own).
  await handOverKept(o, hands, report);
  report.sweep = o.sweep ?? (o.at.getTime() % 86_400_000 < QUARTER_MS || !(await o.store.get(SWEPT)));
  if (report.sweep) await sweep(o, hands, report, started);
  await handOverDue(o, hands, report);
  await hands.settled();
  return report;
}

/** How a plan hands batches over, `o.concurrency` at once, counting what it did in `report`. */
interface HandOvers {
  /** Hands the kept batch `key` over (`again`: a kept one, not a new one). */
  hand(key: string, again: boolean): Promise<void>;
  /** Keeps a new batch of `ids`, then hands it over. */
  add(ids: string[], repair: boolean): Promise<void>;
  /** Once every hand-over is answered. */
  settled(): Promise<void>;
}

function handOvers(o: PlanOptions, report: PlanReport): HandOvers {
  const { store, at } = o;
  const handing = new Set<Promise<void>>();
  const limit = o.concurrency ?? 8;
  // A batch whose hand-over failed is kept for the next run (15 minutes on), not for BATCH_RETRY_MS as one
  // handed over is (its function may still be running it); when the store fails too, it waits that long.
  const forNextRun = async (key: string) => {
    try {
      const kept = await store.get<StoredBatch>(key);
      if (!kept) return;
      await store.put(batchKey(at.getTime(), newId()), kept.value);
      await store.delete(key);
    } catch {
      // kept under its first key, handed over again after BATCH_RETRY_MS
    }
  };
  const hand = async (key: string, again: boolean) => {
    while (handing.size >= limit) await Promise.race(handing);
    const done = o
      .hand({ batch: key, at: at.toISOString() })
      .then(() => void (again ? report.again++ : report.batches++))
      .catch(async () => {
        // Counted, and the batch kept: the reason went to the log of the function that refused or failed.
        report.failed++;
        await forNextRun(key);
      })
      .finally(() => handing.delete(done));
    handing.add(done);
  };
  const add = async (ids: string[], repair: boolean) => {
    const key = batchKey(at.getTime() + BATCH_RETRY_MS, newId());
    const batch: StoredBatch = { ids, made: at.toISOString(), handed: 1, ...(repair && { repair }) };
    // Kept before it is handed over: a hand-over that fails, or a function that dies, leaves it for a later run.
    await store.put(key, batch);
    report.subscriptions += ids.length;
    await hand(key, false);
  };
  return { hand, add, settled: async () => void (await Promise.all(handing)) };
}

/** Kept batches whose time has come, handed over again (their function died, or some deliveries are to retry). */
async function handOverKept(o: PlanOptions, hands: HandOvers, report: PlanReport): Promise<void> {
  const { store, at } = o;
  for (const key of await store.list(BATCHES)) {
    const notBefore = notBeforeOf(key);
    if (notBefore === undefined || notBefore > at.getTime()) continue;
    const kept = await store.get<StoredBatch>(key);
    if (!kept) continue;
    await store.delete(key);
    if (Date.parse(kept.value.made) < at.getTime() - BATCH_MAX_AGE_MS) {
      report.dropped++;
      continue;
    }
    const next = batchKey(at.getTime() + BATCH_RETRY_MS, newId());
    await store.put(next, { ...kept.value, handed: kept.value.handed + 1 });
    await hands.hand(next, true);
  }
}

/** The daily sweep: every subscription handed over, in batches that repair the indexes; then the strays dropped. */
async function sweep(o: PlanOptions, hands: HandOvers, report: PlanReport, started: number): Promise<void> {
  const { store, at } = o;
  const size = o.batchSize ?? BATCH_SIZE;
  // The indexes are listed before the subscriptions: a key a subscribe writes in between is young, and kept.
  const indexed = [...(await store.list(LIVE)), ...(await store.list(SLOTS))];
  const seats = await store.list(SEATS);
  const ids = (await store.list(SUBSCRIPTIONS)).map((k) => k.slice(SUBSCRIPTIONS.length));
  for (let i = 0; i < ids.length; i += size) await hands.add(ids.slice(i, i + size), true);
  await store.put(SWEPT, { at: at.toISOString() });
  const budget: PruneBudget = {
    deletes: STRAYS_PER_SWEEP,
    inTime: () => performance.now() < started + STRAYS_UNTIL_MS,
  };
  await dropStrays(store, at, { indexed, seats, ids: new Set(ids) }, budget);
  report.strays = budget.taken ?? 0;
}

/** The subscriptions of the slots due in this quarter hour, handed over in batches (on a sweep, only counted). */
async function handOverDue(o: PlanOptions, hands: HandOvers, report: PlanReport): Promise<void> {
  const size = o.batchSize ?? BATCH_SIZE;
  const slots = await o.store.folders(SLOTS);
  report.slots = slots.length;
  let ids: string[] = [];
  for (const name of slots) {
    const slot = slotFrom(name);
    if (!slot || !slotDue(slot.zone, slot.hour, o.at)) continue;
    report.dueSlots++;
    // A sweep hands everyone over already.
    if (report.sweep) continue;
    const prefix = slotOf(slot.zone, slot.hour);
    for (const key of await o.store.list(prefix)) {
      ids.push(key.slice(prefix.length));
      if (ids.length >= size) {
        await hands.add(ids, false);
        ids = [];
      }
    }
  }
  if (ids.length) await hands.add(ids, false);
}
