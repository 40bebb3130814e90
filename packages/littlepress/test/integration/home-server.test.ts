// `littlepress print-server` as a household runs it, in a process of its own
// (the compiled command): one command starts the page and the runs, printers.json
// is imported, one line is logged per print, SIGTERM exits 0; and a server
// SIGKILLed mid-delivery loses nothing and prints nothing twice but the page
// that was in flight (print-job.ts's window), which the next server leaves
// alone until its claim is stale.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Renderers } from "../../scripts/print/escpos-print.ts";
import { openHomeDb } from "../../scripts/home/home-db.ts";
import { historyOf, subscriptionsOf } from "../../scripts/home/home-jobs.ts";
import { homePolicy } from "../../scripts/home/publications.ts";
import { listPrinters } from "../../scripts/home/printers.ts";
import { runAll } from "../../scripts/home/runs.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { startStatusPrinter, type StatusPrinter } from "../helpers/escpos-status-printer.ts";
import { startHomePublication, type HomePublication } from "../helpers/home-publication.ts";
import { compiled } from "../helpers/kit-script.ts";

let dir: string;
let a: StatusPrinter;
let b: StatusPrinter;
let pub: HomePublication;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "littlepress-home-"));
  [a, b, pub] = await Promise.all([startStatusPrinter(), startStatusPrinter(), startHomePublication()]);
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await Promise.all([a.close(), b.close(), pub.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** The command in a child process; its output so far, and its exit. */
function start(args: string[]) {
  const child = spawn(process.execPath, [path.resolve(compiled("scripts/print-server.ts")), ...args], { cwd: dir });
  children.push(child);
  const seen = { out: "" };
  child.stdout.on("data", (d: Buffer) => (seen.out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (seen.out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const until = async (what: () => boolean, ms = 45_000) => {
    const deadline = Date.now() + ms;
    while (!what() && Date.now() < deadline) await sleep(100);
    if (!what()) throw new Error(`waited ${ms} ms; the server said:\n${seen.out}`);
  };
  return { child, seen, exited, until };
}

/** printers.json with one printer each, due now (this UTC hour), the publication on loopback. */
async function printersJson(): Promise<string> {
  const hour = new Date().getUTCHours();
  const printers = [a, b].map((p, i) => ({
    id: `p${i}`,
    name: `P${i}`,
    to: p.url,
    publication: pub.url,
    hour,
    zone: "UTC",
    settings: { name: `N${i}` },
  }));
  const file = path.join(dir, "printers.json");
  await writeFile(file, JSON.stringify({ printers }));
  return file;
}

it("starts with one command, imports printers.json, logs one line per print, and exits 0 on SIGTERM", async () => {
  const file = await printersJson();
  const db = path.join(dir, "home.db");
  const s = start(["--db", db, "--listen", "127.0.0.1", "--port", "0", "--import", file]);
  await s.until(() => /setup code [0-9a-f]+/.test(s.seen.out));
  const url = /the page is at (\S+)/.exec(s.seen.out)![1]!;
  const res = await fetch(`${url}login`, { redirect: "manual" });
  expect(res.headers.get("location")).toBe("/setup");
  // The import's subscriptions were created now, after this hour's delivery time: due tomorrow, not now.
  expect(s.seen.out).not.toMatch(/ <- /);
  s.child.kill("SIGTERM");
  expect(await s.exited).toBe(0);
  const store = openHomeDb(db);
  expect(listPrinters(store).map((p) => p.address)).toEqual([a.url, b.url]);
  expect(subscriptionsOf(store, listPrinters(store)[0]!.id)[0]).toMatchObject({ publication: pub.url, zone: "UTC" });
  store.close();
  const again = start(["--db", db, "--listen", "127.0.0.1", "--port", "0", "--import", file]); // imported once only
  await again.until(() => /the page is at/.test(again.seen.out));
  again.child.kill("SIGTERM");
  expect(await again.exited).toBe(0);
  const after = openHomeDb(db);
  expect(listPrinters(after)).toHaveLength(2);
  after.close();
}, 120_000);

it("loses nothing and prints nothing twice but what was in flight when SIGKILLed mid-delivery", async () => {
  const db = path.join(dir, "home.db");
  const store = openHomeDb(db);
  const { importPrintersJson } = await import("../../scripts/home/home-server.ts");
  const { readFile } = await import("node:fs/promises");
  expect(
    importPrintersJson(
      store,
      JSON.parse(await readFile(await printersJson(), "utf8")),
      new Date(Date.now() - 86_400_000),
    ),
  ).toEqual([]);
  a.hold = true; // a takes the page and never answers: the server is mid-send when it dies
  const s = start(["--db", db, "--listen", "127.0.0.1", "--port", "0"]);
  await s.until(() => a.bytes > 0 && b.stream.jobs.length === 1 && / P1 <- /.test(s.seen.out));
  s.child.kill("SIGKILL");
  await s.exited;
  const [pa, pb] = listPrinters(store);
  expect(historyOf(store, pb!.id).map((h) => h.outcome)).toEqual(["printed"]); // b's print was settled: kept
  expect(historyOf(store, pa!.id)).toEqual([]); // a's was in flight
  const sentToA = a.bytes;
  a.hold = false;
  const again = start(["--db", db, "--listen", "127.0.0.1", "--port", "0"]);
  await again.until(() => /the page is at/.test(again.seen.out));
  await sleep(3000); // its first run: a's claim is young (held by the dead run), b's delivery settled
  again.child.kill("SIGTERM");
  expect(await again.exited).toBe(0);
  expect(a.bytes).toBe(sentToA);
  expect(b.stream.jobs).toHaveLength(1);
  // Once the dead run's claim is stale (5 minutes), a's page is sent again: the one page that was in flight.
  const renderers = new Renderers(await workerBrowser());
  const ctx = { db: store, renderers, policy: () => homePolicy(store), log: () => undefined, retries: 0 };
  await runAll(ctx, new Date(Date.now() + 6 * 60_000));
  await renderers.close();
  expect(b.stream.jobs).toHaveLength(1);
  expect(historyOf(store, pa!.id).map((h) => h.outcome)).toEqual(["printed"]);
  expect(subscriptionsOf(store, pa!.id)[0]).toMatchObject({ delivery_count: 1 });
  // Imported by its URL, it is named by its meta.json once a delivery has read it.
  expect(subscriptionsOf(store, pb!.id)[0]).toMatchObject({ delivery_count: 1, name: "The Daily Hello" });
  store.close();
}, 120_000);
