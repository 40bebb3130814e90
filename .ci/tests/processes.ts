// A server the repository's checks start as a user would (npm start, npx
// littlepress serve, eleventy --serve, netlify serve): in a process group of its
// own, because npm and npx run the real server in a child. It is waited for
// until its log says it serves, and stopped within a bound, whatever it does.
import { spawn } from "node:child_process";

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
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
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
  };
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
