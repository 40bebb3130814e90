// npm run bench:print-once: delivery runs to subscribers due together against
// a print-key service that answers as sirius does (platform.md, "How sirius
// renders and answers"): one print at a time, each answered once rendered,
// the render going on when a client hangs up. It counts what the issue of
// "one print, once" asks: prints per subscriber (duplicates), unknown records,
// and the run's prints a second against the service's own capacity (one
// render at a time). Each size runs twice, side by side: with the kit's bound
// on a send (the run's time left), and with the 5 s bound a POST had before,
// whose time-outs are now unknown (and were each printed again before).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runDeliveries } from "../../lib/platform/delivering/run.ts";
import { fileStore } from "../../lib/platform/stores/state-store.ts";
import { startPrintKeys } from "../../test/helpers/print-keys.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, type Output } from "../cli.ts";
import { subscribeMany } from "./delivery-workload.ts";
import { generateSite } from "./generate.ts";

export const USAGE = `Usage: npm run bench:print-once [-- options]

Runs deliveries to subscribers due together against a stand-in that answers as
sirius does: one print at a time, each answered once rendered (sirius's 0.3 to
1.7 s a page, times --scale), the render going on when a client hangs up.
Prints a table: prints, duplicates, unknown records, and the run's prints a
second against the service's capacity, with the kit's bound on a send and with
the 5 s bound (scaled) a POST had before. Exits 1 when a duplicate is printed.

Options:
  --subscribers <n>[,<n>…]  due together (default 16,48,1000)
  --scale <x>               sirius's times multiplied by this (default 0.05)
  -h, --help                show this text

Example:
  npm run bench:print-once -- --subscribers 16,48 --scale 0.25`;

const OPTIONS = {
  subscribers: { type: "string" },
  scale: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** sirius's render of one page alone (ms): 0.3 to 1.7 s (platform.md). */
const RENDER_MS = [300, 1_700] as const;
/** The bound a print-key POST had before the print job (DELIVERY_TIMEOUT_MS). */
const OLD_BOUND_MS = 5_000;

export interface PrintOnceRow {
  due: number;
  bound: string;
  printed: number;
  /** Deliveries that had nothing to print (a 204, the same ETag). */
  nothing: number;
  duplicates: number;
  unknown: number;
  seconds: number;
  /** The run's prints a second over the service's own (one render at a time). */
  ratio: number;
  peak: number;
}

export async function benchPrintOnce(sizes: number[], scale: number): Promise<PrintOnceRow[]> {
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-print-once-"));
  const sirius = await startPrintKeys();
  try {
    generateSite(path.join(work, "content"), 50);
    const { build } = await import("../../lib/build/build.ts");
    const { startServer } = await import("../../lib/server/server.ts");
    await build({ content: path.join(work, "content"), output: path.join(work, "_site") });
    const server = await startServer({ port: 0, siteDir: path.join(work, "_site"), stateDir: path.join(work, "x") });
    try {
      const rows: PrintOnceRow[] = [];
      for (const due of sizes)
        for (const old of [false, true])
          rows.push(await oneRun({ work, sirius, origin: server.url, due, scale, old, rows: rows.length }));
      return rows;
    } finally {
      await server.close();
    }
  } finally {
    await sirius.close();
    rmSync(work, { recursive: true, force: true });
  }
}

interface RunSetup {
  work: string;
  sirius: Awaited<ReturnType<typeof startPrintKeys>>;
  origin: string;
  due: number;
  scale: number;
  old: boolean;
  rows: number;
}

/** One run of `due` deliveries; the service's renders spread evenly over sirius's range. */
async function oneRun(s: RunSetup): Promise<PrintOnceRow> {
  const { sirius } = s;
  const store = fileStore(path.join(s.work, `state${s.rows}`));
  const sealKey = randomBytes(32);
  const at = await subscribeMany(store, sealKey, sirius, s.due);
  let n = 0;
  const [low, high] = RENDER_MS;
  const renderMs = () => (low + ((n++ * 0.618) % 1) * (high - low)) * s.scale;
  const mean = ((low + high) / 2) * s.scale;
  Object.assign(sirius, { renderMs, oneAtATime: true, peakRendering: 0 });
  sirius.prints.length = 0;
  const started = performance.now();
  const report = await runDeliveries({
    store,
    origin: s.origin,
    sealKey,
    printKeys: sirius.policy,
    at,
    budgetMs: Number.POSITIVE_INFINITY,
    ...(s.old && { printTimeoutMs: OLD_BOUND_MS * s.scale }),
  });
  const seconds = (performance.now() - started) / 1000;
  const perKey = new Map<string, number>();
  for (const p of sirius.prints) perKey.set(p.key, (perKey.get(p.key) ?? 0) + 1);
  const printed = report.lines.filter((l) => l.outcome === "printed").length;
  const nothing = report.lines.filter((l) => l.outcome === "not-printed").length;
  const duplicates = [...perKey.values()].reduce((sum, c) => sum + c - 1, 0);
  const ratio = sirius.prints.length / seconds / (1000 / mean);
  const bound = s.old ? `${OLD_BOUND_MS / 1000} s x scale (the bound before)` : "the run's time left";
  return {
    due: s.due,
    bound,
    nothing,
    printed,
    duplicates,
    unknown: report.unknown,
    seconds,
    ratio,
    peak: sirius.peakRendering,
  };
}

export function printOnceTable(rows: PrintOnceRow[], scale: number): string {
  return [
    `${new Date().toISOString()}: deliveries due together against a stand-in rendering one print at a time, ` +
      `${RENDER_MS[0]}-${RENDER_MS[1]} ms a page x ${scale}, ${os.cpus().length} cores, ` +
      `load average ${os.loadavg()[0]!.toFixed(1)}`,
    "Each unknown was printed by the service; before, each was recorded as failed and sent again.",
    "",
    "| due | send bound | printed | nothing to print | unknown | duplicates (target 0) | run s | " +
      "throughput / capacity | peak in flight |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.due} | ${r.bound} | ${r.printed} | ${r.nothing} | ${r.unknown} | ` +
        `${r.duplicates} ${r.duplicates ? "FAIL" : "ok"} | ${r.seconds.toFixed(2)} | ` +
        `${r.ratio.toFixed(2)} | ${r.peak} |`,
    ),
  ].join("\n");
}

export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("bench", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const sizes = (parsed.values.subscribers ?? "16,48,1000").split(",").map(Number);
  const scale = Number(parsed.values.scale ?? 0.05);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 100_000) || !(scale > 0 && scale <= 1))
    return answerUsage("bench", { error: "--subscribers are whole numbers, --scale from 0 to 1" }, USAGE, out) ?? 2;
  const rows = await benchPrintOnce(sizes, scale);
  out.stdout(printOnceTable(rows, scale) + "\n");
  return rows.some((r) => r.duplicates) ? 1 : 0;
}

runTool("bench", import.meta.url, (argv) => main(argv));
