// One size of the delivery bench's fan-out (delivery-bench.ts forks it once
// per --subscribers size): a scheduled run on Netlify, played out in this
// process, which holds what the functions hold and nothing else. The site, the
// fake print keys and the store are in a child of their own
// (delivery-world.ts); every store call is a message there and back, made
// --latency-ms longer, as a Netlify Blobs round trip is.
// The plan (delivering/scheduled-run.ts) and every batch (delivering/batches.ts, the
// background function's code) run for real, one batch after the other, each
// timed; after each batch, side by side, a plain loop POSTs the same number
// of the same pages to the same print-key server at the same concurrency (the
// limit). This process's resident memory is sampled throughout.
// Usage (forked, with an IPC channel): delivery-fanout.ts <options as JSON>; sends one FanoutResult.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { BACKGROUND_BUDGET_MS } from "../../lib/model/run-budget.ts";
import { runBatch } from "../../lib/platform/delivering/batches.ts";
import { planRun } from "../../lib/platform/delivering/scheduled-run.ts";
import { DELIVERY_CONCURRENCY } from "../../lib/platform/delivering/run.ts";
import type { WorldPrints, WorldReady, WorldStart } from "./delivery-world.ts";
import { peakRss, plainPosts, rssMiB } from "./delivery-workload.ts";
import { ipcStore } from "./ipc-store.ts";
import { withLatency } from "./latency-store.ts";

export interface FanoutOptions {
  subscribers: number;
  latencyMs: number;
  printLatencyMs: number;
}

export interface FanoutResult {
  subscribers: number;
  dueSlots: number;
  batches: number;
  planMs: number;
  planCalls: number;
  /** Each batch's wall time, and the plain loop's for the same POSTs right after it. */
  batchMs: number[];
  plainMs: number[];
  /** CPU time, ms: this process's and the world's, over the batches and over the plain loops. */
  cpu: { run: number; runWorld: number; plain: number; plainWorld: number };
  printed: number;
  /** Store calls a delivery, the plan's left out. */
  callsPerDelivery: number;
  /** This process's resident memory: once the world was up (before the plan), and its peak after. */
  startMiB: number;
  peakMiB: number;
  /** The heap left after a full collection after each batch: the median of the batches, MiB. */
  retainedMiB: number;
}

const world = fork(fileURLToPath(new URL("./delivery-world.ts", import.meta.url)), [], {
  execArgv: ["--import", "tsx"],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
// A world that dies ends this run too (its store and servers are gone: every wait on them would hang).
world.once("exit", (code) => {
  if (code === 0) return;
  console.error(`bench: the world exited with ${code}`);
  process.exit(1);
});
/** The world's next message of a kind (store answers go to ipcStore). */
const next = <M extends { world: string }>(kind: M["world"]) =>
  new Promise<M>((resolve) => {
    const on = (m: { world?: string }) => {
      if (m?.world !== kind) return;
      world.off("message", on);
      resolve(m as M);
    };
    world.on("message", on);
  });

async function main(o: FanoutOptions): Promise<FanoutResult> {
  const sealKey = randomBytes(32);
  const ready = next<WorldReady>("ready");
  world.send({
    world: "start",
    subscribers: o.subscribers,
    sealKey: sealKey.toString("hex"),
    printLatencyMs: o.printLatencyMs,
  } satisfies WorldStart);
  const up = await ready;
  const startMiB = rssMiB();
  const { result, peakMiB } = await peakRss(() => play(o, up, sealKey));
  return { ...result, startMiB, peakMiB };
}

/** The plan, then each batch and its plain loop, against the world that is `up`. */
async function play(
  o: FanoutOptions,
  up: WorldReady,
  sealKey: Buffer,
): Promise<Omit<FanoutResult, "startMiB" | "peakMiB">> {
  const { origin, sirius, firstKey } = up;
  const at = new Date(up.at);
  const printKeys = { allowed: [{ origin: sirius, private: true }] };
  const store = withLatency(ipcStore(world), o.latencyMs);
  const batches: string[] = [];
  const planStart = performance.now();
  const plan = await planRun({
    store,
    at,
    sweep: false,
    hand: (call) => Promise.resolve(void batches.push(call.batch)),
  });
  const planMs = performance.now() - planStart;
  // What the functions keep, not what the collector has yet to free: the heap after a full collection.
  const retained = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const kept: number[] = [];
  const planCalls = store.calls;
  const batchMs: number[] = [];
  const plainMs: number[] = [];
  let printed = 0;
  const cpu = { run: 0, runWorld: 0, plain: 0, plainWorld: 0 };
  const ms = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;
  const worldPrints = () => {
    const prints = next<WorldPrints>("prints");
    world.send({ world: "prints" });
    return prints;
  };
  await worldPrints(); // the world's CPU counted from here
  for (const [i, key] of batches.entries()) {
    if (i % 10 === 0) process.stderr.write(`bench: ${o.subscribers}: batch ${i + 1} of ${batches.length}\n`);
    const start = performance.now();
    let used = process.cpuUsage();
    const outcome = await runBatch(
      { store, origin, sealKey, printKeys, at, concurrency: DELIVERY_CONCURRENCY, budgetMs: BACKGROUND_BUDGET_MS },
      key,
    );
    batchMs.push(performance.now() - start);
    cpu.run += ms(process.cpuUsage(used));
    printed += outcome.report.lines.filter((l) => l.outcome === "printed").length;
    kept.push(retained());
    const { count, bodies, cpuMs } = await worldPrints();
    cpu.runWorld += cpuMs;
    used = process.cpuUsage();
    plainMs.push(await plainPosts(firstKey, bodies, count));
    cpu.plain += ms(process.cpuUsage(used));
    // The plain loop's own prints are forgotten before the next batch's are counted.
    cpu.plainWorld += (await worldPrints()).cpuMs;
  }
  return {
    subscribers: o.subscribers,
    dueSlots: plan.dueSlots,
    batches: batches.length,
    planMs,
    planCalls,
    batchMs,
    plainMs,
    cpu,
    printed,
    callsPerDelivery: (store.calls - planCalls) / o.subscribers,
    // The median: what is in flight at the moment of each measure varies by a few MiB (not a growth).
    retainedMiB: kept.sort((a, b) => a - b)[Math.floor(kept.length / 2)] ?? 0,
  };
}

try {
  const result = await main(JSON.parse(process.argv[2] ?? "{}") as FanoutOptions);
  process.send!(result);
} finally {
  world.disconnect();
  await once(world, "exit");
}
