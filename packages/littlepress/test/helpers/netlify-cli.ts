// netlify-cli as the tests run it, on a project folder of their own: offline, without a login, with its own
// home (kept out of the user's), in a process group of its own that the test stops.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installedPackage } from "../../scripts/bench/util.ts";

/**
 * Makes `project` a folder netlify-cli takes for the whole site. netlify-cli keeps what it serves
 * (.netlify/functions-serve, the functions unzipped) at the root of the git repository it runs in, and its
 * state in the nearest .netlify/state.json above. Without both there they were this repository's: it emptied
 * the functions of a `netlify serve` running at the root.
 */
export function ownNetlifyProject(project: string): void {
  execFileSync("git", ["init", "--quiet", project]);
  mkdirSync(path.join(project, ".netlify"), { recursive: true });
  writeFileSync(path.join(project, ".netlify", "state.json"), "{}\n");
}

/**
 * How long netlify-cli may take to start serving in a test (netlify serve builds first). Alone it serves in 10-20 s;
 * bundling the functions is CPU-bound, and in CI beside the rest of the suite netlify dev took 65 s, past the 60 s a
 * test once gave it. A long limit costs nothing when it starts: the tests judge what it serves, not how fast.
 */
export const NETLIFY_START_MS = 280_000;

/** A netlify-cli command running in `cwd`, with everything it printed; `stop` ends it and removes its home. */
export interface NetlifyRun {
  child: ChildProcess;
  readonly log: string;
  /**
   * Resolves once `isReady` says so (asked every half second), or throws `what did not start`, with the log, once it
   * has exited or `withinMs` have passed.
   */
  ready(isReady: () => boolean | Promise<boolean>, withinMs: number, what: string): Promise<void>;
  stop(): Promise<void>;
}

/** `netlify <args>` in `cwd`, with a home of its own, no telemetry or update checks; `env`: more of its environment. */
export function runNetlify(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): NetlifyRun {
  // netlify-cli's own settings and caches, kept out of the user's home; removed by stop().
  const home = mkdtempSync(path.join(tmpdir(), "netlify-home-"));
  const child = spawn(path.join(installedPackage("netlify-cli"), "bin", "run.js"), args, {
    cwd,
    env: {
      ...process.env,
      HOME: home,
      BROWSER: "none",
      CI: "true",
      NO_UPDATE_NOTIFIER: "1",
      NETLIFY_TELEMETRY_DISABLED: "1",
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  return {
    child,
    get log() {
      return log;
    },
    ready: async (isReady, withinMs, what) => {
      const deadline = Date.now() + withinMs;
      while (!(await isReady())) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${what} did not start:\n${log}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    stop: async () => {
      await stopGroup(child);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Stops the child's process group (netlify-cli and its workers), SIGKILL after 10 s; resolves once it exited. */
export async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const group = -child.pid;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(group, name);
    } catch {
      // The group has gone already: nothing to stop.
    }
  };
  const exited = new Promise((resolve) => child.once("exit", resolve));
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
