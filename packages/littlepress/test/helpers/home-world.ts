// The household's server as its tests set it up: a store in a folder of its
// own, a fake ESC/POS printer that answers DLE EOT, a publication on loopback,
// the log's lines, the context every print is given, rendering in this
// worker's Chromium; and, for the page's tests, the page served over real HTTP
// on 127.0.0.1 at a free port. close() stops and removes all of it.
import { createAdaptorServer } from "@hono/node-server";
import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { openHomeDb, type Db } from "../../scripts/home/home-db.ts";
import type { HomeContext } from "../../scripts/home/home-send.ts";
import { homeApp } from "../../scripts/home/page/home-app.ts";
import { homePolicy } from "../../scripts/home/publications.ts";
import { Renderers } from "../../scripts/print/escpos-print.ts";
import { workerBrowser } from "./browser.ts";
import { startStatusPrinter, type StatusPrinter } from "./escpos-status-printer.ts";
import { startHomePublication, type HomePublication } from "./home-publication.ts";

export interface HomeWorld {
  dir: string;
  db: Db;
  printer: StatusPrinter;
  pub: HomePublication;
  /** The log's lines. */
  lines: string[];
  ctx: HomeContext;
  close(): Promise<void>;
}

export interface HomeSite extends HomeWorld {
  server: Server;
  /** http://127.0.0.1:<port> */
  base: string;
}

/** A world with the worker's Chromium rendering, and `options` in its context (retries: 0 unless told). */
export async function startHomeWorld(options: Partial<HomeContext> = {}): Promise<HomeWorld> {
  const renderers = new Renderers(await workerBrowser());
  const dir = await mkdtemp(path.join(tmpdir(), "littlepress-home-"));
  const db = openHomeDb(path.join(dir, "home.db"));
  const [printer, pub] = await Promise.all([startStatusPrinter(), startHomePublication()]);
  const lines: string[] = [];
  const log = (line: string) => void lines.push(line);
  const ctx: HomeContext = { db, renderers, policy: () => homePolicy(db), log, retries: 0, ...options };
  const close = async () => {
    db.close();
    await Promise.all([printer.close(), pub.close()]);
    await rm(dir, { recursive: true, force: true });
  };
  return { dir, db, printer, pub, lines, ctx, close };
}

/** A world with the household's page served on 127.0.0.1. */
export async function startHomeSite(options: Partial<HomeContext> = {}): Promise<HomeSite> {
  const world = await startHomeWorld(options);
  const server = createAdaptorServer({ fetch: homeApp({ ctx: world.ctx }).fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await world.close();
  };
  return { ...world, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}
