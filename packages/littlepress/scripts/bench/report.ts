// The benchmark's report: the figures as Markdown tables (printed, and
// written to BENCHMARKS.md), each target passed or failed, with the reading of
// the figures that explains it. A part left out of the run (--only) is left
// out of the tables and the targets.
import os from "node:os";
import type { BuildRow, BuildSide } from "./build-bench.ts";
import type { BundleComparison, BundleRow } from "./bundle-bench.ts";
import type { DataBuildRow } from "./data-bench.ts";
import type { ColdStartRow } from "./cold-start.ts";
import type { FunctionColdResult, FunctionColdSide } from "./function-cold.ts";
import type { LiveRow, SaveTimes } from "./live-bench.ts";
import type { HandlerResult } from "./handler-bench.ts";
import type { LoadResult, LoadSide } from "./load-bench.ts";
import { DEFAULT_BEFORE, type Tree } from "./tree.ts";

export interface Machine {
  cpuModel: string;
  cpus: number;
  memoryBytes: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started and when it ended: how busy the shared machine was. */
  loadAverage: { start: number; end: number };
}

export interface Target {
  name: string;
  goal: string;
  figure: string;
  met: boolean;
  /** Why, from the figures (most useful when missed). */
  reading: string;
}

export interface BenchReport {
  quick: boolean;
  date: string;
  command: string;
  machine: Machine;
  /** The kit measured as "before" (--before), when a part of the run compares with it. */
  before?: Tree;
  /** How the synthetic editions are split between the publications. */
  contentMix: string;
  requestMix: string;
  seconds: number;
  build: BuildRow[];
  /** Editions from data (issue 14): CSV rows and a daily recurring rule, against plain Eleventy's pagination. */
  dataBuild: DataBuildRow[];
  load?: LoadResult;
  /** The Netlify edition function alone, in-process, before and after. */
  handler?: HandlerResult;
  /** The edition function's cold start and memory against the site's size. */
  coldStart: ColdStartRow[];
  /** Every function's cold start, before and after. */
  functionCold?: FunctionColdResult;
  /** Save to served under `npm start`. */
  live?: LiveRow;
  bundle: BundleRow[];
  /** Every function's zip, before and after, with the same site. */
  bundleComparison?: BundleComparison;
  /** What this run did not measure, and why. */
  caveats: string[];
  targets: Target[];
}

export function machine(loadAtStart: number): Machine {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpus: cpus.length,
    memoryBytes: os.totalmem(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: { start: loadAtStart, end: os.loadavg()[0] ?? 0 },
  };
}

/** Issue 38's: littlepress at least 0.9x plain Eleventy's editions per second. */
export const BUILD_TARGET = 0.9;
export const DATA_BUILD_TARGET = 0.9;
/** Issue 26's targets for the self-hosted /edition/ mix (the server as one Hono app). */
export const LOAD_TARGET = 0.2;
export const P99_TARGET_MS = 5;
export const RENDERER_TARGET = 3;
/** Issue 38's for the site's files under `npm run serve`: a static host's speed, with its validators kept. */
export const STATIC_TARGET = 0.5;
export const GROWTH_TARGET = 1.5;
/** Issue 38's, from a save to its page served under `npm start`. */
export const LIVE_TARGET_MS = { median: 200, p95: 400 };

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 10 * 2 ** 20 ? 1 : 0)} MiB`;
const n = (x: number) => x.toLocaleString("en-US");
const x2 = (x: number) => `${x.toFixed(2)}x`;
const rps = (side: LoadSide) => side.requestsPerSecond.toFixed(0);
const kib = (bytes: number) => `${n(Math.round(bytes / 1024))} KiB`;
const ms = (side: FunctionColdSide | undefined) => (side ? side.coldStartMs.toFixed(0) : "-");

/** Where the --before kit came from, for the method notes. */
function beforeSource(before: Tree | undefined): string {
  if (before?.folder)
    return `the kit in the folder \`${before.ref}\` (littlepress ${before.commit}), copied by the run`;
  const at = `the kit at \`${before?.ref ?? DEFAULT_BEFORE}\``;
  const commit = before ? ` (${before.commit}, "${before.subject}")` : "";
  return `${at}${commit}, checked out by the run with \`git worktree add --detach\``;
}

/** "before (cfbdd5e)": how the tables name the --before side. */
const beforeName = (r: { before?: Tree }) => `before (${r.before?.ref ?? "?"})`;
/** A build's rate, "< n" when it was stopped before the end. */
const rateText = (side: BuildSide) => `${side.finished ? "" : "< "}${side.editionsPerSecond.toFixed(0)}`;
const ratioText = (b: BuildRow) => `${b.plain.finished ? "" : "> "}${b.ratio.toFixed(2)}`;

export function targets(r: Omit<BenchReport, "targets">): Target[] {
  const out: Target[] = [];
  for (const b of r.build) {
    const perPage = b.ratio * (b.pages / b.editions);
    const bound = b.plain.finished ? "" : "at least ";
    out.push({
      name: `Build, ${n(b.editions)} editions`,
      goal: `littlepress/plain editions per second >= ${BUILD_TARGET}`,
      figure: `${ratioText(b)} (${b.littlepress.editionsPerSecond.toFixed(0)} vs ${rateText(b.plain)} editions/s)`,
      met: b.ratio >= BUILD_TARGET,
      reading:
        `The littlepress build renders ${n(b.pages)} pages for ${n(b.editions)} editions ` +
        `(the select publication's editions once per option), plain Eleventy ${n(b.editions)}; ` +
        `per page rendered the ratio is ${bound}${perPage.toFixed(2)}.` +
        (b.plain.finished
          ? ""
          : ` Plain Eleventy was stopped after ${b.plain.seconds.toFixed(0)} s, unfinished; ` +
            `littlepress took ${b.littlepress.seconds.toFixed(0)} s.`),
    });
  }
  for (const b of r.dataBuild) {
    out.push({
      name: `Build from data, ${b.name}`,
      goal: `littlepress/plain Eleventy pagination, editions per second >= ${DATA_BUILD_TARGET}`,
      figure:
        `${b.ratio.toFixed(2)} (${b.littlepress.editionsPerSecond.toFixed(0)} vs ` +
        `${b.plain.editionsPerSecond.toFixed(0)} editions/s)`,
      met: b.ratio >= DATA_BUILD_TARGET,
      reading:
        `${n(b.editions)} editions from one template; peak RSS ${mib(b.littlepress.maxRss)} ` +
        `against plain Eleventy's ${mib(b.plain.maxRss)}.`,
    });
  }
  if (r.load) out.push(...loadTargets(r.load, beforeName(r)));
  if (r.coldStart.length > 1) out.push(...growthTargets(r.coldStart));
  const live = r.live;
  if (live)
    for (const kind of ["write", "rename"] as const) {
      const t = live[kind];
      const how = kind === "write" ? "a plain write" : "an editor's save (renamed over)";
      const { median, p95 } = LIVE_TARGET_MS;
      out.push({
        name: `Save to served, ${how}, ${n(live.editions)} editions`,
        goal: `median < ${median} ms and p95 < ${p95} ms from the save to the new ETag under npm start`,
        figure:
          `median ${t.medianMs.toFixed(0)} ms, p95 ${t.p95Ms.toFixed(0)} ms ` +
          `(max ${t.maxMs.toFixed(0)} ms over ${live.saves} saves; the rebuild alone ${t.rebuildMs.toFixed(0)} ms, ` +
          `the server's CPU ${t.cpuMs.toFixed(0)} ms)`,
        met: t.medianMs < median && t.p95Ms < p95,
        reading:
          "On a copy of the starter, whose own functions/*.mts plain Node loads through tsx: " +
          "each function forgets the build before at its first request after a build (LocalSite.build). " +
          "Node's watch of each folder tells of the save at once (@parcel/watcher, beside it, gathers 50 ms); " +
          "the rebuild renders that edition again and " +
          "takes the other pages, their hashes, estimates and compressed bytes from the last build " +
          `(lib/build/render-memory.ts); a publication.json save renders all ${n(live.editions)} editions again, ` +
          `and was served in ${live.publicationMs.toFixed(0)} ms.`,
      });
    }
  for (const b of r.bundle) {
    const largest = b.functions.reduce((a, f) => (f.zipBytes > a.zipBytes ? f : a));
    out.push({
      name: `Function bundle, ${n(b.editions)} editions`,
      goal: "every function's zip under Netlify's 50 MiB",
      figure: `${largest.name} ${mib(largest.zipBytes)} (${(b.largestShare * 100).toFixed(1)}% of the limit)`,
      met: b.largestShare < 1,
      reading:
        `${n(largest.files)} site files bundled with ${largest.name}` +
        (b.published.files
          ? `; ${n(b.published.files)} shards (${mib(b.published.bytes)}) past the bundle's 40 MiB budget ` +
            "published as static files, which the function fetches from the site."
          : "; every shard in the bundle."),
    });
  }
  if (r.bundleComparison) out.push(bundleTarget(r.bundleComparison, beforeName(r)));
  return out;
}

/** Issue 26's targets for the server, after; before's figures beside them. */
function loadTargets(l: LoadResult, before: string): Target[] {
  const { edition, beforeEdition, static: files, beforeStatic, limitEdition, limitStatic, express } = l.sides;
  const how =
    `${l.tool}, ${l.options.connections} connections, ${l.options.rounds} rounds of ${l.options.duration} s ` +
    `per side in a rotating order, on a ${n(l.editions)}-edition site`;
  return [
    {
      name: "/edition/ against the static limit",
      goal: `/edition/ mix through the kit's server >= ${LOAD_TARGET}x a plain Node server sending the same bytes`,
      figure:
        `after ${x2(l.ratio)} (${rps(edition)} vs ${rps(limitEdition)} req/s); ` +
        `${before} ${x2(l.before.ratio)} (${rps(beforeEdition)} req/s)`,
      met: l.ratio >= LOAD_TARGET,
      reading:
        `${how}. The limit answers each path from a Map of the kit's own answers (after's); ` +
        "the kit's server parses the URL, routes it, opens the publication and decides. " +
        `Static files: after ${x2(l.staticRatio)} of the limit (${rps(files)} vs ${rps(limitStatic)} req/s), ` +
        `${before} ${x2(l.before.staticRatio)} (${rps(beforeStatic)} req/s).`,
    },
    {
      name: "Static files against the static limit",
      goal: `the site's files through the kit's server >= ${STATIC_TARGET}x the limit, p99 < ${P99_TARGET_MS} ms`,
      figure:
        `after ${x2(l.staticRatio)} (${rps(files)} vs ${rps(limitStatic)} req/s), p99 ${files.p99.toFixed(2)} ms; ` +
        `${before} ${x2(l.before.staticRatio)} (${rps(beforeStatic)} req/s), p99 ${beforeStatic.p99.toFixed(2)} ms`,
      met: l.staticRatio >= STATIC_TARGET && files.p99 < P99_TARGET_MS,
      reading:
        "The kit's server checks each file on the disk (a stat), sends ETag, Last-Modified and Accept-Ranges, " +
        "and answers 304 and ranges; the limit sends the same bytes and headers from a Map.",
    },
    {
      name: "/edition/ against a per-request renderer",
      goal: `/edition/ mix >= ${RENDERER_TARGET}x an Express 4 + EJS server rendering each request`,
      figure:
        `after ${x2(l.expressRatio)} (${rps(edition)} vs ${rps(express)} req/s); ` +
        `${before} ${x2(l.before.expressRatio)}`,
      met: l.expressRatio >= RENDERER_TARGET,
      reading:
        "The renderer answers the same mix with the same statuses, " +
        "rendering the edition's Markdown (markdown-it) and its EJS view per request.",
    },
    {
      name: "/edition/ p99 latency",
      goal: `p99 < ${P99_TARGET_MS} ms at ${l.options.connections} connections on loopback`,
      figure:
        `after ${edition.p99.toFixed(2)} ms (p50 ${edition.p50.toFixed(2)} ms); ` +
        `${before} ${beforeEdition.p99.toFixed(2)} ms; the limit's ${limitEdition.p99.toFixed(2)} ms`,
      met: edition.p99 < P99_TARGET_MS,
      reading:
        `With ${l.options.connections} connections a request waits for the ones queued before it; ` +
        "the limit's p99 on the same machine in the same minutes is the floor.",
    },
  ];
}

/** No function's zip larger than before's, with the same site. */
function bundleTarget(c: BundleComparison, before: string): Target {
  const was = new Map(c.before.map((f) => [f.name, f.zipBytes]));
  const grown = c.after.filter((f) => was.has(f.name) && f.zipBytes > was.get(f.name)!);
  const compared = c.after.filter((f) => was.has(f.name));
  const fresh = c.after.filter((f) => !was.has(f.name)).map((f) => f.name);
  const change = (f: { name: string; zipBytes: number }) => {
    const d = f.zipBytes - was.get(f.name)!;
    return `${f.name} ${d > 0 ? "+" : d < 0 ? "-" : "±"}${n(Math.abs(d))} bytes`;
  };
  return {
    name: `Function bundles against ${before}, ${n(c.editions)} editions`,
    goal: `every function's zip at most ${before}'s, with the same site`,
    figure: grown.length
      ? `larger: ${grown.map(change).join(", ")}`
      : `${compared.length} of ${compared.length} at most ${before}'s (${compared.map(change).join(", ")})`,
    met: grown.length === 0,
    reading:
      "Each tree's own scripts/bundle-size.ts (zip-it-and-ship-it, as a deploy does) on the same built site." +
      (fresh.length ? ` New since ${before}, not compared: ${fresh.join(", ")}.` : ""),
  };
}

function growthTargets(coldStart: ColdStartRow[]): Target[] {
  const out: Target[] = [];
  const small = coldStart[0]!;
  const large = coldStart.at(-1)!;
  const span = `${n(small.editions)} to ${n(large.editions)} editions`;
  const coldGrowth = large.coldStartMs / small.coldStartMs;
  out.push({
    name: "Cold start against size",
    goal: `grows <= ${GROWTH_TARGET}x from ${span}`,
    figure: `${x2(coldGrowth)} (${small.coldStartMs.toFixed(0)} ms to ${large.coldStartMs.toFixed(0)} ms)`,
    met: coldGrowth <= GROWTH_TARGET,
    reading:
      `Importing the function takes ${small.importMs.toFixed(0)} then ${large.importMs.toFixed(0)} ms, ` +
      `the first answer ${small.firstAnswerMs.toFixed(1)} then ${large.firstAnswerMs.toFixed(1)} ms.`,
  });
  const memGrowth = large.rss / small.rss;
  out.push({
    name: "Memory against size",
    goal: `RSS after ${n(small.requests)} mixed requests grows <= ${GROWTH_TARGET}x from ${span}`,
    figure: `${x2(memGrowth)} (${mib(small.rss)} to ${mib(large.rss)})`,
    met: memGrowth <= GROWTH_TARGET,
    reading:
      "Most of the RSS is Node, tsx and the function's code; " +
      "what grows with the site is what a request makes the function read and keep.",
  });
  return out;
}

/** The tables, in Markdown. */
export function tables(r: BenchReport): string {
  const lines: string[] = [];
  const table = (head: string[], rows: string[][], numeric = true) => {
    lines.push(`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i === 0 || !numeric ? "---" : "---:")).join("|")}|`);
    for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
    lines.push("");
  };
  const before = beforeName(r);
  if (r.build.length) {
    lines.push(`### Build: littlepress against plain Eleventy (wall clock, child processes, alternated; median)`, "");
    table(
      [
        "editions",
        "pairs",
        "littlepress pages",
        "littlepress editions/s",
        "plain editions/s",
        "ratio littlepress/plain",
        "max RSS littlepress",
        "max RSS plain",
      ],
      r.build.map((b) => [
        n(b.editions),
        String(b.pairs),
        n(b.pages),
        rateText(b.littlepress),
        rateText(b.plain),
        ratioText(b),
        mib(b.littlepress.maxRss),
        b.plain.finished
          ? mib(b.plain.maxRss)
          : b.plain.maxRss
            ? `${mib(b.plain.maxRss)} when stopped`
            : "not read (stopped)",
      ]),
    );
  }
  if (r.dataBuild.length) {
    lines.push(
      "### Build from data: one template over CSV rows, and over a daily rule, " +
        "against plain Eleventy paginating the same rows (alternated; median)",
      "",
    );
    table(
      [
        "publication",
        "editions",
        "pairs",
        "littlepress editions/s",
        "plain editions/s",
        "ratio",
        "max RSS littlepress",
        "max RSS plain",
      ],
      r.dataBuild.map((b) => [
        b.name,
        n(b.editions),
        String(b.pairs),
        b.littlepress.editionsPerSecond.toFixed(0),
        b.plain.editionsPerSecond.toFixed(0),
        b.ratio.toFixed(2),
        mib(b.littlepress.maxRss),
        mib(b.plain.maxRss),
      ]),
    );
  }
  const l = r.load;
  if (l) {
    lines.push(
      `### Servers under load, ${before} and after ` +
        `(${n(l.editions)} editions; ${l.tool}, ${l.options.connections} connections, ` +
        `warm-up ${l.options.warmup} s, ${l.options.rounds} rounds of ${l.options.duration} s per side ` +
        "in a rotating order; median)",
      "",
    );
    const mixStatuses = Object.entries(l.mix.statuses)
      .map(([k, v]) => `${k}: ${n(v)}`)
      .join(", ");
    const row = (what: string, side: LoadSide, against: string): string[] => [
      what,
      rps(side),
      side.p50.toFixed(2),
      side.p99.toFixed(2),
      `${n(side.requests)} (4xx: ${n(side.non2xx)})`,
      against,
    ];
    const vs = (limit: number, express?: number) =>
      `${x2(limit)} of the limit` + (express === undefined ? "" : `, ${x2(express)} Express`);
    table(
      ["side", "requests/s", "p50 ms", "p99 ms", "requests (4xx)", "ratio"],
      [
        row("/edition/ mix, kit's server after", l.sides.edition, vs(l.ratio, l.expressRatio)),
        row(`/edition/ mix, kit's server ${before}`, l.sides.beforeEdition, vs(l.before.ratio, l.before.expressRatio)),
        row("the same, plain Node server (the static limit)", l.sides.limitEdition, ""),
        row("the same, Express 4 + EJS rendering per request", l.sides.express, ""),
        row("static files, kit's server after", l.sides.static, vs(l.staticRatio)),
        row(`static files, kit's server ${before}`, l.sides.beforeStatic, vs(l.before.staticRatio)),
        row("the same files, plain Node server (the static limit)", l.sides.limitStatic, ""),
      ],
    );
    lines.push(
      `The mix: ${n(l.mix.requests)} requests, each sent once to both servers and checked before the load ` +
        `(${mixStatuses}); under load the 4xx are its 410s.`,
      "",
    );
  }
  const h = r.handler;
  if (h) {
    lines.push(
      "### The Netlify edition function alone, before and after " +
        "(in one child process through tsx, the same mix; " +
        `${h.rounds} alternated runs of ${h.seconds} s per side; median)`,
      "",
    );
    const perSecond = (x: number) => [x.toFixed(0), (1e6 / x).toFixed(1)];
    table(
      ["default export: Request in, Response out (what Netlify runs)", "decisions/s", "us per decision"],
      [
        ["functions/edition.mts after", ...perSecond(h.handlerPerSecond)],
        ...(h.beforePerSecond ? [[`functions/edition.mts ${before}`, ...perSecond(h.beforePerSecond)]] : []),
      ],
    );
  }
  if (r.coldStart.length) {
    lines.push(
      `### Edition function: cold start and memory (fresh process each run; median of ${r.coldStart[0]!.runs})`,
      "",
    );
    table(
      [
        "editions",
        "import ms",
        "first answer ms",
        "import to first answer ms",
        `RSS after ${n(r.coldStart[0]!.requests)} requests`,
      ],
      r.coldStart.map((c) => [
        n(c.editions),
        c.importMs.toFixed(0),
        c.firstAnswerMs.toFixed(1),
        c.coldStartMs.toFixed(0),
        mib(c.rss),
      ]),
    );
  }
  const fc = r.functionCold;
  const bc = r.bundleComparison;
  if (fc || bc) {
    const editions = fc?.editions ?? bc!.editions;
    lines.push(
      `### Every function, ${before} and after (${n(editions)}-edition site): ` +
        "the zip a deploy makes, and the cold start" +
        (fc ? ` (a fresh process each run; median of ${fc.runs})` : ""),
      "",
    );
    const names = [
      ...new Set([
        ...(bc ? [...bc.before, ...bc.after].map((f) => f.name) : []),
        ...(fc ? fc.functions.map((f) => f.name) : []),
      ]),
    ].sort();
    const zip = (list: { name: string; zipBytes: number }[] | undefined, name: string) => {
      const f = list?.find((g) => g.name === name);
      return f ? kib(f.zipBytes) : "-";
    };
    table(
      ["function", "bundle before", "bundle after", "cold start before ms", "cold start after ms", "cold start is"],
      names.map((name) => {
        const cold = fc?.functions.find((f) => f.name === name);
        return [
          name,
          zip(bc?.before, name),
          zip(bc?.after, name),
          ms(cold?.before),
          ms(cold?.after),
          cold
            ? `import, ${cold.call === "import only" ? "no request (scheduled, or a signed batch)" : cold.call}`
            : "-",
        ];
      }),
    );
  }
  if (r.live) {
    lines.push(
      `### npm start: save to served ` +
        `(one edition of a ${n(r.live.editions)}-edition publication saved ${r.live.saves} times each way)`,
      "",
    );
    const times = (t: SaveTimes) => [t.medianMs, t.p95Ms, t.maxMs, t.rebuildMs, t.cpuMs].map((ms) => ms.toFixed(0));
    table(
      ["what is saved", "median ms", "p95 ms", "max ms", "the rebuild alone, median ms", "server CPU, median ms"],
      [
        ["an edition, written (until its new ETag is served)", ...times(r.live.write)],
        ["an edition, a new file renamed over it (as sed -i and editors save)", ...times(r.live.rename)],
        ["publication.json (until its new meta.json is served)", r.live.publicationMs.toFixed(0), "", "", "", ""],
        ...(r.live.before
          ? [
              [`the same written, ${beforeName(r)}`, ...times(r.live.before.write)],
              [`the same renamed over, ${beforeName(r)}`, ...times(r.live.before.rename)],
            ]
          : []),
      ],
    );
  }
  if (r.bundle.length) {
    lines.push(`### Function bundles (zip-it-and-ship-it; Netlify's limit 50 MiB)`, "");
    const names = [...new Set(r.bundle.flatMap((b) => b.functions.map((f) => f.name)))];
    table(
      ["editions", ...names.map((x) => `${x} zip`), "largest vs limit", "shards published as static files"],
      r.bundle.map((b) => [
        n(b.editions),
        ...names.map((x) => {
          const f = b.functions.find((g) => g.name === x);
          return f ? `${mib(f.zipBytes)} (${n(f.files)} files)` : "-";
        }),
        `${(b.largestShare * 100).toFixed(1)}%`,
        b.published.files ? `${n(b.published.files)} (${mib(b.published.bytes)})` : "none",
      ]),
    );
  }
  lines.push(`### Targets`, "");
  table(
    ["target", "goal", "figure", "result"],
    r.targets.map((t) => [t.name, t.goal, t.figure, t.met ? "PASS" : "**FAIL**"]),
    false,
  );
  for (const c of r.caveats) lines.push(c, "");
  return lines.join("\n");
}

const NOTES_START = "<!-- notes:start -->";
const NOTES_END = "<!-- notes:end -->";

/** BENCHMARKS.md: machine, command, date, figures, targets; the hand-written notes of the previous file are kept. */
export function benchmarksMarkdown(r: BenchReport, previous?: string): string {
  const m = r.machine;
  const kept =
    previous && previous.includes(NOTES_START) && previous.includes(NOTES_END)
      ? previous.slice(previous.indexOf(NOTES_START), previous.indexOf(NOTES_END) + NOTES_END.length)
      : `${NOTES_START}\n${NOTES_END}`;
  const missed = r.targets.filter((t) => !t.met);
  return [
    "# Benchmarks",
    "",
    `Measured by \`${r.command}\` on ${r.date} (took ${Math.round(r.seconds)} s). ` +
      "Generated by scripts/bench.ts; do not edit by hand,",
    "except between the notes markers at the end, which a new run keeps.",
    "",
    "## Machine",
    "",
    `- CPU: ${m.cpuModel}, ${m.cpus} cores (os.cpus())`,
    `- memory: ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${m.node}, ${m.platform}`,
    `- load average (1 min) at the start ${m.loadAverage.start.toFixed(1)}, ` +
      `at the end ${m.loadAverage.end.toFixed(1)}: the machine is shared, ` +
      "so every comparison is a ratio of two sides measured side by side in the same run",
    "",
    "## How",
    "",
    "- Content: synthetic publications written into a temporary folder, ~1.5 KB of varied Markdown per edition. " +
      r.contentMix,
    "- Build: `littlepress build --content <dir> --output <dir>` as a site runs it " +
      "(the compiled dist/scripts/littlepress.js, in a project whose .eleventy.js adds the compiled plugin) " +
      "against `node node_modules/@11ty/eleventy/cmd.cjs --config=<plain config> --quiet`:",
    "  plain Eleventy renders the same Markdown (Liquid) with a Nunjucks layout " +
      "that inlines the same layouts/print.css, and does nothing else.",
    "  Each pair runs back to back, the order alternating; the ratio is the median of the pairs' ratios. " +
      "Max RSS from `process.resourceUsage()` at the build's exit.",
    "  From 50,000 editions littlepress goes first and plain Eleventy is stopped once it has taken 1.5 times as long " +
      '("<" and ">" in the table: bounds, not figures).',
    "- Build from data: a publication of CSV rows (a title with commas and quotes, four paragraphs over " +
      "several lines) and one recurring every day (weekday and month in French, day of the year, ISO week),",
    "  each rendered from one edition.md; plain Eleventy paginates the same rows with the same layout: " +
      "the CSV read by csv-parse as a data extension, the dates and their Intl names made by a JavaScript data file.",
    `- Before and after: "after" is this tree; "before" is ${beforeSource(r.before)}` +
      " in a temporary folder " +
      "(inside .test-work/, so that it finds this project's node_modules; removed at the end); " +
      "its server, functions and bundler are run from there, in child processes, imported by absolute path.",
    "  Both serve, bundle and start the functions on the same synthetic sites, built once by this tree.",
    "- Servers: each in a child process of its own, on 127.0.0.1; wrk (one thread) sends each side in turn, " +
      `cycling through its request paths with a Lua script. The /edition/ mix: ${r.requestMix}.`,
    "  After: lib/server/server.ts's `startServer` run with `node --import tsx`, as `npm run serve` runs it " +
      "(no precompilation), loading functions/*.mts (scripts/bench/serve-child.ts). " +
      "Before: the server that tree's own scripts/serve.ts starts, on the same options " +
      `(at ${DEFAULT_BEFORE}: lib/serve/compiled-server.ts's \`startCompiledServer\`, ` +
      "the server and the functions compiled by esbuild first).",
    "  The static limit is a plain Node `http.createServer` that answers each path with the status, headers and " +
      "bytes the kit's server (after) sent for it, from a Map (scripts/bench/limit-child.ts).",
    "  The per-request renderer is Express 4 with EJS views as the older kits ran them (the view compiled per " +
      "request, outside NODE_ENV=production), rendering the edition's Markdown per request and answering the " +
      "same mix with the same statuses (scripts/bench/express-child.ts). Latencies are wrk's.",
    "  Before's and after's sides run in the same rotation as the limit's and Express's; " +
      "every request of the mix is sent once to both kits' servers and checked before the load.",
    "- Edition function alone: the default export (Request in, Response out, what Netlify runs) of " +
      "functions/edition.mts of each tree, both imported through tsx in one child process " +
      "(scripts/bench/handler-child.ts), called with the mix one request after another, " +
      "the Response's body read; the two alternate run by run.",
    "- Cold start: a fresh `node --import tsx` process imports functions/edition.mts, " +
      "hands it the built site in its context, " +
      "times the import and the first answer (today's edition of the dated publication),",
    "  then calls the handler with 1,000 mixed requests (the mix above) and reads `process.memoryUsage().rss`.",
    "- Every function, before and after: for each function in each tree's functions/, a fresh " +
      "`node --import tsx` process, in that tree, imports the module and answers one typical request " +
      "(scripts/bench/function-cold-child.ts):",
    "  edition a GET of today's edition, sample a GET, validate_config a POST of a config, " +
      "subscribe a GET of the form page, deliveries a GET of a publication's histories; " +
      "deliver (scheduled) is only imported.",
    "  Every answer is checked; one unmeasured run of each first, then the runs, before and after alternated. " +
      "The cold start is the import and the answer, in the process.",
    "  The zips are each tree's own `bundleFunctions()` (scripts/bundle-size.ts; before's in a child process, " +
      "on a hard-linked copy of the site at the same path in its tree, so the zips name the same site files).",
    "- Save to served: the compiled `littlepress start` in a child process, on a copy of the starter " +
      "as `littlepress new` makes it (its examples, and its own functions/*.mts, loaded through tsx), " +
      "with the synthetic publications beside the examples; " +
      "an edition file is saved again (a line added), by turns written in place and written beside it " +
      "(sedNNNNNN) then renamed over it, as sed -i and editors save,",
    "  and the edition asked for every 2 ms until its ETag changes: " +
      "the time from the save to that answer (the watcher, the rebuild, the request), " +
      "beside the rebuild's own time as npm start logs it.",
    "- Bundles: `bundleFunctions()` from scripts/bundle-size.ts (zip-it-and-ship-it, as a deploy does).",
    "- Targets: the server's are issue 26's, checked on after: the /edition/ mix at least " +
      `${LOAD_TARGET}x the static limit's requests/s and ${RENDERER_TARGET}x the Express renderer's, ` +
      `with a p99 under ${P99_TARGET_MS} ms; the site's files (issue 38's) at least ${STATIC_TARGET}x the limit, ` +
      `with a p99 under ${P99_TARGET_MS} ms; no function's zip larger than before's.`,
    "",
    "## Figures",
    "",
    tables(r),
    "## Passed and failed",
    "",
    ...r.targets.map((t) => `- **${t.met ? "PASS" : "FAIL"}**: ${t.name}: ${t.figure}; goal ${t.goal}. ${t.reading}`),
    "",
    missed.length
      ? `${missed.length} of ${r.targets.length} targets failed.`
      : `All ${r.targets.length} targets passed.`,
    "",
    "## Notes",
    "",
    kept,
    "",
  ].join("\n");
}
