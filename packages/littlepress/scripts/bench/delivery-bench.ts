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
// --simulate-fanout plays a scheduled run on Netlify at each of --subscribers'
// sizes (10,000 and 100,000 by default), each in a process of its own
// (delivery-fanout.ts) that holds what the functions hold: the site, the fake
// print keys and the store are in another (delivery-world.ts). The plan
// (delivering/scheduled-run.ts) and every batch (delivering/batches.ts) run for real, the
// batches one after the other, each timed and each followed by its limit, a
// plain loop of the same POSTs; they are then laid on a simulated platform
// clock where --functions background functions run at once. The targets
// (BENCHMARKS.md, issue 28) are checked against the figures.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BACKGROUND_LIMIT_MS } from "../../lib/model/run-budget.ts";
import { BATCH_SIZE } from "../../lib/platform/delivering/scheduled-run.ts";
import { DELIVERY_CONCURRENCY, PREPARED_PER_POST, runDeliveries } from "../../lib/platform/delivering/run.ts";
import { fileStore, type StateStore } from "../../lib/platform/stores/state-store.ts";
import { startPrintKeys } from "../../test/helpers/print-keys.ts";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import type { FanoutOptions, FanoutResult } from "./delivery-fanout.ts";
import { benchKey, peakRss, plainPosts, subscribeMany } from "./delivery-workload.ts";
import { generateSite } from "./generate.ts";
import { memoryStore, withLatency } from "./latency-store.ts";

export const USAGE = `Usage: npm run bench:deliveries [-- options]

Times delivery runs to many subscribers, all due at once, against a fake
print-key server, and against each a plain loop POSTing the same editions at
the same concurrency. Prints the figures.

Options:
  --subscribers <n>[,<n>…] how many (default 1000; with --simulate-fanout,
                           10000,100000: each size in a process of its own)
  --latency-ms <ms>        also run with a store whose every call takes this long
                           (a Netlify Blobs round trip: 20 to 50 ms)
  --print-latency-ms <ms>  the fake print-key service waits this long before each
                           answer (default 0: loopback; with --simulate-fanout 50,
                           a print-key service across the internet)
  --simulate-fanout        plan and run the batches as a scheduled run hands them
                           to background functions (the latency store only), lay
                           them on a simulated platform clock, and check the targets
  --functions <n>          background functions running at once in the simulation
                           (default 50)
  -h, --help               show this text

Example:
  npm run bench:deliveries -- --latency-ms 30 --simulate-fanout`;

const CONCURRENCY = DELIVERY_CONCURRENCY;
type Sirius = Awaited<ReturnType<typeof startPrintKeys>>;

export interface DeliveryBenchOptions {
  subscribers: number[];
  latencyMs: number;
  printLatencyMs: number;
  fanout: boolean;
  functions: number;
}

const headLine = (o: DeliveryBenchOptions, what: string) =>
  `${new Date().toISOString()}: ${what}, ${CONCURRENCY} POSTs in flight ` +
  `(store work ${PREPARED_PER_POST}x that), store latency ${o.latencyMs} ms a call, print-key latency ` +
  `${o.printLatencyMs} ms, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`;

export async function benchDeliveries(o: DeliveryBenchOptions): Promise<string> {
  if (o.fanout) {
    const head = headLine(
      o,
      `${o.subscribers.map((n) => n.toLocaleString("en")).join(" and ")} subscribers due at once`,
    );
    return [head, "", await fanout(o)].join("\n");
  }
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-deliveries-"));
  const sirius = await startPrintKeys();
  sirius.latencyMs = o.printLatencyMs;
  try {
    generateSite(path.join(work, "content"), 300);
    // The build and the server load when they run (seconds): --help answers at once.
    const { build } = await import("../../lib/build/build.ts");
    const { startServer } = await import("../../lib/server/server.ts");
    await build({ content: path.join(work, "content"), output: path.join(work, "_site") });
    const server = await startServer({
      port: 0,
      siteDir: path.join(work, "_site"),
      stateDir: path.join(work, "unused"),
    });
    try {
      const sealKey = randomBytes(32);
      const rows: string[] = [];
      for (const subscribers of o.subscribers) {
        const stores: [string, () => StateStore][] = [
          ["file store", () => fileStore(path.join(work, `state${subscribers}`))],
        ];
        if (o.latencyMs > 0) stores.push([`latency store (${o.latencyMs} ms)`, () => memoryStore()]);
        for (const [name, make] of stores)
          rows.push(await selfHosted(o, name, make(), subscribers, server.url, sealKey, sirius));
      }
      return [
        headLine(o, `${o.subscribers.join(", ")} subscribers due at once`),
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

/** A self-hosted run (npm run deliver: every batch in-process) to `subscribers`, and its plain loop: a table row. */
async function selfHosted(
  o: DeliveryBenchOptions,
  name: string,
  raw: StateStore,
  subscribers: number,
  origin: string,
  sealKey: Buffer,
  sirius: Sirius,
): Promise<string> {
  const at = await subscribeMany(raw, sealKey, sirius, subscribers);
  const store = o.latencyMs > 0 && name.startsWith("latency") ? withLatency(raw, o.latencyMs) : raw;
  sirius.prints.length = 0;
  const start = performance.now();
  // No time budget: the bench times the whole run, however long it takes.
  const { result: report, peakMiB } = await peakRss(() =>
    runDeliveries({
      store,
      origin,
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
  const plain = (await plainPosts(sirius.keyUrl(benchKey(0)), bodies, subscribers)) / 1000;
  const calls = "calls" in store ? ((store.calls as number) / subscribers).toFixed(1) : "";
  const rate = (subscribers / seconds).toFixed(0);
  return (
    `| ${name} | ${subscribers} | ${printed} | ${seconds.toFixed(2)} | ${rate} | ` +
    `${plain.toFixed(2)} | ${(plain / seconds).toFixed(2)} | ${calls} | ${peakMiB.toFixed(0)} |`
  );
}

/** The fan-out's targets (issue 28). */
const TARGETS = { planMs: 30_000, allMs: BACKGROUND_LIMIT_MS, throughput: 0.8, memoryGrowth: 1.2 };

/** Runs delivery-fanout.ts for one size, in a process of its own; its result. */
function fanoutChild(options: FanoutOptions): Promise<FanoutResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./delivery-fanout.ts", import.meta.url)), [JSON.stringify(options)], {
      execArgv: ["--import", "tsx", "--expose-gc"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let result: FanoutResult | undefined;
    child.on("message", (m: FanoutResult) => (result = m));
    child.once("error", reject);
    child.once("exit", (code) =>
      result ? resolve(result) : reject(new Error(`the fan-out of ${options.subscribers} exited ${code}`)),
    );
  });
}

/**
 * Each size's scheduled run played out (delivery-fanout.ts), then laid on the
 * simulated platform clock: the plan first, then `o.functions` background
 * functions at once, each taking the next batch when it is free. A table, a
 * column a size, and the targets.
 */
async function fanout(o: DeliveryBenchOptions): Promise<string> {
  const results: FanoutResult[] = [];
  for (const subscribers of o.subscribers)
    results.push(await fanoutChild({ subscribers, latencyMs: o.latencyMs, printLatencyMs: o.printLatencyMs }));
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const figures = results.map((r) => {
    const free = Array.from({ length: Math.min(o.functions, r.batchMs.length) }, () => r.planMs);
    for (const d of r.batchMs) {
      const slot = free.indexOf(Math.min(...free));
      free[slot] = free[slot]! + d;
    }
    const runMs = sum(r.batchMs);
    const plainMs = sum(r.plainMs);
    return { ...r, allMs: Math.max(r.planMs, ...free), runMs, plainMs, ratio: plainMs / runMs };
  });
  const row = (name: string, cell: (f: (typeof figures)[number]) => string, limit = "") =>
    `| ${name} | ${figures.map(cell).join(" | ")} | ${limit} |`;
  const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString("en")}/s`;
  const smallest = figures[0]!;
  const largest = figures[figures.length - 1]!;
  const growth = largest.peakMiB / smallest.peakMiB;
  const retainedGrowth = largest.retainedMiB / smallest.retainedMiB;
  const checks: [string, boolean, string][] = [
    ...figures.map((f): [string, boolean, string] => [
      `${f.subscribers.toLocaleString("en")} due: plan within 30 s, all delivered within 15 minutes of platform time`,
      f.planMs <= TARGETS.planMs && f.allMs <= TARGETS.allMs && f.printed === f.subscribers,
      `plan ${s(f.planMs)}, all ${s(f.allMs)}, printed ${f.printed} of ${f.subscribers}`,
    ]),
    ...figures.map((f): [string, boolean, string] => [
      `${f.subscribers.toLocaleString("en")} due: throughput at least ${TARGETS.throughput}x the plain loop`,
      f.ratio >= TARGETS.throughput,
      `${f.ratio.toFixed(2)}x (${rate(f.subscribers, f.runMs)} against ${rate(f.subscribers, f.plainMs)})`,
    ]),
    [
      `memory flat: the functions' process peak grows at most ${TARGETS.memoryGrowth}x from ` +
        `${smallest.subscribers.toLocaleString("en")} to ${largest.subscribers.toLocaleString("en")}`,
      growth <= TARGETS.memoryGrowth && retainedGrowth <= TARGETS.memoryGrowth,
      `${growth.toFixed(2)}x (${smallest.peakMiB.toFixed(0)} to ${largest.peakMiB.toFixed(0)} MiB); the heap kept ` +
        `after a batch ${retainedGrowth.toFixed(2)}x (${smallest.retainedMiB.toFixed(1)} to ` +
        `${largest.retainedMiB.toFixed(1)} MiB)`,
    ],
  ];
  return [
    `Fan-out simulated: batches of at most ${BATCH_SIZE}; ${o.functions} background functions at once.`,
    "",
    `| figure | ${figures.map((f) => `${f.subscribers.toLocaleString("en")} due`).join(" | ")} | limit |`,
    `|---|${figures.map(() => "---:|").join("")}---:|`,
    row("slots due, batches", (f) => `${f.dueSlots}, ${f.batches}`),
    row("plan (the scheduled function), measured", (f) => `${s(f.planMs)} (${f.planCalls} store calls)`, "30 s"),
    row("slowest batch, measured alone", (f) => s(Math.max(...f.batchMs)), s(BACKGROUND_LIMIT_MS)),
    row("all delivered, simulated platform time", (f) => s(f.allMs), "15 min"),
    row("printed", (f) => `${f.printed.toLocaleString("en")}`),
    row("store calls a delivery", (f) => f.callsPerDelivery.toFixed(2)),
    row("batches back to back, measured", (f) => `${s(f.runMs)} (${rate(f.subscribers, f.runMs)})`),
    row("plain POST loop after each batch, same POSTs", (f) => `${s(f.plainMs)} (${rate(f.subscribers, f.plainMs)})`),
    row("throughput run/plain", (f) => f.ratio.toFixed(2), `>= ${TARGETS.throughput}`),
    row(
      "CPU ms a delivery, run: functions' process, world",
      (f) => `${(f.cpu.run / f.subscribers).toFixed(2)}, ${(f.cpu.runWorld / f.subscribers).toFixed(2)}`,
    ),
    row(
      "CPU ms a POST, plain loop: its process, world",
      (f) => `${(f.cpu.plain / f.subscribers).toFixed(2)}, ${(f.cpu.plainWorld / f.subscribers).toFixed(2)}`,
    ),
    row(
      "functions' process RSS: before the plan, peak",
      (f) => `${f.startMiB.toFixed(0)}, ${f.peakMiB.toFixed(0)} MiB`,
      "flat",
    ),
    row(
      "functions' heap kept after a batch (after a full GC), median",
      (f) => `${f.retainedMiB.toFixed(1)} MiB`,
      "flat",
    ),
    "",
    ...checks.map(([goal, ok, figure]) => `- ${ok ? "PASS" : "**FAIL**"}: ${goal}: ${figure}`),
  ].join("\n");
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
  const fanoutOn = values["simulate-fanout"] === true;
  const sizes = (values.subscribers ?? (fanoutOn ? "10000,100000" : "1000"))
    .split(",")
    .map((n) => whole("subscribers", n.trim(), 0, 1, 200_000));
  const latencyMs = whole("latency-ms", values["latency-ms"], 0, 0, 1000);
  // The fan-out plays a deployed site, whose print keys are across the internet: tens of milliseconds a POST.
  const printLatencyMs = whole("print-latency-ms", values["print-latency-ms"], fanoutOn ? 50 : 0, 0, 5000);
  const functions = whole("functions", values.functions, 50, 1, 1000);
  if (sizes.includes(undefined) || latencyMs === undefined || printLatencyMs === undefined || functions === undefined)
    return 2;
  if (fanoutOn && !latencyMs) {
    processOutput.stderr("bench: --simulate-fanout needs --latency-ms (the store it simulates); see --help\n");
    return 2;
  }
  const subscribers = (sizes as number[]).sort((a, b) => a - b);
  const options = { subscribers, latencyMs, printLatencyMs, fanout: fanoutOn, functions };
  processOutput.stdout(`${await benchDeliveries(options)}\n`);
  return 0;
});
