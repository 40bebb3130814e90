// Delivery runs that fan out: the plan (this file, all the scheduled function
// loads) and the batches (delivery-batches.ts, the background function's).
// A scheduled function gets 30 seconds; a run to many subscribers takes
// longer. So on Netlify the scheduled run only finds who is due, in pages,
// and hands them in batches to a Netlify Background
// Function (functions/deliver-background.mts: 15 minutes a batch, many at once,
// invoked by a POST that Netlify answers 202 at once, and invoked again by
// Netlify, a minute then two minutes on, when it fails). Each batch does what a
// self-hosted run does for its subscriptions, with the same code
// (delivery-run.ts's deliverBatch, through delivery-batches.ts): every delivery is claimed first, so a batch
// run twice, or two batches at once, print once.
//
// Finding who is due without reading anyone: the schedule index,
// slots/<hour>.<zone>/<id> (store-keys.ts). A run lists the slots (one
// folder per delivery hour and time zone in use), keeps those whose delivery
// time today falls in the run's quarter hour, and lists their keys. A batch is
// kept in the store (batches/<not before>.<id>) from before it is handed over
// until it is done: a batch whose function died, or whose deliveries must be
// tried again (an offline printer, an unreachable publication, an end slip to
// retry), is handed over again by the first run after its "not before". Once
// a day (the run of 00:00 UTC, and the first run ever), a sweep hands over
// every subscription, as batches that also repair the indexes, prune, and
// catch what a missed run left; the plan itself then deletes index keys whose
// subscription is gone (subscriptions.ts).
//
// A batch is handed over by name only, signed: an HMAC-SHA256, under a key
// derived from the site's sealing key (LITTLEPRESS_SEAL_KEY), over the body
// (the batch's store key and the run's instant). The background function
// refuses anything else, and an instant more than MAX_SKEW_MS from its own
// clock (an old signed body replayed). What a batch delivers comes from the
// store (its subscriptions, their sealed print keys) and the site's own
// address: the body names no URL, so an invocation cannot make the site fetch
// anything it would not fetch on its schedule.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { addDays } from "../model/dates.ts";
import { localDeliveryTime } from "../model/delivery-time.ts";
import { BACKGROUND_LIMIT_MS } from "../model/run-budget.ts";
import { todayIn } from "../model/time-zones.ts";
import type { PruneBudget, StateStore } from "./state-store.ts";
import { dropStrayIndexKeys, indexedId } from "./subscriptions.ts";
import { dropStraySeats } from "./seats.ts";
import { LIVE, SEATS, slotFrom, slotOf, SLOTS, SUBSCRIPTIONS } from "./store-keys.ts";

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
/** A batch handed over and not finished by then died with its function: the next run hands it over again. */
export const BATCH_RETRY_MS = BACKGROUND_LIMIT_MS + 60_000;
/** A batch's deliveries still to try (offline printers, …) are handed over again this much later. */
export const BATCH_AGAIN_MS = 15 * 60_000;
/** A batch older than this is dropped: its day's deliveries are over, and the next day's are planned anew. */
export const BATCH_MAX_AGE_MS = 26 * 60 * 60_000;
/** A signed body whose instant is further than this from the background function's clock is refused. */
export const MAX_SKEW_MS = 20 * 60_000;
/** Runs are scheduled every 15 minutes: a run plans the slots whose time is in its quarter hour. */
export const QUARTER_MS = 15 * 60_000;
/** The background function's name (functions/deliver-background.mts), and its address on a site. */
export const BATCH_FUNCTION = "deliver-background";
export const batchFunctionUrl = (origin: string) => new URL(`/.netlify/functions/${BATCH_FUNCTION}`, origin);
/** The header that carries a body's signature. */
export const SIGNATURE_HEADER = "X-Littlepress-Signature";

export const BATCHES = "batches/";
/** The marker of a store that had its first sweep (the schedule index is complete from then on). */
export const SWEPT = "meta/schedule-swept";

/** A batch as kept in the store. */
export interface StoredBatch {
  /** Subscription ids. */
  ids: string[];
  /** A sweep's batch: repairs the indexes of its subscriptions. */
  repair?: boolean;
  /** When it was first planned (ISO 8601). */
  made: string;
  /** How many times it was handed over. */
  handed: number;
}

/** What a signed body says: which batch to run, at which instant. */
export interface BatchCall {
  batch: string;
  at: string;
}

/** A batch's key: batches/<not before, UTC, to the second>.<random id>. */
export const batchKey = (notBefore: number, id: string) =>
  `${BATCHES}${new Date(notBefore).toISOString().replace(/[-:]|\.\d+Z$/g, "")}.${id}`;
const BATCH_KEY = /^batches\/(\d{8}T\d{6})\.([A-Za-z0-9_-]{1,32})$/;
function notBeforeOf(key: string): number | undefined {
  const m = BATCH_KEY.exec(key);
  if (!m) return undefined;
  const t = m[1]!;
  return Date.parse(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 11)}:${t.slice(11, 13)}:${t.slice(13, 15)}Z`);
}

// ------------------------------------------------------------------ signing

/** The key batches are signed with: derived from the sealing key, never the sealing key itself. */
function signingKey(sealKey: Buffer): Buffer {
  return createHmac("sha256", sealKey).update("littlepress delivery batches v1").digest();
}

/** A batch call as the body a background function takes, and its signature. */
export function signBatchCall(call: BatchCall, sealKey: Buffer): { body: string; signature: string } {
  const body = JSON.stringify({ batch: call.batch, at: call.at });
  return { body, signature: createHmac("sha256", signingKey(sealKey)).update(body).digest("hex") };
}

/**
 * The batch call a body says, when `signature` is its signature under
 * `sealKey`, it names a batch, and its instant is within MAX_SKEW_MS of
 * `now`; else why not (never more than that: the answer goes nowhere).
 */
export function openBatchCall(
  body: string,
  signature: string | null,
  sealKey: Buffer,
  now: Date,
): BatchCall | { refused: string } {
  const expected = createHmac("sha256", signingKey(sealKey)).update(body).digest();
  const given = Buffer.from(signature ?? "", "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { refused: "not signed" };
  let call: Partial<BatchCall>;
  try {
    call = JSON.parse(body) as Partial<BatchCall>;
  } catch {
    return { refused: "not JSON" };
  }
  if (typeof call.batch !== "string" || notBeforeOf(call.batch) === undefined) return { refused: "no batch" };
  const at = Date.parse(String(call.at));
  if (!Number.isFinite(at) || Math.abs(at - now.getTime()) > MAX_SKEW_MS) return { refused: "out of time" };
  return { batch: call.batch, at: new Date(at).toISOString() };
}

// ------------------------------------------------------------------ planning

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
 * A scheduled run: hands over, in batches, every subscription whose slot is
 * due in this quarter hour, every kept batch whose time has come, and on a
 * sweep every subscription. Reads no subscription: lists the schedule and
 * the kept batches, writes one key per batch.
 */
export async function planRun(o: PlanOptions): Promise<PlanReport> {
  const started = performance.now();
  const { store, at } = o;
  const size = o.batchSize ?? BATCH_SIZE;
  const report: PlanReport = {
    at: at.toISOString(),
    slots: 0,
    dueSlots: 0,
    subscriptions: 0,
    batches: 0,
    again: 0,
    dropped: 0,
    sweep: false,
    failed: 0,
    strays: 0,
  };
  const handing = new Set<Promise<void>>();
  const limit = o.concurrency ?? 8;
  const hand = async (key: string, again: boolean) => {
    while (handing.size >= limit) await Promise.race(handing);
    const done = o
      .hand({ batch: key, at: at.toISOString() })
      .then(() => void (again ? report.again++ : report.batches++))
      .catch(async () => {
        report.failed++;
        await forNextRun(key);
      })
      .finally(() => handing.delete(done));
    handing.add(done);
  };
  // A batch whose hand-over failed is kept for the next run (15 minutes on), not for BATCH_RETRY_MS as one
  // handed over is (its function may still be running it); when the store fails too, it waits that long.
  const forNextRun = async (key: string) => {
    try {
      const kept = await store.get<StoredBatch>(key);
      if (!kept) return;
      await store.put(batchKey(at.getTime(), newId()), kept.value);
      await store.delete(key);
    } catch {
      // kept under its first key
    }
  };
  // Kept batches first (listed before this run adds its own).
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
    await hand(next, true);
  }
  const newBatch = async (ids: string[], repair: boolean) => {
    const key = batchKey(at.getTime() + BATCH_RETRY_MS, newId());
    const batch: StoredBatch = { ids, made: at.toISOString(), handed: 1, ...(repair && { repair }) };
    // Kept before it is handed over: a hand-over that fails, or a function that dies, leaves it for a later run.
    await store.put(key, batch);
    report.subscriptions += ids.length;
    await hand(key, false);
  };
  const sweep = o.sweep ?? (at.getTime() % 86_400_000 < QUARTER_MS || !(await store.get(SWEPT)));
  report.sweep = sweep;
  if (sweep) {
    // The indexes are listed before the subscriptions: a key a subscribe writes in between is young, and kept.
    const indexed = [...(await store.list(LIVE)), ...(await store.list(SLOTS))];
    const seats = await store.list(SEATS);
    const ids = (await store.list(SUBSCRIPTIONS)).map((k) => k.slice(SUBSCRIPTIONS.length));
    for (let i = 0; i < ids.length; i += size) await newBatch(ids.slice(i, i + size), true);
    await store.put(SWEPT, { at: at.toISOString() });
    // Then the index keys whose subscription is gone, within a bound: the rest on the next day's sweep.
    const stored = new Set(ids);
    const strays = indexed.filter((key) => !stored.has(indexedId(key)));
    const budget: PruneBudget = {
      deletes: STRAYS_PER_SWEEP,
      inTime: () => performance.now() < started + STRAYS_UNTIL_MS,
    };
    await dropStrayIndexKeys(store, at, strays, budget).catch(() => undefined);
    // And the seats whose subscription is gone (each read: a seat's key names no subscription).
    await dropStraySeats(store, at, seats, budget, (id) => stored.has(id)).catch(() => undefined);
    report.strays = budget.taken ?? 0;
  }
  const slots = await store.folders(SLOTS);
  report.slots = slots.length;
  let ids: string[] = [];
  for (const name of slots) {
    const slot = slotFrom(name);
    if (!slot || !slotDue(slot.zone, slot.hour, at)) continue;
    report.dueSlots++;
    // A sweep hands everyone over already.
    if (sweep) continue;
    const prefix = slotOf(slot.zone, slot.hour);
    for (const key of await store.list(prefix)) {
      ids.push(key.slice(prefix.length));
      if (ids.length >= size) {
        await newBatch(ids, false);
        ids = [];
      }
    }
  }
  if (ids.length) await newBatch(ids, false);
  await Promise.all(handing);
  return report;
}

export const newId = () => randomBytes(9).toString("base64url");
