// npm run bench: generates synthetic publications in a temporary folder and
// measures the build against plain Eleventy; the server under load, before
// (the kit at a git ref or in a folder, --before) and after (this tree),
// against a plain Node server sending the same bytes and a per-request
// renderer; the edition function alone, before and after; its cold start and
// memory; and every function's bundle and cold start, before and after, at
// several numbers of editions. Every comparison is a ratio of two sides
// measured side by side in this run. Prints the tables and writes
// BENCHMARKS.md. The options are in USAGE.
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchBuilds, littlepressBuild, prepareBuildTools, type BuildRow } from "./bench/build-bench.ts";
import type { BundleComparison, BundleRow } from "./bench/bundle-bench.ts";
import type { DataBuildRow } from "./bench/data-bench.ts";
import { benchColdStarts, type ColdStartRow } from "./bench/cold-start.ts";
import { benchFunctionColdStarts, type FunctionColdResult } from "./bench/function-cold.ts";
import { generateSite, LANGS, MIX, splitEditions, type SyntheticSite } from "./bench/generate.ts";
import type { HandlerResult } from "./bench/handler-bench.ts";
import type { LiveRow } from "./bench/live-bench.ts";
import { benchLoad, type LoadOptions, type LoadResult } from "./bench/load-bench.ts";
import { benchmarksMarkdown, machine, tables, targets, type BenchReport } from "./bench/report.ts";
import { describeMix } from "./bench/requests.ts";
import { beforeTree, BeforeTreeError, DEFAULT_BEFORE, treeFacts, type CheckedOutTree } from "./bench/tree.ts";
import { progress, ROOT, setQuiet } from "./bench/util.ts";
import { answerUsage, EXIT, parseToolArgs, processOutput, runTool, ToolFailure } from "./cli.ts";

/** The parts of the run, in the order they run; --only picks some. */
export const SECTIONS = ["build", "data", "servers", "function", "cold", "live", "bundles"] as const;
export type Section = (typeof SECTIONS)[number];
/** The parts that measure the --before tree beside this one. */
const WITH_BEFORE: readonly Section[] = ["servers", "function", "cold", "bundles"];

export const USAGE = `Usage: npm run bench [-- options]

Generates synthetic publications and measures the build against plain
Eleventy; the server before (the kit at a git ref) and after (this tree)
against a plain Node server sending the same bytes and an Express renderer
(with wrk); the edition function alone, before and after; cold starts and
memory; each function's bundle and cold start, before and after. Prints the
tables and writes BENCHMARKS.md.

Options:
  --sizes N,N,...   numbers of editions, at least two (default 1000,10000,100000;
                    about 8 minutes on 2 cores); 10k and 10_000 are understood
  --before <kit>    the kit to compare with: a git ref, checked out in a
                    temporary folder (default ${DEFAULT_BEFORE}, the last commit
                    before the server became one Hono app), or a folder that
                    holds the kit (an unpacked earlier release; needs no git);
                    the live part times that kit only when --before is given
  --only <parts>    run only these parts, a comma list of ${SECTIONS.join(", ")};
                    then one size is enough, and nothing is written
  --quick           a smoke run of a few hundred editions; writes nothing
  --write           with --quick or --only, write BENCHMARKS.md all the same
  --keep            leave the temporary folder for a look
  -h, --help        show this text

Example:
  npm run bench -- --sizes 1000,10000
  npm run bench -- --only servers,function,bundles,cold --sizes 1000
  npm run bench -- --only live --sizes 1000 --before HEAD~1`;

export interface BenchOptions {
  /** The smoke run: small sizes, short load runs. */
  quick?: boolean;
  /** Write BENCHMARKS.md (always for the full run, only when asked for the quick one). */
  write?: boolean;
  /** Keep the temporary folder. */
  keep?: boolean;
  /** Where to write the report (default BENCHMARKS.md in the project). */
  output?: string;
  /** No progress on stderr. */
  quiet?: boolean;
  /** Numbers of editions to measure (default DEFAULT_SIZES, or QUICK_SIZES with `quick`). */
  sizes?: number[];
  /** The kit measured as "before": a git ref, or a folder that holds it (default DEFAULT_BEFORE). */
  before?: string;
  /** Only these parts (default all); the others are left out of the report. */
  only?: Section[];
}

interface Plan {
  sizes: number[];
  /** Build pairs per size: small builds are quick and noisy, so more of them. */
  pairs: (size: number) => number;
  /** Where plain Eleventy is stopped, as a multiple of littlepress's time (see DEFAULT_SIZES). */
  plainLimit: (size: number) => number | undefined;
  /** The size whose site serves the load runs. */
  loadSize: number;
  load: LoadOptions;
  /** The edition function in-process: seconds per run, and rounds. */
  handler: { seconds: number; rounds: number };
  coldRuns: number;
  /** Each function started once before the timed runs (tsx's cache and the disk's filled): not in a quick run. */
  coldWarmup: boolean;
  /** Saves timed under `npm start`, and the size of the publication saved in. */
  liveSaves: number;
  liveEditions: number;
}

/**
 * Plain Eleventy 3.1.7 looks up each input file with a linear search over all
 * of them (TemplateMap's getMapEntryForInputPath), so its build of 100,000
 * Markdown files took 11 minutes here, longer than the whole run may take. At
 * that size it is stopped once it has taken PLAIN_LIMIT times littlepress's
 * time, which bounds the ratio from below (littlepress renders each
 * publication's editions as the pages of one template, and grows linearly).
 */
export const DEFAULT_SIZES = [1_000, 10_000, 100_000];
export const QUICK_SIZES = [100, 200];
export const PLAIN_LIMIT = 1.5;
const BOUNDED_FROM = 50_000;

function plan(options: BenchOptions): Plan {
  const sizes = [...new Set(options.sizes ?? (options.quick ? QUICK_SIZES : DEFAULT_SIZES))].sort((a, b) => a - b);
  const fewest = options.only ? 1 : 2;
  if (sizes.length < fewest || sizes.some((n) => !Number.isSafeInteger(n) || n < 20))
    throw new Error(`give at least ${fewest === 1 ? "one size" : "two sizes"} of 20 editions or more`);
  const loadSize = [...sizes].reverse().find((n) => n <= 10_000) ?? sizes[0]!;
  const plainLimit = (size: number) => (size >= BOUNDED_FROM ? PLAIN_LIMIT : undefined);
  if (options.quick) {
    // One of everything, as short as each tool allows (wrk counts whole seconds): it shows every part still runs.
    // No warm-up: it is the measured run again, unmeasured, and a quick run's figures are not kept.
    const load = { duration: 1, warmup: 0, rounds: 1, connections: 10 };
    const handler = { seconds: 0.3, rounds: 1 };
    const live = { liveSaves: 2, liveEditions: 100 };
    return { sizes, pairs: () => 1, plainLimit, loadSize, load, handler, coldRuns: 1, coldWarmup: false, ...live };
  }
  return {
    sizes,
    plainLimit,
    pairs: (size) => (size <= 1_000 ? 5 : size <= 10_000 ? 3 : 1),
    loadSize,
    load: { duration: 5, warmup: 1, rounds: 3, connections: 10 },
    handler: { seconds: 2, rounds: 3 },
    coldRuns: 3,
    coldWarmup: true,
    liveSaves: 20,
    liveEditions: 1_000,
  };
}

export async function runBench(options: BenchOptions = {}): Promise<BenchReport> {
  setQuiet(!!options.quiet);
  const { sizes, pairs, plainLimit, loadSize, load: loadOptions, handler: handlerPlan, ...rest } = plan(options);
  const { coldRuns, coldWarmup, liveSaves, liveEditions } = rest;
  const only = new Set<Section>(options.only ?? SECTIONS);
  const runs = (section: Section) => only.has(section);
  const t0 = performance.now();
  const loadAtStart = os.loadavg()[0] ?? 0;
  const work = path.join(ROOT, ".test-work", "bench", `run-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(work, { recursive: true });
  progress(`${options.quick ? "quick" : "full"} run in ${path.relative(ROOT, work)}`);
  let tree: CheckedOutTree | undefined;
  try {
    if (WITH_BEFORE.some(runs) || (runs("live") && options.before)) tree = beforeTree(options.before ?? DEFAULT_BEFORE);
    const sites = new Map<number, { site: SyntheticSite; siteDir: string }>();
    for (const size of sizes) {
      progress(`generate ${size.toLocaleString("en-US")} editions`);
      sites.set(size, {
        site: generateSite(path.join(work, `content-${size}`), size),
        siteDir: path.join(work, `site-${size}`),
      });
    }

    const tools = prepareBuildTools(work);
    const build: BuildRow[] = [];
    if (runs("build")) {
      for (const size of sizes) {
        const { site, siteDir } = sites.get(size)!;
        build.push(await benchBuilds(tools, site, siteDir, pairs(size), plainLimit(size)));
      }
    } else {
      // The other parts serve, bundle and start the functions on built sites: the load's, or every size's.
      const needed = runs("cold") || runs("bundles") ? sizes : runs("servers") || runs("function") ? [loadSize] : [];
      for (const size of needed) {
        const { site, siteDir } = sites.get(size)!;
        progress(`build ${size.toLocaleString("en-US")} editions`);
        await littlepressBuild(tools, site, siteDir);
      }
    }

    // The heavier parts load when they run (the bundler alone takes seconds): --help answers at once.
    let dataBuild: DataBuildRow[] = [];
    if (runs("data")) {
      const { benchDataBuilds, FULL_DATA_SIZES, QUICK_DATA_SIZES } = await import("./bench/data-bench.ts");
      dataBuild = await benchDataBuilds(tools, options.quick ? QUICK_DATA_SIZES : FULL_DATA_SIZES);
    }

    const loadSite = sites.get(loadSize)!;
    let load: LoadResult | undefined;
    if (runs("servers")) {
      progress(`load on the ${loadSize.toLocaleString("en-US")}-edition site`);
      load = await benchLoad(loadSite.siteDir, loadSite.site, loadOptions, work, tree!.dir);
    }
    let handler: HandlerResult | undefined;
    if (runs("function")) {
      progress(`the edition function in-process, before and after, ${handlerPlan.rounds} x ${handlerPlan.seconds} s`);
      const { seconds, rounds } = handlerPlan;
      const { benchHandler } = await import("./bench/handler-bench.ts");
      handler = await benchHandler(work, loadSite.siteDir, loadSite.site, seconds, rounds, tree!.dir);
    }

    let coldStart: ColdStartRow[] = [];
    let functionCold: FunctionColdResult | undefined;
    if (runs("cold")) {
      coldStart = await benchColdStarts(work, [...sites.values()], coldRuns);
      functionCold = await benchFunctionColdStarts(
        work,
        loadSite.siteDir,
        loadSite.site,
        coldRuns,
        tree!.dir,
        coldWarmup,
      );
    }

    let live: LiveRow | undefined;
    if (runs("live")) {
      progress(`npm start: ${liveSaves} saves in a ${liveEditions.toLocaleString("en-US")}-edition publication`);
      const { benchLive } = await import("./bench/live-bench.ts");
      // Beside the kit that --before names, when one is named: save for save, under the same load.
      live = await benchLive(work, liveSaves, liveEditions, options.before ? tree!.dir : undefined);
    }

    const bundle: BundleRow[] = [];
    let bundleComparison: BundleComparison | undefined;
    if (runs("bundles")) {
      const { benchBundle, compareBundles } = await import("./bench/bundle-bench.ts");
      for (const size of sizes) bundle.push(await benchBundle(sites.get(size)!.siteDir, size));
      const after = bundle.find((b) => b.editions === loadSize)!;
      bundleComparison = await compareBundles(tree!, loadSite.siteDir, after);
    }

    const split = splitEditions(sizes.at(-1)!);
    const skipped = SECTIONS.filter((section) => !runs(section));
    const partial: Omit<BenchReport, "targets"> = {
      quick: !!options.quick,
      date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      command:
        "npm run bench" +
        (options.quick || options.sizes || options.before || options.only ? " --" : "") +
        (options.quick ? " --quick" : "") +
        (options.sizes ? ` --sizes ${sizes.join(",")}` : "") +
        (options.before ? ` --before ${options.before}` : "") +
        (options.only ? ` --only ${SECTIONS.filter(runs).join(",")}` : ""),
      machine: machine(loadAtStart),
      ...(tree && { before: treeFacts(tree) }),
      contentMix:
        "At every size three publications: " +
        `"serial" (by delivery_count, ends) ${Math.round(100 - (MIX.daily + MIX.choices) * 100)}% of the editions, ` +
        `"daily" (by local_date, Monday to Saturday, so Sundays are 204) ${Math.round(MIX.daily * 100)}%, ` +
        `and "choices" (by delivery_count, a select of ${LANGS.length} options used in the text ` +
        `and a text field printed as {{ config.name }}) ${Math.round(MIX.choices * 100)}%, ` +
        `which littlepress renders once per option. At ${sizes.at(-1)!.toLocaleString("en-US")}: ` +
        `${split.serial.toLocaleString("en-US")} + ${split.daily.toLocaleString("en-US")} + ` +
        `${split.choices.toLocaleString("en-US")}.`,
      requestMix: describeMix(),
      seconds: (performance.now() - t0) / 1000,
      build,
      dataBuild,
      load,
      handler,
      coldStart,
      functionCold,
      live,
      bundle,
      bundleComparison,
      caveats: [
        ...(skipped.length ? [`Not run (--only): ${skipped.join(", ")}.`] : []),
        ...(sizes.at(-1)! < 100_000 ? ["Not measured: 100,000 editions (`npm run bench` includes them)."] : []),
        ...build
          .filter((b) => !b.plain.finished)
          .map(
            (b) =>
              `Plain Eleventy at ${b.editions.toLocaleString("en-US")} editions ` +
              `was stopped after ${b.plain.seconds.toFixed(0)} s, ${PLAIN_LIMIT} times littlepress's time, ` +
              "so its rate and the ratio are bounds: " +
              "Eleventy finds each input file's entry by a linear search over all of them " +
              "(TemplateMap.getMapEntryForInputPath, in three passes), " +
              "so its time per file grows with the number of files, " +
              "and waiting for it would not fit the run in ten minutes.",
          ),
      ],
    };
    const report: BenchReport = { ...partial, targets: targets(partial) };
    if ((!options.quick && !options.only) || options.write) {
      const file = options.output ?? path.join(ROOT, "BENCHMARKS.md");
      const previous = existsSync(file) ? readFileSync(file, "utf8") : undefined;
      writeFileSync(file, benchmarksMarkdown(report, previous));
      progress(`wrote ${path.relative(ROOT, file) || file}`);
    }
    return report;
  } finally {
    if (tree) {
      progress(`remove the checkout of ${tree.ref}`);
      tree.remove();
    }
    if (options.keep) progress(`kept ${work}`);
    else {
      progress("remove the temporary folder");
      rmSync(work, { recursive: true, force: true });
      try {
        rmdirSync(path.dirname(work)); // .test-work/bench, when no other run is using it
      } catch {
        // another run's folder is still there
      }
    }
  }
}

/** "1000,10k,100_000" -> numbers, or what is wrong with the list (`fewest`: 2, or 1 with --only). */
function parseSizes(text: string, fewest: number): number[] | string {
  const sizes = text.split(",").map((x) => Number(x.replace(/[_k]/g, (c) => (c === "k" ? "000" : ""))));
  const usable = sizes.length >= fewest && sizes.every((n) => Number.isSafeInteger(n) && n >= 20);
  const count = fewest === 1 ? "one or more numbers" : "at least two numbers";
  return usable ? sizes : `--sizes takes ${count} of editions, 20 or more, not "${text}"`;
}

/** "servers,function" -> the parts, or what is wrong with the list. */
function parseOnly(text: string): Section[] | string {
  const parts = text.split(",").map((p) => p.trim());
  const unknown = parts.filter((p) => !(SECTIONS as readonly string[]).includes(p));
  if (unknown.length || !parts.length)
    return `--only takes a comma list of ${SECTIONS.join(", ")}, not "${unknown.join(",") || text}"`;
  return parts as Section[];
}

const FLAG = { type: "boolean" } as const;
const TEXT = { type: "string" } as const;
const OPTIONS = {
  quick: FLAG,
  write: FLAG,
  keep: FLAG,
  sizes: TEXT,
  before: TEXT,
  only: TEXT,
  help: { type: "boolean", short: "h" },
} as const;

/** The command line: runs the bench and prints its tables; resolves to the exit code. */
async function main(argv: string[]): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("bench", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? EXIT.usage;
  const { help: _, ...values } = parsed.values;
  const only = values.only === undefined ? undefined : parseOnly(values.only);
  const sizes = values.sizes === undefined ? undefined : parseSizes(values.sizes, only ? 1 : 2);
  const problem = [only, sizes].find((x) => typeof x === "string");
  if (problem) return answerUsage("bench", { error: problem }, USAGE, processOutput) ?? EXIT.usage;
  let report: BenchReport;
  try {
    report = await runBench({ ...values, sizes: sizes as number[] | undefined, only: only as Section[] | undefined });
  } catch (error) {
    // A --before that cannot be had is the user's to fix: the message says how.
    if (error instanceof BeforeTreeError) throw new ToolFailure(error.message, true);
    throw error;
  }
  process.stdout.write(tables(report) + "\n");
  progress(`done in ${report.seconds.toFixed(0)} s`);
  return EXIT.done;
}

runTool("bench", import.meta.url, main);
