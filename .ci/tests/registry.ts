// A registry on loopback, standing for the public one as an author's machine
// finds it today: every package is fetched from the machine's own registry
// (`npm config get registry`), which it proxies, but littlepress is not there
// (404). No public registry holds the name for this project yet, so a site made
// by littlepress new must install without it (it carries the package in
// vendor/); nor may a package someone else published under the name reach the
// test through the proxy. It is verdaccio (a devDependency of this repository),
// in a folder of its own.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../packages/littlepress/scripts/cli.ts";

const run = promisify(execFile);
/** A bound on a hang: a loaded run (npm start and a CPU-bound process beside npm test) overran 30 s. */
const START_TIMEOUT_MS = 120_000;

export interface Registry {
  /** Its address, with the trailing slash npm writes. */
  url: string;
  /** The environment that points npm at it (and keeps `resolved` in lockfiles, to check where a package came from). */
  env: Record<string, string>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
}

export async function startRegistry(): Promise<Registry> {
  const folder = mkdtempSync(path.join(tmpdir(), "littlepress-registry-"));
  const { stdout } = await run("npm", ["config", "get", "registry"], { timeout: 30_000 });
  const uplink = stdout.trim();
  // JSON is YAML: verdaccio reads this as its config.yaml.
  const config = {
    storage: path.join(folder, "storage"),
    auth: { htpasswd: { file: path.join(folder, "htpasswd") } },
    uplinks: { npmjs: { url: uplink } },
    packages: {
      // Not proxied, and nothing published: a 404, as the public registry answers.
      littlepress: { access: "$all" },
      "**": { access: "$all", proxy: "npmjs" },
    },
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "warn" },
  };
  const configFile = path.join(folder, "config.yaml");
  writeFileSync(configFile, JSON.stringify(config, null, 2));

  const port = await freePort(0);
  const url = `http://127.0.0.1:${port}/`;
  const verdaccio = path.resolve("node_modules/verdaccio/bin/verdaccio");
  const child = spawn(process.execPath, [verdaccio, "--config", configFile, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    await answering(
      url,
      () => child.exitCode !== null || child.signalCode !== null,
      () => log,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    env: { npm_config_registry: url, npm_config_omit_lockfile_registry_resolved: "false" },
    stop,
  };
}

/** Waits until the registry answers its ping; fails with its log if it stops or takes too long. */
async function answering(url: string, stopped: () => boolean, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (stopped()) throw new Error(`verdaccio stopped before it answered:\n${log()}`);
    try {
      if ((await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`verdaccio did not answer on ${url} within ${START_TIMEOUT_MS / 1000} s:\n${log()}`);
}
