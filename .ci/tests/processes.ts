// A server the repository's checks start as a user would (npm start, npx
// littlepress serve, eleventy --serve, netlify serve): in a process group of its
// own, because npm and npx run the real server in a child. It is waited for
// until its log says it serves, and stopped within a bound, whatever it does.
import { spawn, type ChildProcess } from "node:child_process";

export interface Started {
  /** What the log's `ready` pattern captured (its first group, or the whole match). */
  found: string;
  log: () => string;
  /** Stops the whole group: `signal`, then SIGKILL if it is still there after 10 s. */
  stop: () => Promise<void>;
  seconds: number;
}

export interface StartOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The log line that says it serves. */
  ready: RegExp;
  /** How long it may take to get there. */
  within?: number;
  signal?: NodeJS.Signals;
}

export async function started(command: string, args: string[], options: StartOptions): Promise<Started> {
  const { ready, within = 60_000, signal = "SIGINT" } = options;
  const begun = Date.now();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = () => stopGroup(child, exited, signal);
  const name = `${command} ${args.join(" ")}`;
  try {
    const found = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not serve in ${within} ms:\n${log}`)), within);
      void exited.then(() => reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${log}`)));
      const look = () => {
        const match = ready.exec(log);
        if (!match) return;
        clearTimeout(timer);
        resolve(match[1] ?? match[0]);
      };
      child.stdout.on("data", look);
      child.stderr.on("data", look);
    });
    return { found, log: () => log, stop, seconds: (Date.now() - begun) / 1000 };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Waits until `done()`, checking every 200 ms; fails after `within` ms with what `log()` says. */
export async function waitFor(what: string, done: () => boolean, log: () => string, within = 120_000) {
  const deadline = Date.now() + within;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${within} ms:\n${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Stops a child started in a group of its own, and all it started: `signal`, then SIGKILL after 10 s. Also
 * when the child itself has exited: what it started may still run (and hold its output open).
 */
async function stopGroup(child: ChildProcess, exited: Promise<void>, signal: NodeJS.Signals) {
  const group = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // The group is gone already: nothing to stop.
    }
  };
  group(signal);
  const timer = setTimeout(() => group("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface FinishOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long it may run; past it, the command and every process it started are stopped. */
  within: number;
}

/**
 * Runs a command to its end in a group of its own and resolves to its output, or rejects with it. On a
 * timeout the whole group is stopped: npx and npm run the real work in a child, which a plain
 * execFile timeout would leave running.
 */
export async function finished(command: string, args: string[], options: FinishOptions): Promise<string> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: "pipe" });
  child.stdin.end();
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(child, exited, "SIGTERM");
  }, options.within);
  const failed = await new Promise<Error | undefined>((resolve) => {
    child.once("error", (error) => resolve(error));
    void exited.then(() => resolve(undefined));
  });
  clearTimeout(timer);
  const name = `${command} ${args.join(" ")}`;
  if (failed) throw new Error(`${name} could not start in ${options.cwd}: ${failed.message}`);
  if (timedOut) throw new Error(`${name} did not finish in ${options.within} ms in ${options.cwd}:\n${output}`);
  if (child.exitCode !== 0) {
    throw new Error(`${name} failed (${child.exitCode ?? child.signalCode}) in ${options.cwd}:\n${output}`);
  }
  return output;
}
