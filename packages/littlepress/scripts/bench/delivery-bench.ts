// npm run bench:deliveries: one delivery run to 1,000 subscribers, timed, and
// against it, side by side, its limit: a plain loop POSTing the same editions
// to the same print-key server with the same concurrency (no store, no
// edition/ request). The publications are synthetic (generate.ts), built into
// a temporary folder and served by the kit's server; the prints go to the
// tests' fake sirius (test/helpers/print-keys.ts); the state is the file
// store. (Netlify's local Blobs server cannot stand in for the deployed store
// here: it answers reads without the ETags that a run's conditional writes need.)
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "../../lib/build/build.ts";
import { wallClock } from "../../lib/model/time-zones.ts";
import { DELIVERY_CONCURRENCY, runDeliveries } from "../../lib/platform/delivery-run.ts";
import { startServer } from "../../lib/server/server.ts";
import { fileStore, type StateStore } from "../../lib/platform/state-store.ts";
import { createSubscription } from "../../lib/platform/subscribing.ts";
import { startPrintKeys } from "../../test/helpers/print-keys.ts";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import { CHOICES, DAILY, generateSite, LANGS, SERIAL } from "./generate.ts";

export const USAGE = `Usage: npm run bench:deliveries [-- options]

Times one delivery run to many subscribers (default 1,000) against a fake
print-key server, with the file store, and against it a plain loop POSTing the same editions. Prints the figures.

Options:
  --subscribers <n>  how many (default 1000)
  -h, --help         show this text

Example:
  npm run bench:deliveries -- --subscribers 1000`;

const ZONES = ["Europe/London", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Etc/GMT+12", "Europe/Paris"];
const CONCURRENCY = DELIVERY_CONCURRENCY;

export async function benchDeliveries(subscribers: number): Promise<string> {
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-deliveries-"));
  const sirius = await startPrintKeys();
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
      const rows: string[] = [];
      const stores: [string, StateStore][] = [["file store", fileStore(path.join(work, "state"))]];
      for (const [name, store] of stores) {
        const at = await subscribe(store, sealKey, sirius, subscribers);
        sirius.prints.length = 0;
        const start = performance.now();
        // No time budget: the bench times the whole run, however long it takes.
        const report = await runDeliveries({
          store,
          origin: server.url,
          sealKey,
          printKeys: sirius.policy,
          at,
          concurrency: CONCURRENCY,
          budgetMs: Number.POSITIVE_INFINITY,
        });
        const seconds = (performance.now() - start) / 1000;
        const printed = report.lines.filter((l) => l.outcome === "printed").length;
        const bodies = sirius.prints.map((p) => p.body);
        const plain = await plainPosts(sirius.keyUrl(firstKey(sirius)), bodies);
        rows.push(
          `| ${name} | ${subscribers} | ${printed} | ${seconds.toFixed(2)} | ${(subscribers / seconds).toFixed(0)} | ` +
            `${plain.toFixed(2)} | ${(seconds / plain).toFixed(1)} |`,
        );
      }
      return [
        `Delivery run: ${subscribers} subscribers due at once, concurrency ${CONCURRENCY}, ` +
          `${os.cpus().length} cores, ` +
          `load average ${os.loadavg()[0]!.toFixed(1)}`,
        "",
        "| store | subscribers | printed | run s | deliveries/s | plain POSTs s | ratio run/plain |",
        "|---|---:|---:|---:|---:|---:|---:|",
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

/** `n` subscriptions spread over the three publications and six zones, each due at the returned instant. */
async function subscribe(
  store: StateStore,
  sealKey: Buffer,
  sirius: Awaited<ReturnType<typeof startPrintKeys>>,
  n: number,
): Promise<Date> {
  const created = new Date(Date.now() - 3 * 86_400_000);
  const at = new Date();
  const slugs = [SERIAL, DAILY, CHOICES];
  const jobs = Array.from({ length: n }, (_, i) => async () => {
    const key = `bench${i}`;
    sirius.printers.set(key, { name: `Printer ${i}`, owner: "bench", online: true });
    const zone = ZONES[i % ZONES.length]!;
    // the hour that has just begun in the zone, so every subscription is due now
    const hour = wallClock(zone, at.getTime() - 60_000).hour;
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
  for (let i = 0; i < jobs.length; i += 50) await Promise.all(jobs.slice(i, i + 50).map((j) => j()));
  return at;
}

const firstKey = (sirius: Awaited<ReturnType<typeof startPrintKeys>>) => [...sirius.printers.keys()][0]!;

/** The limit: the same bodies POSTed by a plain loop at the same concurrency; seconds. */
async function plainPosts(url: string, bodies: string[]): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
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
  const parsed = parseToolArgs(argv, { subscribers: { type: "string" }, help: { type: "boolean", short: "h" } }, false);
  const answered = answerUsage("bench", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const n = Number(parsed.values.subscribers ?? 1000);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) {
    processOutput.stderr(`bench: --subscribers takes a whole number from 1 to 100000; see --help\n`);
    return 2;
  }
  processOutput.stdout(`${await benchDeliveries(n)}\n`);
  return 0;
});
