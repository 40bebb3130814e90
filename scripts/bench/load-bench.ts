// The router under load: autocannon on loopback against the kit's local
// server (in a child process), sending the /edition/ mix, against the same
// server sending one edition's prebuilt HTML as a plain static file. The two
// sides alternate, each run bounded in time.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { checkAnswer, editionRequests, type EditionRequest } from "./requests.ts";
import { SERIAL, type SyntheticSite } from "./generate.ts";
import { median, progress, quantile, ROOT } from "./util.ts";

export const STATIC_PATH = "/static-edition.html";

export interface LoadOptions {
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up per side, before the first round. */
  warmup: number;
  /** Rounds; each runs both sides, in alternating order. */
  rounds: number;
  connections: number;
}

export interface LoadSide {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds (medians over the rounds). */
  p50: number;
  p99: number;
  /** Answers by status over all measured rounds. */
  statuses: Record<string, number>;
}

export interface LoadResult {
  editions: number;
  options: LoadOptions;
  edition: LoadSide;
  static: LoadSide;
  /** Median over the rounds of edition/static requests per second. */
  ratio: number;
}

interface CannonRun {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (
  options: object,
  done: (error: Error | null, result: { duration: number; errors: number; timeouts: number }) => void,
) => AutocannonInstance;

/** autocannon is a devDependency without types; loaded by name so the type check does not need it. */
async function loadAutocannon(): Promise<Autocannon> {
  const name = "autocannon";
  try {
    return ((await import(name)) as { default: Autocannon }).default;
  } catch {
    throw new Error("autocannon is not installed: run `npm install` (or `npm install --no-save autocannon@8`)");
  }
}

export async function benchLoad(siteDir: string, site: SyntheticSite, options: LoadOptions): Promise<LoadResult> {
  const autocannon = await loadAutocannon();
  const server = await startServerChild(siteDir);
  try {
    // The static side: one edition's HTML exactly as the router sends it, as a file of the site.
    const sample = await fetch(`${server.url}/${SERIAL}/edition/?delivery_count=0`);
    if (sample.status !== 200)
      throw new Error(
        `the server answered ${sample.status} (${sample.headers.get("x-littlepress-reason")}) ` +
          "for the serial's first edition",
      );
    writeFileSync(path.join(siteDir, STATIC_PATH), Buffer.from(await sample.arrayBuffer()));

    const mix = editionRequests(site, 2000, 7);
    await verify(server.url, mix);
    const sides = {
      edition: mix.map((r) => ({ method: "GET", path: r.path })),
      static: [{ method: "GET", path: STATIC_PATH }],
    };
    const run = (side: keyof typeof sides, seconds: number) =>
      cannon(autocannon, server.url, sides[side], seconds, options.connections);

    progress(`load: warm-up, ${options.warmup} s per side`);
    await run("edition", options.warmup);
    await run("static", options.warmup);
    const runs: Record<keyof typeof sides, CannonRun[]> = { edition: [], static: [] };
    const ratios: number[] = [];
    for (let i = 0; i < options.rounds; i++) {
      const order = i % 2 === 0 ? (["edition", "static"] as const) : (["static", "edition"] as const);
      for (const side of order) {
        const r = await run(side, options.duration);
        runs[side].push(r);
        progress(
          `load round ${i + 1}/${options.rounds} ${side}: ${r.requestsPerSecond.toFixed(0)} req/s, ` +
            `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
        );
      }
      ratios.push(runs.edition[i]!.requestsPerSecond / runs.static[i]!.requestsPerSecond);
    }
    const summary = (rs: CannonRun[]): LoadSide => {
      const statuses: Record<string, number> = {};
      for (const r of rs) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
      return {
        requestsPerSecond: median(rs.map((r) => r.requestsPerSecond)),
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        statuses,
      };
    };
    const edition = summary(runs.edition);
    for (const status of Object.keys(edition.statuses)) {
      if (!["200", "204", "410"].includes(status)) throw new Error(`the router answered ${status} under load`);
    }
    return { editions: site.editions, options, edition, static: summary(runs.static), ratio: median(ratios) };
  } finally {
    await server.stop();
  }
}

/** A share of the mix once each, before the load: the statuses and the filled names must be right. */
async function verify(origin: string, mix: EditionRequest[]) {
  const sample = mix.slice(0, 300);
  const kinds = new Set(mix.map((r) => r.kind));
  if (new Set(sample.map((r) => r.kind)).size !== kinds.size)
    throw new Error("the checked sample misses a kind of request");
  for (const r of sample) {
    const res = await fetch(origin + r.path);
    const problem = checkAnswer(r, res.status, await res.text());
    if (problem) throw new Error(`the edition mix is not answered as expected: ${problem}`);
  }
}

async function cannon(
  autocannon: Autocannon,
  url: string,
  requests: object[],
  seconds: number,
  connections: number,
): Promise<CannonRun> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await new Promise<{ duration: number; errors: number; timeouts: number }>((resolve, reject) => {
    const instance = autocannon({ url, connections, pipelining: 1, duration: seconds, requests }, (error, r) =>
      error ? reject(error) : resolve(r),
    );
    // autocannon's own histogram keeps whole milliseconds; loopback answers take less, so keep the exact times.
    instance.on("response", (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  if (result.errors || result.timeouts)
    throw new Error(`load run against ${url}: ${result.errors} errors, ${result.timeouts} timeouts`);
  const sorted = Float64Array.from(latencies).sort();
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    statuses,
  };
}

interface ServerChild {
  url: string;
  stop(): Promise<void>;
}

/** The local server (lib/serve/server.ts) in its own process, serving `siteDir`. */
export function startServerChild(siteDir: string): Promise<ServerChild> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_SERVER_FLAGS?.split(" ").filter(Boolean) ?? []),
        "--import",
        "tsx",
        "scripts/bench/serve-child.ts",
        siteDir,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill();
      });
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const m = /BENCH_URL (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, stop });
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the server child exited (${code}) before listening:\n${err.slice(-2000)}`)),
    );
  });
}
