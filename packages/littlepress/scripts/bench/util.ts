// Small helpers shared by the benchmark modules: child processes, statistics, progress.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import type TypeScript from "typescript";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (the folder with package.json). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The folder of an installed package, found as Node finds it from `from`: in the
 * nearest node_modules above (npm hoists a workspace's packages to the repository's).
 */
export function installedPackage(name: string, from = ROOT): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const folder = path.join(dir, "node_modules", name);
    if (existsSync(path.join(folder, "package.json"))) return folder;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed above ${from}`);
  }
}

/**
 * The kit's command as a site runs it: compiled to dist/ (as npm pack ships it,
 * with no TypeScript compiled on the way). Compiled here first unless every
 * file of dist/ is newer than its source (npm install's prepare has compiled
 * it, or the tests' global setup, once a run: each part of the run, and each
 * test, then starts the same tree). Checked once a process: the sources do not
 * change while a bench runs. Without type checking (`npm run typecheck` does
 * that): the same JavaScript in a third of the time.
 */
export function compiledBin(): string {
  if (!checked && !compiledFresh()) compile(ROOT);
  checked = true;
  return path.join(ROOT, "dist", "scripts", "littlepress.js");
}
let checked = false;

/** An earlier kit's command (a checked-out tree: tree.ts), compiled there as its prepare compiles it. */
export function compiledKit(kit: string): string {
  compile(kit);
  return path.join(kit, "dist", "scripts", "littlepress.js");
}

function compile(kit: string): void {
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json", "--noCheck"], { cwd: kit, stdio: "inherit" });
  // prepare's last step, as the package ships.
  execFileSync("npx", ["tsx", "scripts/precompile.ts"], { cwd: kit, stdio: "inherit" });
}

/** True when each file tsconfig.build.json compiles has its outputs, newer than it and than the configs. */
function compiledFresh(): boolean {
  // Loaded when asked (a bench part or a test that starts the command): TypeScript takes half a second to load.
  const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;
  const configFile = path.join(ROOT, "tsconfig.build.json");
  const config = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => undefined,
  });
  if (!config || config.errors.length) return false;
  const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : Number.NaN);
  const configs = Math.max(
    ...["tsconfig.json", "tsconfig.build.json", "package.json"].map((f) => mtime(path.join(ROOT, f))),
  );
  return config.fileNames.every((source) => {
    const newest = Math.max(mtime(source), configs);
    return ts.getOutputFileNames(config, source, false).every((output) => mtime(output) > newest);
  });
}

const started = performance.now();
let quiet = false;

/** Silences progress (the smoke test). */
export function setQuiet(value: boolean): void {
  quiet = value;
}

/** Progress goes to stderr, so stdout carries only the table. */
export function progress(message: string): void {
  if (!quiet)
    process.stderr.write(`bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s: ${message}\n`);
}

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value at quantile q (0..1) of already sorted values, by nearest rank. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface ChildResult {
  code: number | null;
  ms: number;
  /** Stopped after `timeoutMs` before it ended by itself. */
  timedOut: boolean;
  /** When stopped: its peak resident memory so far (bytes, from /proc; 0 where there is none). */
  peakRssAtStop: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end, timing its wall clock from spawn to exit. With
 * `timeoutMs` it is sent SIGTERM at that time (SIGKILL 10 s later).
 */
export function runChild(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let timedOut = false;
    let peakRssAtStop = 0;
    const timers: NodeJS.Timeout[] = [];
    if (options.timeoutMs !== undefined) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          // A build busy in a synchronous loop only sees SIGTERM when it yields, or never: read its peak first.
          peakRssAtStop = peakRss(child.pid);
          child.kill("SIGTERM");
          timers.push(setTimeout(() => child.kill("SIGKILL"), 10_000));
        }, options.timeoutMs),
      );
    }
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      timers.forEach(clearTimeout);
      resolve({
        code,
        ms: timedOut ? options.timeoutMs! : performance.now() - t0,
        timedOut,
        peakRssAtStop,
        stdout,
        stderr,
      });
    });
  });
}

/** A running process's peak resident memory in bytes (Linux's VmHWM), or 0. */
function peakRss(pid: number | undefined): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Throws with the child's output when it failed. */
export function mustSucceed(what: string, result: ChildResult): ChildResult {
  if (result.code !== 0) {
    const output = (result.stderr + result.stdout).trim();
    throw new Error(`${what} failed (exit ${result.code}): ${telling(output)}\n${output.slice(-3000)}`);
  }
  return result;
}

/**
 * The line of a child's output that says what went wrong, for the first line of an error (the only one a
 * command shows, scripts/cli.ts): the first that names an error, else the last; the rest follows it.
 */
export function telling(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /^(\w*Error\b|error\b)/i.test(l)) ?? lines.at(-1) ?? "(no output)";
}
