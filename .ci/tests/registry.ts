// A registry on loopback, for the tests that install littlepress as an author
// does: by name, from a registry. It is verdaccio (a devDependency of this
// repository), in a folder of its own: littlepress is served from its storage,
// published there by the test; every other package is fetched from the
// machine's own registry (`npm config get registry`), which it proxies.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../packages/littlepress/scripts/cli.ts";
import { inFolder } from "./packed.ts";

const run = promisify(execFile);
const START_TIMEOUT_MS = 30_000;

export interface Registry {
  /** Its address, with the trailing slash npm writes. */
  url: string;
  /** The environment that points npm at it (and keeps `resolved` in lockfiles, to check where a package came from). */
  env: Record<string, string>;
  /** Publishes a packed package to it, as a user made for the purpose. */
  publish(tarball: string): Promise<void>;
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
      littlepress: { access: "$all", publish: "$authenticated" },
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
    rmSync(folder, { recursive: true, force: true });
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
    async publish(tarball) {
      const token = await addUser(url);
      const auth = `--${url.replace(/^http:/, "")}:_authToken=${token}`;
      await inFolder(folder, "npm", ["publish", tarball, "--registry", url, auth]);
    },
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

/** Creates a user (the npm login API, which verdaccio's htpasswd store answers) and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = "littlepress-test";
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: randomBytes(16).toString("hex") }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token)
    throw new Error(`verdaccio made no user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}
