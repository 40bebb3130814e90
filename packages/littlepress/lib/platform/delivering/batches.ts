// A batch of a delivery run, run: by the background function deliver-background
// (POST /.netlify/functions/deliver-background, handed over by the scheduled run,
// scheduled-run.ts), or in-process (npm run deliver, run.ts). A Netlify Background
// Function: Netlify answers the caller 202 at once and runs it for up to 15
// minutes; when it throws, Netlify invokes it again (a minute on, then two). Only
// a body signed with the site's key (hand-over.ts) is run; the body names a kept
// batch and an instant, no URL. The run's settings are opened here (openRun), and
// every batch is delivered by deliver-batch.ts.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { CUT_SHORT, readLimited } from "../../edge/request-limits.ts";
import { BACKGROUND_BUDGET_MS, DELIVERY_TIMEOUT_MS, runTimes, sendWindow } from "../../model/run-budget.ts";
import { platformFunction } from "../platform-function.ts";
import { serviceLimits } from "../printing/in-flight.ts";
import type { JobRunner } from "../printing/print-job.ts";
import { subscriptionKey } from "../stores/store-keys.ts";
import { runCache } from "./asking.ts";
import { deliverBatch } from "./deliver-batch.ts";
import { endNoticesOf } from "./end-notices.ts";
import { BATCH_AGAIN_MS, batchKey, newId, openBatchCall, SIGNATURE_HEADER, type StoredBatch } from "./hand-over.ts";
import {
  CLAIM_RECHECK_MS,
  DELIVERY_CONCURRENCY,
  KEEP_DELIVERIES_DAYS,
  PRUNES_PER_RUN,
  RunReport,
  type DeliveryReport,
  type DeliveryRunOptions,
  type RunIndexes,
  type RunSettings,
} from "./run-state.ts";
import { pruneRateCounters } from "./upkeep.ts";

/** A batch call's body is a few dozen bytes: anything much larger is not one. */
const MAX_BODY_BYTES = 1024;

/**
 * No answering error boundary here, on purpose: a batch that throws is invoked again by Netlify (a minute
 * on, then two), and its answer reaches no one; the local server logs the fault (lib/server/app.ts).
 */
export const deliverBackground: FunctionHandler = platformFunction("deliver-background", async (req, runtime) => {
  if (req.method !== "POST") return jsonResponse({ error: "POST a signed batch" }, 405, { Allow: "POST" });
  const state = runtime.state();
  if ("error" in state) {
    console.error(`deliver-background: ${state.error}`);
    return jsonResponse({ error: state.error }, 503);
  }
  const body = await readLimited(req, MAX_BODY_BYTES);
  const call =
    body === undefined || body === CUT_SHORT
      ? { refused: body === undefined ? "too large" : "cut short" }
      : openBatchCall(Buffer.from(body).toString("utf8"), req.headers.get(SIGNATURE_HEADER), state.sealKey, new Date());
  if ("refused" in call) {
    // Said in the log only: a background function's answer reaches no one.
    console.error(`deliver-background: refused a call (${call.refused})`);
    return jsonResponse({ error: "refused" }, 403);
  }
  const settings = { origin: runtime.originFor(req), printKeys: runtime.printKeys(), at: new Date(call.at) };
  // A batch has a background function's 15 minutes, less a minute to keep what is left for a later run.
  const endNotice = endNoticesOf(runtime.site);
  const outcome = await runBatch({ ...state, ...settings, endNotice, budgetMs: BACKGROUND_BUDGET_MS }, call.batch);
  logBatch(call.batch, outcome);
  return jsonResponse({ batch: call.batch, delivered: outcome.report.lines.length, again: outcome.again });
});

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
  const { store, at, dryRun } = options;
  const kept = await store.get<StoredBatch>(key);
  if (!kept) return { report: new RunReport().final(at, 0, 0), again: 0, gone: true };
  const batch = kept.value;
  const run = openRun(options, { repair: batch.repair === true });
  const progress = new RunReport();
  await deliverBatch(run, progress, batch.ids.map(subscriptionKey));
  // The daily sweep's batches also prune the rate limit's counters.
  if (batch.repair && !dryRun) await pruneRateCounters(run);
  const report = progress.final(at, batch.ids.length, run.prunes.taken ?? 0);
  if (dryRun) return { report, again: 0 };
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

/** A run's settings, for one or more batches of subscriptions. Throws when its budget cannot hold a delivery. */
export function openRun(options: DeliveryRunOptions, indexes: RunIndexes = {}): RunSettings {
  const { store, at, origin, sealKey, printKeys, dryRun = false } = options;
  const now = () => performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const times = runTimes(now(), options.budgetMs ?? BACKGROUND_BUDGET_MS, timeoutMs);
  if ("error" in times) throw new RangeError(`runDeliveries: ${times.error}`);
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  const { printTimeoutMs } = options;
  const jobs: JobRunner = {
    ...{ at, now, dryRun, recheckMs: options.claimRecheckMs ?? CLAIM_RECHECK_MS },
    limits: serviceLimits(concurrency, now),
    sendWindow: () => sendWindow(times, now(), printTimeoutMs),
  };
  const cache = runCache({ origin, timeoutMs, fetch: options.fetch });
  const prunes = { deletes: options.prunesPerRun ?? PRUNES_PER_RUN, inTime: () => now() < times.startBy };
  const keepDays = options.keepDeliveriesDays ?? KEEP_DELIVERIES_DAYS;
  const endNotice = options.endNotice ?? (() => true);
  // The end slip's subscribe link, for people: the public address when the site has one.
  const people = options.publicOrigin ?? origin;
  const subscribeUrl = (slug: string) => new URL(slug ? `/${slug}/subscribe/` : "/subscribe/", people).href;
  return {
    ...{ store, at, dryRun, origin, keys: { sealKey, printKeys }, concurrency, indexes, cache, times, now },
    ...{ keepDays, prunes, jobs, endNotice, subscribeUrl },
  };
}

/** A batch's report in the log, a line a delivery and an end slip, then the batch's. */
function logBatch(batch: string, outcome: BatchOutcome): void {
  const { report } = outcome;
  const name = (l: { slug: string; subscription: string }) => `deliver-background: ${l.slug || "/"} ${l.subscription}`;
  for (const l of report.lines) console.log(`${name(l)} ${l.date} #${l.deliveryCount}: ${l.outcome} (${l.detail})`);
  for (const l of report.notices) console.log(`${name(l)} end slip: ${l.outcome} (${l.detail})`);
  const done = outcome.gone ? "done already" : `${report.lines.length} of ${report.subscriptions} delivered`;
  console.log(`deliver-background: ${batch}: ${done}` + (outcome.again ? `; ${outcome.again} kept to try again` : ""));
}
