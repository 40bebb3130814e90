// Everything a delivery run talks to, in a process of its own, for the
// delivery bench's fan-out (delivery-fanout.ts forks it): the kit's server on
// a synthetic site (the /edition/ answers), the tests' fake sirius (the print
// keys) and the state store in memory, served over the IPC channel
// (ipc-store.ts). Kept out of the measured process as they are out of a
// Netlify function's: its memory and CPU are then the run's own.
// Started with one message, { world: "start", subscribers, sealKey (hex), printLatencyMs };
// answers { world: "ready", origin, sirius, firstKey, at }; { world: "prints" } answers the prints since the
// last ask ({ world: "prints", count, bodies: a sample }) and forgets them. Ends when its parent goes.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "../../lib/build/build.ts";
import { startServer } from "../../lib/server/server.ts";
import { startPrintKeys } from "../../test/helpers/print-keys.ts";
import { benchKey, subscribeMany } from "./delivery-workload.ts";
import { generateSite } from "./generate.ts";
import { serveStore } from "./ipc-store.ts";
import { memoryStore } from "./latency-store.ts";

/** The world's answer once it is up. */
export interface WorldReady {
  world: "ready";
  /** The kit's server, where the publications are asked. */
  origin: string;
  /** The fake print-key service's origin (a loopback address, allowed as private). */
  sirius: string;
  /** One print key URL, the plain loop's target. */
  firstKey: string;
  /** The instant every subscription is due (ISO 8601). */
  at: string;
}
export interface WorldPrints {
  world: "prints";
  count: number;
  bodies: string[];
  /** The world's CPU time since the last ask, ms (its store, the site's server, the print keys). */
  cpuMs: number;
}
export interface WorldStart {
  world: "start";
  subscribers: number;
  sealKey: string;
  printLatencyMs: number;
}
/** How many printed pages the world keeps to hand over as the plain loop's bodies. */
const SAMPLE = 200;

const send = (message: WorldReady | WorldPrints) => process.send!(message);

process.once("message", (start: WorldStart) => {
  startWorld(start).catch((error: unknown) => {
    // The parent waits on this world: it must hear that it is gone, not wait on.
    console.error(`bench: the world did not start: ${String(error)}`);
    process.exit(1);
  });
});

async function startWorld(start: WorldStart): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-world-"));
  const sirius = await startPrintKeys();
  sirius.latencyMs = start.printLatencyMs;
  generateSite(path.join(work, "content"), 300);
  await build({ content: path.join(work, "content"), output: path.join(work, "_site") });
  const server = await startServer({ port: 0, siteDir: path.join(work, "_site"), stateDir: path.join(work, "unused") });
  const store = memoryStore();
  serveStore(store, process);
  const at = await subscribeMany(store, Buffer.from(start.sealKey, "hex"), sirius, start.subscribers);
  let cpu = process.cpuUsage();
  process.on("message", (m: { world?: string }) => {
    if (m?.world !== "prints") return;
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const count = sirius.prints.length;
    const bodies = sirius.prints.slice(0, SAMPLE).map((p) => p.body);
    sirius.prints.length = 0;
    sirius.requests.length = 0;
    send({ world: "prints", count, bodies, cpuMs: (used.user + used.system) / 1000 });
  });
  process.once("disconnect", () => {
    void Promise.allSettled([server.close(), sirius.close()]).then(() => {
      rmSync(work, { recursive: true, force: true });
      process.exit(0);
    });
  });
  send({
    world: "ready",
    origin: server.url,
    sirius: sirius.url,
    firstKey: sirius.keyUrl(benchKey(0)),
    at: at.toISOString(),
  });
}
