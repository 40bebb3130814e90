// npm run bench:home [-- --printers 10 --subscriptions 50]: the home print
// server's memory and CPU, idle and during the 07:00 run. A store with 8 in
// 10 ESC/POS printers (the fake of test/helpers/escpos-status-printer.ts,
// answering DLE EOT, at 384 and 576 dots) and the rest Little Printers (the
// sirius stand-in), the subscriptions spread over them, every one due at
// 07:00 UTC, to a publication on loopback (test/helpers/home-publication.ts).
// The page listens as the server's does; Chromium runs only while pages
// render (chromium-on-demand.ts). Memory is the proportional set (PSS) of
// this process and its children (/proc), so that the pages Chromium's
// processes share are counted once; CPU is theirs too. Targets (issue 54):
// under 250 MB idle; the run within 2 minutes.
import { createAdaptorServer } from "@hono/node-server";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { startStatusPrinter } from "../../test/helpers/escpos-status-printer.ts";
import { startHomePublication } from "../../test/helpers/home-publication.ts";
import { startPrintKeys } from "../../test/helpers/print-keys.ts";
import { launchChromium } from "../browser.ts";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import { openHomeDb, type Db } from "../home/home-db.ts";
import { historyOf } from "../home/home-jobs.ts";
import type { HomeContext } from "../home/home-send.ts";
import { ChromiumOnDemand } from "../home/chromium-on-demand.ts";
import { homeApp } from "../home/page/home-app.ts";
import { addPrinter, listPrinters, type HomePrinterRow } from "../home/printers.ts";
import { allowOrigin, homePolicy } from "../home/publications.ts";
import { rendersAtOnce } from "../preview/render.ts";
import { runAll } from "../home/runs.ts";
import { addSubscription } from "../home/subscriptions.ts";

const USAGE = `Usage: npm run bench:home [-- --printers N --subscriptions M]

The home print server with N printers (default 10: 8 ESC/POS, 2 Little
Printers) and M subscriptions (default 50), all due at 07:00: its memory idle,
and the time, CPU and peak memory of the 07:00 run.

Options:
  --printers N        printers, 8 in 10 of them ESC/POS (default 10)
  --subscriptions M   subscriptions, spread over the printers (default 50)
  -h, --help          show this text

Example:
  npm run bench:home -- --printers 4 --subscriptions 12`;

/** A process's CPU time (s) and parent, from /proc. */
function procFigures(pid: number): { cpu: number; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const tick = 100; // USER_HZ on Linux
    return { cpu: (Number(fields[11]) + Number(fields[12])) / tick, ppid: Number(fields[1]) };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * A process's proportional memory (PSS, bytes): its own pages, and its share of those it shares. Chromium's
 * processes share most of their pages, so their resident sets summed would count those many times over.
 */
function pss(pid: number): number {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0; // gone meanwhile
  }
}

/** This process and its descendants (Chromium's): memory (PSS) and CPU seconds, summed; this process's own memory. */
function treeFigures(): { rss: number; node: number; cpu: number; processes: number } {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const figures = new Map(all.map((pid) => [pid, procFigures(pid)]));
  const ours = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, f] of figures) if (f && !ours.has(pid) && ours.has(f.ppid)) grew = ours.add(pid) !== undefined;
  }
  let rss = 0;
  let cpu = 0;
  for (const pid of ours) {
    const f = figures.get(pid);
    rss += pss(pid);
    cpu += f?.cpu ?? 0;
  }
  return { rss, node: pss(process.pid), cpu, processes: ours.size };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function fill(db: Db, printers: number, subscriptions: number) {
  const escpos = await Promise.all(Array.from({ length: Math.ceil(printers * 0.8) }, () => startStatusPrinter()));
  const keys = Object.fromEntries(
    Array.from({ length: printers - escpos.length }, (_, i) => [
      `key${i}`,
      { name: `LP${i}`, owner: "o", online: true },
    ]),
  );
  const sirius = await startPrintKeys(keys);
  const pub = await startHomePublication();
  allowOrigin(db, pub.origin, true);
  allowOrigin(db, sirius.url, true);
  const at = new Date("2026-11-28T00:00:00Z");
  escpos.forEach((p, i) => addPrinter(db, { name: `P${i}`, address: p.url, width: i % 2 ? 576 : 384 }, at));
  Object.keys(keys).forEach((k) => addPrinter(db, { name: k, address: sirius.keyUrl(k) }, at));
  const rows: HomePrinterRow[] = listPrinters(db);
  for (let i = 0; i < subscriptions; i++) {
    const s = { printerId: rows[i % rows.length]!.id, base: new URL(pub.url), name: "The Daily Hello", hour: 7 };
    addSubscription(db, { ...s, zone: "UTC", settings: [["name", `N${i}`]] }, at);
  }
  return {
    jobs: () => escpos.reduce((n, p) => n + p.stream.jobs.length, 0) + sirius.prints.length,
    close: async () => {
      await Promise.all([...escpos.map((p) => p.close()), sirius.close(), pub.close()]);
    },
  };
}

async function main(argv: string[]): Promise<number> {
  const options = {
    printers: { type: "string" },
    subscriptions: { type: "string" },
    help: { type: "boolean", short: "h" },
  } as const;
  const parsed = parseToolArgs(argv, options, false);
  const answered = answerUsage("bench", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const printers = Number(parsed.values.printers ?? 10);
  const subscriptions = Number(parsed.values.subscriptions ?? 50);
  if (!Number.isInteger(printers) || printers < 1 || printers > 100)
    return answerUsage("bench", { error: "--printers is 1 to 100" }, USAGE, processOutput)!;
  if (!Number.isInteger(subscriptions) || subscriptions < 1 || subscriptions > 1000)
    return answerUsage("bench", { error: "--subscriptions is 1 to 1000" }, USAGE, processOutput)!;
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-home-bench-"));
  const db = openHomeDb(path.join(work, "home.db"));
  const world = await fill(db, printers, subscriptions);
  const renderers = new ChromiumOnDemand(launchChromium);
  const ctx: HomeContext = { db, renderers, policy: () => homePolicy(db), log: () => undefined };
  const server = createAdaptorServer({ fetch: homeApp({ ctx }).fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    // Idle as the server idles: a run a minute with nothing due, so no Chromium (it starts for a page, and
    // closes a minute after the last).
    await runAll(ctx, new Date("2026-11-28T06:30:00Z"));
    await new Promise((r) => setTimeout(r, 3000));
    const idle = treeFigures();
    await report(ctx, world, idle, subscriptions);
    await renderers.close();
    await new Promise((r) => setTimeout(r, 2000));
    const closed = treeFigures();
    processOutput.stdout(`after the run, Chromium closed again: ${mb(closed.rss)} (Node ${mb(closed.node)})\n`);
  } finally {
    server.close();
    await renderers.close();
    await world.close();
    db.close();
    rmSync(work, { recursive: true, force: true });
  }
  return 0;
}

async function report(
  ctx: HomeContext,
  world: { jobs: () => number },
  idle: ReturnType<typeof treeFigures>,
  subscriptions: number,
): Promise<void> {
  let peak = idle.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, treeFigures().rss)), 250);
  const t0 = performance.now();
  await runAll(ctx, new Date("2026-11-28T07:00:30Z"));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const after = treeFigures();
  const history = listPrinters(ctx.db).flatMap((p) => historyOf(ctx.db, p.id, 1000));
  const printed = history.filter((h) => h.outcome === "printed");
  const say = (line: string) => processOutput.stdout(`${line}\n`);
  const cores = os.cpus().length;
  const atOnce = `${rendersAtOnce()} renders at once`;
  say(
    `home print server, ${listPrinters(ctx.db).length} printers, ${subscriptions} subscriptions ` +
      `(${cores} cores, ${atOnce})`,
  );
  const chromium = `${idle.processes - 1} other processes ${mb(idle.rss - idle.node)}`;
  say(`idle: ${mb(idle.rss)} (PSS: Node ${mb(idle.node)}, ${chromium}); target < 250 MB`);
  say(`07:00 run: ${seconds.toFixed(1)} s for ${printed.length} prints (${world.jobs()} received); target < 120 s`);
  const cpu = after.cpu - idle.cpu;
  say(`07:00 run: CPU ${cpu.toFixed(1)} s (${((cpu / seconds) * 100).toFixed(0)}% of one core), peak ${mb(peak)}`);
  // Every print that did not print, and why: a run that printed 49 of 50 says which one, and what it came to.
  for (const h of history.filter((h) => h.outcome !== "printed"))
    say(`not printed: ${h.what}: ${h.outcome}: ${h.detail}`);
}

runTool("bench", import.meta.url, main);
