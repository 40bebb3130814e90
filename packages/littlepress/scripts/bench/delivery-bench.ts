// npm run bench:deliveries: delivery runs to many subscribers, timed, and
// against each, side by side, its limit: a plain loop POSTing the same
// editions to the same print-key server with the same concurrency (no store,
// no edition/ request). The publications are synthetic (generate.ts), built
// into a temporary folder and served by the kit's server; the prints go to the
// tests' fake sirius (test/helpers/print-keys.ts), which can wait before each
// answer as a print-key service across the internet does (--print-latency-ms).
// The state: the file store, and with --latency-ms a store in memory whose
// every call is a round trip of that many milliseconds, as a Netlify Blobs call
// is (latency-store.ts). (Netlify's local Blobs server cannot stand in for the
// deployed store here: it answers reads without the ETags that a run's
// conditional writes need.)
//
// --simulate-fanout plays a scheduled run on Netlify: the plan (delivery-plan.ts)
// and every batch (delivery-batches.ts) run for real, with the latency store; the
// batches run one after the other here, each timed alone, and are then laid on a
// simulated platform clock where --functions background functions run at once.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "../../lib/build/build.ts";
import { wallClock } from "../../lib/model/time-zones.ts";
import { runBatch } from "../../lib/platform/delivery-batches.ts";
import { BATCH_SIZE, planRun } from "../../lib/platform/delivery-plan.ts";
import { BACKGROUND_LIMIT_MS } from "../../lib/model/run-budget.ts";
import { DELIVERY_CONCURRENCY, PREPARED_PER_POST, runDeliveries } from "../../lib/platform/delivery-run.ts";
import { startServer } from "../../lib/server/server.ts";
import { fileStore, type StateStore } from "../../lib/platform/state-store.ts";
import { createSubscription } from "../../lib/platform/subscribing.ts";
import { startPrintKeys } from "../../test/helpers/print-keys.ts";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import { CHOICES, DAILY, generateSite, LANGS, SERIAL } from "./generate.ts";
import { memoryStore, withLatency } from "./latency-store.ts";

export const USAGE = `Usage: npm run bench:deliveries [-- options]

Times delivery runs to many subscribers (default 1,000), all due at once,
against a fake print-key server, and against each a plain loop POSTing the
same editions at the same concurrency. Prints the figures.

Options:
  --subscribers <n>       how many (default 1000)
  --latency-ms <ms>       also run with a store whose every call takes this long
                          (a Netlify Blobs round trip: 20 to 50 ms)
  --print-latency-ms <ms> the fake print-key service waits this long before each
                          answer (default 0: loopback)
  --simulate-fanout       plan and run the batches as a scheduled run hands them
                          to background functions (the latency store only), and
                          lay them on a simulated platform clock
  --functions <n>         background functions running at once in the simulation
                          (default 50)
  -h, --help              show this text

Example:
  npm run bench:deliveries -- --subscribers 100000 --latency-ms 30 --simulate-fanout`;

const ZONES = ["Europe/London", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Etc/GMT+12", "Europe/Paris"];
const CONCURRENCY = DELIVERY_CONCURRENCY;
type Sirius = Awaited<ReturnType<typeof startPrintKeys>>;

export interface DeliveryBenchOptions {
  subscribers: number;
  latencyMs: number;
  printLatencyMs: number;
  fanout: boolean;
  functions: number;
}

/** The process's resident memory, sampled every 50 ms while `work` runs: its peak, in MiB. */
async function peakRss<R>(work: () => Promise<R>): Promise<{ result: R; peakMiB: number; startMiB: number }> {
  const startMiB = process.memoryUsage.rss() / 2 ** 20;
  let peak = startMiB;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss() / 2 ** 20)), 50);
  try {
    const result = await work();
    return { result, peakMiB: Math.max(peak, process.memoryUsage.rss() / 2 ** 20), startMiB };
  } finally {
    clearInterval(timer);
  }
}

export async function benchDeliveries(o: DeliveryBenchOptions): Promise<string> {
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-deliveries-"));
  const sirius = await startPrintKeys();
  sirius.latencyMs = o.printLatencyMs;
  try {
    generateSite(path.join(work, "content"), 300);
    await build({ content: path.join(work, "content"), output: path.join(work, "_site") });
    const server = await startServer({
      port: 0,
      siteDir: path.join(work, "_site"),
      stateDir: path.join(work, "unused"),
    });
    try {
      const sealKey = randomBytes(32);
      const head =
        `${new Date().toISOString()}: ${o.subscribers} subscribers due at once, ${CONCURRENCY} POSTs in flight ` +
        `(store work ${PREPARED_PER_POST}x that), store latency ${o.latencyMs} ms a call, print-key latency ` +
        `${o.printLatencyMs} ms, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`;
      if (o.fanout) return [head, "", await fanout(o, server.url, sealKey, sirius)].join("\n");
      const rows: string[] = [];
      const stores: [string, () => StateStore][] = [["file store", () => fileStore(path.join(work, "state"))]];
      if (o.latencyMs > 0) stores.push([`latency store (${o.latencyMs} ms)`, () => memoryStore()]);
      for (const [name, make] of stores) {
        const raw = make();
        const at = await subscribe(raw, sealKey, sirius, o.subscribers);
        const store = o.latencyMs > 0 && name.startsWith("latency") ? withLatency(raw, o.latencyMs) : raw;
        sirius.prints.length = 0;
        const start = performance.now();
        // No time budget: the bench times the whole run, however long it takes.
        const { result: report, peakMiB } = await peakRss(() =>
          runDeliveries({
            store,
            origin: server.url,
            sealKey,
            printKeys: sirius.policy,
            at,
            concurrency: CONCURRENCY,
            budgetMs: Number.POSITIVE_INFINITY,
          }),
        );
        const seconds = (performance.now() - start) / 1000;
        const printed = report.lines.filter((l) => l.outcome === "printed").length;
        const bodies = sirius.prints.slice(0, 1000).map((p) => p.body);
        sirius.prints.length = 0;
        sirius.requests.length = 0;
        const plain = await plainPosts(sirius.keyUrl(firstKey(sirius)), bodies, o.subscribers);
        const calls = "calls" in store ? ((store.calls as number) / o.subscribers).toFixed(1) : "";
        const rate = (o.subscribers / seconds).toFixed(0);
        rows.push(
          `| ${name} | ${o.subscribers} | ${printed} | ${seconds.toFixed(2)} | ${rate} | ` +
            `${plain.toFixed(2)} | ${(plain / seconds).toFixed(2)} | ${calls} | ${peakMiB.toFixed(0)} |`,
        );
      }
      return [
        head,
        "",
        "| store | subscribers | printed | run s | deliveries/s | plain POSTs s | throughput run/plain | " +
          "store calls a delivery | peak RSS MiB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ...rows,
      ].join("\n");
    } finally {
      await server.close();
    }
  } finally {
    await sirius.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A scheduled run on Netlify, played out: subscriptions written straight into
 * a store in memory, then the plan and every batch run for real through the
 * latency store. Each batch runs alone and is timed; the batches are then laid
 * on a simulated clock: the plan first, then `o.functions` background
 * functions at once, each taking the next batch when it is free.
 */
async function fanout(o: DeliveryBenchOptions, origin: string, sealKey: Buffer, sirius: Sirius): Promise<string> {
  const raw = memoryStore();
  const at = await subscribe(raw, sealKey, sirius, o.subscribers);
  const store = withLatency(raw, o.latencyMs);
  const batches: string[] = [];
  const measured = await peakRss(async () => {
    const planStart = performance.now();
    const plan = await planRun({
      store,
      at,
      sweep: false,
      hand: (call) => Promise.resolve(void batches.push(call.batch)),
    });
    const planMs = performance.now() - planStart;
    const planCalls = store.calls;
    const durations: number[] = [];
    let printed = 0;
    const bodies: string[] = [];
    for (const [i, key] of batches.entries()) {
      if (i % 20 === 0) process.stderr.write(`bench: batch ${i + 1} of ${batches.length}\n`);
      const start = performance.now();
      const outcome = await runBatch(
        { store, origin, sealKey, printKeys: sirius.policy, at, concurrency: CONCURRENCY, budgetMs: 14 * 60_000 },
        key,
      );
      durations.push(performance.now() - start);
      printed += outcome.report.lines.filter((l) => l.outcome === "printed").length;
      if (bodies.length < 1000) bodies.push(...sirius.prints.slice(0, 1000 - bodies.length).map((p) => p.body));
      sirius.prints.length = 0;
      sirius.requests.length = 0;
    }
    return { plan, planMs, planCalls, durations, printed, bodies };
  });
  const { plan, planMs, planCalls, durations, printed, bodies } = measured.result;
  // The simulated platform clock: the plan, then each batch on the first free function.
  const free = Array.from({ length: Math.min(o.functions, durations.length) }, () => planMs);
  for (const d of durations) {
    const slot = free.indexOf(Math.min(...free));
    free[slot] = free[slot]! + d;
  }
  const total = Math.max(planMs, ...free);
  const runMs = durations.reduce((a, b) => a + b, 0);
  // The plain loop's rate, on at most 10,000 of the same POSTs (a rate: the ratio compares deliveries a second).
  const sample = Math.min(o.subscribers, 10_000);
  const plain = ((await plainPosts(sirius.keyUrl(firstKey(sirius)), bodies, sample)) * o.subscribers) / sample;
  const deliveryCalls = (store.calls - planCalls) / o.subscribers;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `Fan-out simulated: ${plan.dueSlots} slots due, ${plan.subscriptions} subscriptions handed over in ` +
      `${plan.batches} batches of at most ${BATCH_SIZE}; ${o.functions} background functions at once.`,
    "",
    "| figure | value | limit |",
    "|---|---:|---:|",
    `| plan (the scheduled function), measured | ${s(planMs)} (${planCalls} store calls) | 30 s |`,
    `| slowest batch, measured alone | ${s(Math.max(...durations))} | ${s(BACKGROUND_LIMIT_MS)} |`,
    `| median batch | ${s(durations.sort((a, b) => a - b)[Math.floor(durations.length / 2)]!)} | |`,
    `| all delivered, simulated platform time | ${s(total)} | 15 min |`,
    `| printed | ${printed} of ${o.subscribers} | |`,
    `| store calls a delivery | ${deliveryCalls.toFixed(2)} | |`,
    `| batches back to back, measured | ${s(runMs)} (${(o.subscribers / (runMs / 1000)).toFixed(0)} deliveries/s) | |`,
    `| plain POST loop, same POSTs and concurrency${sample < o.subscribers ? ` (rate of ${sample})` : ""} | ` +
      `${plain.toFixed(1)} s ` +
      `(${(o.subscribers / plain).toFixed(0)} POSTs/s) | |`,
    `| throughput run/plain | ${(plain / (runMs / 1000)).toFixed(2)} | >= 0.8 |`,
    `| peak RSS (before the plan: ${measured.startMiB.toFixed(0)} MiB) | ${measured.peakMiB.toFixed(0)} MiB | |`,
  ].join("\n");
}

/** `n` subscriptions spread over the three publications and six zones, each due at the returned instant. */
async function subscribe(store: StateStore, sealKey: Buffer, sirius: Sirius, n: number): Promise<Date> {
  const created = new Date(Date.now() - 3 * 86_400_000);
  // Five minutes into this UTC hour: every subscription's hour has just begun on its clock (whole-hour zones).
  const at = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 5 * 60_000);
  const slugs = [SERIAL, DAILY, CHOICES];
  const jobs = Array.from({ length: n }, (_, i) => async () => {
    const key = `bench${i}`;
    sirius.printers.set(key, { name: `Printer ${i}`, owner: "bench", online: true });
    const zone = ZONES[i % ZONES.length]!;
    // the hour that has just begun in the zone, so every subscription is due now
    const hour = wallClock(zone, at.getTime()).hour;
    const slug = slugs[i % slugs.length]!;
    const settings: [string, string][] =
      slug === CHOICES
        ? [
            ["lang", LANGS[i % LANGS.length]!],
            ["name", `Reader ${i}`],
          ]
        : [];
    await createSubscription(store, sealKey, {
      slug,
      printKey: new URL(sirius.keyUrl(key)),
      printer: `Printer ${i}`,
      zone,
      hour,
      settings,
      at: created,
    });
  });
  for (let i = 0; i < jobs.length; i += 200) await Promise.all(jobs.slice(i, i + 200).map((j) => j()));
  return at;
}

const firstKey = (sirius: Sirius) => [...sirius.printers.keys()][0]!;

/** The limit: `count` POSTs of the sampled bodies by a plain loop at the same concurrency; seconds. */
async function plainPosts(url: string, bodies: string[], count: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const body = bodies[next++ % bodies.length]!;
      const res = await fetch(`${url}?from=bench`, {
        method: "POST",
        headers: { "Content-Type": "text/html; charset=utf-8" },
        body,
      });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (performance.now() - start) / 1000;
}

runTool("bench", import.meta.url, async (argv) => {
  const parsed = parseToolArgs(
    argv,
    {
      subscribers: { type: "string" },
      "latency-ms": { type: "string" },
      "print-latency-ms": { type: "string" },
      "simulate-fanout": { type: "boolean" },
      functions: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    false,
  );
  const answered = answerUsage("bench", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values } = parsed;
  const whole = (name: string, text: string | undefined, fallback: number, min: number, max: number) => {
    const n = Number(text ?? fallback);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    processOutput.stderr(`bench: --${name} takes a whole number from ${min} to ${max}; see --help\n`);
    return undefined;
  };
  const subscribers = whole("subscribers", values.subscribers, 1000, 1, 200_000);
  const latencyMs = whole("latency-ms", values["latency-ms"], 0, 0, 1000);
  const printLatencyMs = whole("print-latency-ms", values["print-latency-ms"], 0, 0, 5000);
  const functions = whole("functions", values.functions, 50, 1, 1000);
  if (subscribers === undefined || latencyMs === undefined || printLatencyMs === undefined || functions === undefined)
    return 2;
  const fanoutOn = values["simulate-fanout"] === true;
  if (fanoutOn && !latencyMs) {
    processOutput.stderr("bench: --simulate-fanout needs --latency-ms (the store it simulates); see --help\n");
    return 2;
  }
  const options = { subscribers, latencyMs, printLatencyMs, fanout: fanoutOn, functions };
  processOutput.stdout(`${await benchDeliveries(options)}\n`);
  return 0;
});
