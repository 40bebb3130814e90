// The servers under load: wrk on loopback (scripts/bench/wrk.ts), each server
// in a child process of its own, the sides measured in turn, round after
// round, in a rotating order, so that a busy moment of the shared machine
// falls on every side alike. The sides:
// - /edition/ through the kit's server, the benchmark's request mix: "after",
//   this tree's lib/server/server.ts through tsx as `npm run serve` runs it,
//   and "before", the server of the --before tree as that tree's `npm run
//   serve` started it (scripts/bench/serve-child.ts), on the same built site;
// - the site's static files through the same two servers;
// - the static limit: a plain Node server sending, for the same paths, the
//   same bytes the kit's server (after) sent (scripts/bench/limit-child.ts);
// - a per-request renderer, Express 4 + EJS, answering the same mix
//   (scripts/bench/express-child.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CHOICES, DAILY, SERIAL, type SyntheticSite } from "./generate.ts";
import { checkAnswer, editionRequests, type EditionRequest } from "./requests.ts";
import { median, progress, ROOT, telling } from "./util.ts";
import { wrk, wrkScript, wrkVersion, type WrkRun } from "./wrk.ts";

/** A copy of one edition's HTML, as a static file of the site. */
export const STATIC_PATH = "/static-edition.html";

export interface LoadOptions {
  /** Seconds per measured run (whole seconds: wrk's unit). */
  duration: number;
  /** Seconds of warm-up per side, before the first round (0: none, as in the quick run). */
  warmup: number;
  /** Rounds; each runs every side once. */
  rounds: number;
  connections: number;
}

export interface LoadSide {
  /** Median over the rounds. */
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds (medians over the rounds). */
  p50: number;
  p99: number;
  /** Requests over all measured rounds, and how many of them were answered 4xx (a 410 is one). */
  requests: number;
  non2xx: number;
}

/** `edition` and `static` are the kit's server after, `before…` the --before tree's. */
export const SIDES = [
  "edition",
  "beforeEdition",
  "static",
  "beforeStatic",
  "limitEdition",
  "limitStatic",
  "express",
] as const;
export type SideName = (typeof SIDES)[number];

export interface LoadResult {
  editions: number;
  options: LoadOptions;
  /** wrk's version line. */
  tool: string;
  /** The /edition/ mix: how many distinct requests, and their statuses, each sent once and checked. */
  mix: { requests: number; statuses: Record<string, number> };
  /** The static files sent on the static sides. */
  staticPaths: string[];
  sides: Record<SideName, LoadSide>;
  /** /edition/ against the static limit sending the same bytes (median of the rounds' ratios). */
  ratio: number;
  /** The site's static files against the static limit. */
  staticRatio: number;
  /** /edition/ against the per-request renderer. */
  expressRatio: number;
  /** The same ratios of the --before tree's server, measured in the same rounds. */
  before: { ratio: number; staticRatio: number; expressRatio: number };
}

export async function benchLoad(
  siteDir: string,
  site: SyntheticSite,
  options: LoadOptions,
  work: string,
  beforeTree: string,
): Promise<LoadResult> {
  const tool = wrkVersion();
  const children: ServerChild[] = [];
  try {
    const server = await startChild("serve-child.ts", [siteDir, work]);
    children.push(server);
    // The static side: one edition's HTML exactly as the router sends it, as a file of the site.
    const sample = await fetch(`${server.url}/${SERIAL}/edition/?delivery_count=0`);
    if (sample.status !== 200)
      throw new Error(
        `the server answered ${sample.status} (${sample.headers.get("x-littlepress-reason")}) ` +
          "for the serial's first edition",
      );
    writeFileSync(path.join(siteDir, STATIC_PATH), Buffer.from(await sample.arrayBuffer()));

    const mix = editionRequests(site, 2000, 7);
    const statuses = await check(server.url, mix);
    const staticPaths = [STATIC_PATH, ...[SERIAL, DAILY, CHOICES].map((slug) => `/${slug}/meta.json`)];
    const recorded = await record(server.url, [...new Set([...mix.map((r) => r.path), ...staticPaths])]);
    for (const p of staticPaths) if (recorded[p]!.status !== 200) throw new Error(`${p}: ${recorded[p]!.status}`);
    const before = await startChild("serve-child.ts", [siteDir, work, beforeTree], beforeTree);
    children.push(before);
    const beforeStatuses = await check(before.url, mix, "before");
    if (JSON.stringify(beforeStatuses) !== JSON.stringify(statuses))
      throw new Error(`the servers before and after answer the mix differently: ${JSON.stringify(beforeStatuses)}`);
    for (const p of staticPaths) {
      const res = await fetch(before.url + p);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the server before: ${p}: ${res.status}`);
    }
    const answersFile = path.join(work, "limit-answers.json");
    writeFileSync(answersFile, JSON.stringify(recorded));
    const limit = await startChild("limit-child.ts", [answersFile]);
    children.push(limit);
    const express = await startChild("express-child.ts", [expressFacts(site, work)]);
    children.push(express);
    for (const r of mix.slice(0, 300)) {
      const res = await fetch(express.url + r.path);
      await res.arrayBuffer();
      if (res.status !== r.expect) throw new Error(`the Express renderer: ${r.path}: ${res.status}, not ${r.expect}`);
    }

    const editionScript = wrkScript(
      path.join(work, "edition.lua"),
      mix.map((r) => r.path),
    );
    const staticScript = wrkScript(path.join(work, "static.lua"), staticPaths);
    const targets: Record<SideName, [ServerChild, string]> = {
      edition: [server, editionScript],
      beforeEdition: [before, editionScript],
      static: [server, staticScript],
      beforeStatic: [before, staticScript],
      limitEdition: [limit, editionScript],
      limitStatic: [limit, staticScript],
      express: [express, editionScript],
    };
    const run = (side: SideName, seconds: number) =>
      wrk(targets[side][0].url, targets[side][1], seconds, options.connections);

    progress(`load: ${tool}, ${options.warmup ? `warm-up ${options.warmup} s per side` : "no warm-up"}`);
    if (options.warmup) for (const side of SIDES) await run(side, options.warmup);
    const runs = Object.fromEntries(SIDES.map((s) => [s, [] as WrkRun[]])) as Record<SideName, WrkRun[]>;
    const ratios = { ratio: [] as number[], staticRatio: [] as number[], expressRatio: [] as number[] };
    const beforeRatios = { ratio: [] as number[], staticRatio: [] as number[], expressRatio: [] as number[] };
    for (let i = 0; i < options.rounds; i++) {
      const order = SIDES.map((_, k) => SIDES[(k + i) % SIDES.length]!);
      const round = {} as Record<SideName, WrkRun>;
      for (const side of order) {
        const r = await run(side, options.duration);
        round[side] = r;
        runs[side].push(r);
        progress(
          `load round ${i + 1}/${options.rounds} ${side}: ${r.requestsPerSecond.toFixed(0)} req/s, ` +
            `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
        );
      }
      ratios.ratio.push(round.edition.requestsPerSecond / round.limitEdition.requestsPerSecond);
      ratios.staticRatio.push(round.static.requestsPerSecond / round.limitStatic.requestsPerSecond);
      ratios.expressRatio.push(round.edition.requestsPerSecond / round.express.requestsPerSecond);
      beforeRatios.ratio.push(round.beforeEdition.requestsPerSecond / round.limitEdition.requestsPerSecond);
      beforeRatios.staticRatio.push(round.beforeStatic.requestsPerSecond / round.limitStatic.requestsPerSecond);
      beforeRatios.expressRatio.push(round.beforeEdition.requestsPerSecond / round.express.requestsPerSecond);
    }
    const sides = Object.fromEntries(SIDES.map((s) => [s, summary(runs[s])])) as Record<SideName, LoadSide>;
    // Under load the kit's servers must answer the mix as they did once each: their only 4xx are the 410s.
    for (const side of ["edition", "beforeEdition"] as const)
      for (const r of runs[side]) {
        const expected = gonePrefix(mix, r.requests);
        if (Math.abs(r.non2xx - expected) > options.connections)
          throw new Error(
            `under load the server (${side}) answered ${r.non2xx} of ${r.requests} /edition/ requests 4xx or 5xx; ` +
              `the mix's first ${r.requests} requests are answered 410 ${expected} times`,
          );
      }
    return {
      editions: site.editions,
      options,
      tool,
      mix: { requests: mix.length, statuses },
      staticPaths,
      sides,
      ratio: median(ratios.ratio),
      staticRatio: median(ratios.staticRatio),
      expressRatio: median(ratios.expressRatio),
      before: {
        ratio: median(beforeRatios.ratio),
        staticRatio: median(beforeRatios.staticRatio),
        expressRatio: median(beforeRatios.expressRatio),
      },
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}

/**
 * How many of wrk's first `n` requests the mix answers 410. wrk sends the mix in order from its start, so a run
 * that completes few requests (a slow machine's) meets the 410s of a short prefix, whose share is not the whole
 * mix's: 6% of the first 100, 10% of all 2,000. The requests still in flight when it stops, at most one a
 * connection, are the only ones of the prefix that it may not count, or count beyond it.
 */
function gonePrefix(mix: readonly EditionRequest[], n: number): number {
  const gone = (upTo: number) => mix.slice(0, upTo).filter((r) => r.expect === 410).length;
  return Math.floor(n / mix.length) * gone(mix.length) + gone(n % mix.length);
}

function summary(rs: WrkRun[]): LoadSide {
  return {
    requestsPerSecond: median(rs.map((r) => r.requestsPerSecond)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
  };
}

/** Every request of the mix once, before the load: the statuses and the filled names must be right. */
async function check(origin: string, mix: EditionRequest[], which = "after"): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  for (const r of mix) {
    const res = await fetch(origin + r.path);
    const problem = checkAnswer(r, res.status, await res.text());
    if (problem) throw new Error(`the edition mix is not answered as expected by the server ${which}: ${problem}`);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  return statuses;
}

/** Hop-by-hop and per-answer headers, which the limit server makes for itself. */
const OWN_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** What the kit's server answers for each path: the limit server sends the same. */
async function record(origin: string, paths: string[]) {
  const out: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  for (const p of paths) {
    const res = await fetch(origin + p);
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !OWN_HEADERS.has(k)));
    out[p] = { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString("base64") };
  }
  return out;
}

/** What the Express renderer needs to answer the mix, written for it to read. */
function expressFacts(site: SyntheticSite, work: string): string {
  const file = path.join(work, "express-facts.json");
  const css = readFileSync(path.join(ROOT, "layouts", "print.css"), "utf8");
  const facts = {
    content: site.dir,
    serial: { slug: SERIAL, count: site.serial.count },
    daily: { slug: DAILY, dates: site.daily.dates },
    choices: { slug: CHOICES, count: site.choices.count },
    css,
  };
  writeFileSync(file, JSON.stringify(facts));
  return file;
}

interface ServerChild {
  url: string;
  stop(): Promise<void>;
}

/** A server of scripts/bench/ in its own process, run in `cwd`; resolves with the URL it prints. */
export function startChild(script: string, args: string[], cwd = ROOT): Promise<ServerChild> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_SERVER_FLAGS?.split(" ").filter(Boolean) ?? []),
        "--import",
        "tsx",
        path.join(ROOT, "scripts", "bench", script),
        ...args,
      ],
      { cwd, stdio: ["ignore", "pipe", "pipe"] },
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
      reject(new Error(`${script} exited (${code}) before listening: ${telling(err)}\n${err.slice(-2000)}`)),
    );
  });
}
