// The home print server as one process: the store, one Chromium, the page
// (home-app.ts) on the home network, and a run every minute that prints what
// is due (runs.ts), never two runs at once. close() stops taking requests,
// waits for the run in progress (its jobs settle), and closes the browser and
// the store.
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isAddressLiteral } from "../../lib/model/addresses.ts";
import { readPrintersConfig } from "../print/home-printers.ts";
import { launchChromium, startChromium } from "../browser.ts";
import { ChromiumOnDemand } from "./chromium-on-demand.ts";
import { openHomeDb, type Db } from "./home-db.ts";
import type { HomeContext } from "./home-send.ts";
import { setupCode } from "./page/auth.ts";
import { homeApp } from "./page/home-app.ts";
import { addPrinter, listPrinters } from "./printers.ts";
import { allowOrigin, homePolicy } from "./publications.ts";
import { runAll } from "./runs.ts";
import { addSubscription } from "./subscriptions.ts";

export interface HomeServerOptions {
  /** The store's file. */
  db: string;
  /** The address to listen on (default 0.0.0.0; clients off the home network are refused anyway). */
  listen?: string;
  port?: number;
  allowPublic?: boolean;
  hosts?: string[];
  /** Seconds between runs (default 60). */
  interval?: number;
  log: (line: string) => void;
}

export interface HomeServer {
  url: string;
  db: Db;
  close(): Promise<void>;
}

export async function startHomeServer(o: HomeServerOptions): Promise<HomeServer | { problem: string }> {
  // Chromium is started once here, so that one that is missing or will not start is said at once.
  const chromium = await startChromium();
  if ("problem" in chromium) return chromium;
  await chromium.browser.close();
  const db = openHomeDb(o.db);
  const renderers = new ChromiumOnDemand(launchChromium);
  const ctx: HomeContext = { db, renderers, policy: () => homePolicy(db), log: o.log };
  const app = homeApp({ ctx, allowPublic: o.allowPublic ?? false, hosts: o.hosts ?? [] });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(o.port ?? 8631, o.listen ?? "0.0.0.0", resolve));
  const { port } = server.address() as AddressInfo;
  const shownHost = !o.listen || o.listen === "0.0.0.0" || o.listen === "::" ? "localhost" : o.listen;
  const url = `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${port}/`;
  const code = setupCode(db);
  o.log(`print-server: the page is at ${url} (and this machine's address on the home network)`);
  if (code) o.log(`print-server: first run: set the household's passphrase at ${url}setup with the setup code ${code}`);
  const loop = runLoop(ctx, (o.interval ?? 60) * 1000);
  return {
    url,
    db,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await loop.stop();
      await renderers.close();
      db.close();
    },
  };
}

/** A run now and every `everyMs` after the last one ended; stop() waits for the one in progress. */
function runLoop(ctx: HomeContext, everyMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = runAll(ctx, new Date()).catch((error: unknown) => ctx.log(`print-server: run failed: ${String(error)}`));
    void running.then(() => {
      if (!stopped) timer = setTimeout(tick, everyMs);
    });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** printers.json's printers and their one publication each, added to the store (once: a second import adds nothing). */
export function importPrintersJson(db: Db, raw: unknown, at: Date): string[] {
  const config = readPrintersConfig(raw);
  if ("problems" in config) return config.problems;
  for (const p of config.printers) {
    if (listPrinters(db).some((q) => q.address === p.to.text)) continue;
    const printer = addPrinter(db, { name: p.name, address: p.to.text, width: p.width }, at);
    if ("problem" in printer) return [`${p.id}: ${printer.problem}`];
    const host = p.publication.hostname.replace(/^\[|\]$/g, "");
    // As printers.json allowed it: a private address only when written as one (an address, or localhost).
    allowOrigin(db, p.publication.origin, isAddressLiteral(host) || host === "localhost");
    const s = { printerId: printer.id, base: p.publication, name: p.publication.href, hour: p.hour, zone: p.zone };
    addSubscription(db, { ...s, settings: p.settings }, at);
  }
  return [];
}
