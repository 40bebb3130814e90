// Build throughput: the littlepress build against plain Eleventy rendering the
// same Markdown with an equivalent layout (same CSS inlined) and none of the
// kit's work, both as child processes, alternated, wall clock from spawn to
// exit. Each child also reports its peak memory (maxRSS) through a tiny
// preloaded module, so the command itself is unchanged.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { SyntheticSite } from "./generate.ts";
import { compiledBin, installedPackage, median, mustSucceed, progress, ROOT, runChild } from "./util.ts";

export interface BuildRun {
  ms: number;
  /** Peak resident memory of the build process, bytes. */
  maxRss: number;
  /** False when it was stopped at its time limit: `ms` is then a lower bound. */
  finished: boolean;
}

export interface BuildRow {
  editions: number;
  /** Pages littlepress rendered (the choices' editions once per option); plain renders one per edition. */
  pages: number;
  pairs: number;
  littlepress: BuildSide;
  plain: BuildSide;
  /**
   * Median over the pairs of littlepress/plain editions per second, each pair
   * run back to back. A lower bound when plain Eleventy was stopped at its limit.
   */
  ratio: number;
}

export interface BuildSide {
  /** An upper bound, and `seconds` a lower one, when the build was stopped (`finished` false). */
  editionsPerSecond: number;
  seconds: number;
  maxRss: number;
  finished: boolean;
}

/** Files the plain side needs: an Eleventy config and a layout, written once per run folder. */
export interface BuildTools {
  work: string;
  hook: string;
  plainConfig: string;
  /** The kit's compiled command, run in `work` as a site's project (its .eleventy.js adds the compiled plugin). */
  bin: string;
}

/** Writes the maxRSS hook and the plain Eleventy setup into the run's work folder. */
export function prepareBuildTools(work: string): BuildTools {
  const hook = path.join(work, "max-rss-hook.mjs");
  writeFileSync(
    hook,
    "// Preloaded into a build: writes its peak RSS (kB) on exit to BENCH_RSS_FILE, " +
      "also when stopped at its time limit.\n" +
      `import { writeFileSync } from "node:fs";\n` +
      `process.on("exit", () => { if (process.env.BENCH_RSS_FILE) ` +
      `writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)); });\n` +
      `process.on("SIGTERM", () => process.exit(143));\n`,
  );
  const includes = path.join(work, "plain", "_includes");
  mkdirSync(includes, { recursive: true });
  writeFileSync(path.join(includes, "print.css"), readFileSync(path.join(ROOT, "layouts", "print.css")));
  // The print page of layouts/edition.njk without the kit: same head, same CSS inlined, same body.
  writeFileSync(
    path.join(includes, "plain.njk"),
    `<!doctype html>
<html lang="{{ lang or 'en' }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=384">
<title>{{ title }}</title>
<style>{% include "print.css" %}</style>
</head>
<body>
<main class="paper">
{%- if title %}
<h1>{{ title }}</h1>
{%- endif %}
{{ content | safe }}
</main>
</body>
</html>
`,
  );
  // littlepress as an author's site runs it: a project whose config adds the plugin, and the compiled command.
  const bin = compiledBin();
  writeFileSync(path.join(work, "package.json"), `{ "type": "module", "private": true }\n`);
  const plugin = pathToFileURL(path.join(ROOT, "dist/lib/build/eleventy-plugin.js")).href;
  writeFileSync(
    path.join(work, ".eleventy.js"),
    `import littlepress from ${JSON.stringify(plugin)};\n` +
      `export default (eleventyConfig) => eleventyConfig.addPlugin(littlepress);\n`,
  );
  const plainConfig = path.join(work, "plain", "eleventy.config.mjs");
  writeFileSync(
    plainConfig,
    `// Plain Eleventy over the benchmark's content: one page per Markdown file, the same
// CSS inlined by the layout, no manifest, ETags, variants or checks.
import path from "node:path";
const includes = ${JSON.stringify(includes)};
export default function (eleventyConfig) {
  eleventyConfig.setUseGitIgnore(false); // the content lives in a git-ignored folder
  eleventyConfig.addGlobalData("layout", "plain.njk");
  eleventyConfig.addGlobalData("config", { lang: "en", name: "friend" });
  return {
    dir: { includes: path.relative(eleventyConfig.directories.input, includes) },
    markdownTemplateEngine: "liquid",
    htmlTemplateEngine: "liquid",
  };
}
`,
  );
  return { work, hook, plainConfig, bin };
}

/** One littlepress build of `site` into `output`, by the compiled command, as a site runs `littlepress build`. */
export async function littlepressBuild(tools: BuildTools, site: SyntheticSite, output: string): Promise<BuildRun> {
  rmSync(output, { recursive: true, force: true });
  const rssFile = path.join(tools.work, "rss-littlepress");
  const run = await runChild(
    process.execPath,
    // Paths relative to the project, as an author passes them (the build matches Eleventy's relative input paths).
    [
      "--import",
      pathToFileURL(tools.hook).href,
      tools.bin,
      "build",
      "--content",
      path.relative(tools.work, site.dir),
      "--output",
      path.relative(tools.work, output),
    ],
    { cwd: tools.work, env: { ...process.env, BENCH_RSS_FILE: rssFile } },
  );
  mustSucceed(`littlepress build of ${site.editions} editions`, run);
  return { ms: run.ms, maxRss: readRss(rssFile), finished: true };
}

/**
 * One plain Eleventy build of the same content, stopped after `limitMs` if
 * given; its output is removed afterwards.
 */
export async function plainBuild(
  tools: BuildTools,
  site: SyntheticSite,
  output: string,
  limitMs?: number,
): Promise<BuildRun> {
  rmSync(output, { recursive: true, force: true });
  const rssFile = path.join(tools.work, "rss-plain");
  const run = await runChild(
    process.execPath,
    [
      "--import",
      pathToFileURL(tools.hook).href,
      path.join(installedPackage("@11ty/eleventy"), "cmd.cjs"),
      `--config=${tools.plainConfig}`,
      `--input=${path.relative(ROOT, site.dir)}`,
      `--output=${path.relative(ROOT, output)}`,
      "--quiet",
    ],
    { cwd: ROOT, env: { ...process.env, BENCH_RSS_FILE: rssFile }, timeoutMs: limitMs },
  );
  if (!run.timedOut) {
    mustSucceed(`plain Eleventy build of ${site.editions} editions`, run);
    const pages = countPages(output);
    if (pages < site.editions) throw new Error(`plain Eleventy wrote ${pages} pages for ${site.editions} editions`);
  }
  rmSync(output, { recursive: true, force: true });
  return { ms: run.ms, maxRss: readRss(rssFile) || run.peakRssAtStop, finished: !run.timedOut };
}

/**
 * `pairs` pairs of builds, the order alternating (littlepress first, then
 * plain first, ...), so drifts in the machine's load fall on both sides.
 * The last littlepress build is left in `output` for the other benchmarks.
 *
 * With `plainLimit`, littlepress always goes first and plain Eleventy is
 * stopped once it has taken `plainLimit` times as long: enough to show
 * whether the target ratio is met, without waiting out a build whose time
 * grows with the square of the number of pages (see DEFAULT_SIZES in bench.ts).
 */
export async function benchBuilds(
  tools: BuildTools,
  site: SyntheticSite,
  output: string,
  pairs: number,
  plainLimit?: number,
): Promise<BuildRow> {
  const lp: BuildRun[] = [];
  const pl: BuildRun[] = [];
  const ratios: number[] = [];
  const plainOut = `${output}-plain`;
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 || plainLimit ? (["littlepress", "plain"] as const) : (["plain", "littlepress"] as const);
    for (const side of order) {
      const limitMs = side === "plain" && plainLimit ? lp[i]!.ms * plainLimit : undefined;
      progress(
        `build ${site.editions} editions: ${side} (pair ${i + 1}/${pairs})` +
          (limitMs ? `, stopped after ${(limitMs / 1000).toFixed(0)} s` : ""),
      );
      const run =
        side === "littlepress"
          ? await littlepressBuild(tools, site, output)
          : await plainBuild(tools, site, plainOut, limitMs);
      (side === "littlepress" ? lp : pl).push(run);
      const stopped = run.finished ? "" : "stopped at its limit: ";
      progress(
        `  ${stopped}${(run.ms / 1000).toFixed(1)} s, ${(site.editions / (run.ms / 1000)).toFixed(0)} editions/s, ` +
          `max RSS ${(run.maxRss / 2 ** 20).toFixed(0)} MiB`,
      );
    }
    ratios.push(pl[i]!.ms / lp[i]!.ms);
  }
  // The other benchmarks need the last build: when plain ran last, littlepress's output is still there.
  if (!existsSync(output)) throw new Error(`no littlepress site in ${output}`);
  return {
    editions: site.editions,
    pages: site.pages,
    pairs,
    littlepress: buildSide(lp, site.editions),
    plain: buildSide(pl, site.editions),
    ratio: median(ratios),
  };
}

/** One side's figures over its runs: the median time, the highest peak RSS. */
export function buildSide(runs: BuildRun[], editions: number): BuildSide {
  const ms = median(runs.map((r) => r.ms));
  return {
    editionsPerSecond: editions / (ms / 1000),
    seconds: ms / 1000,
    maxRss: Math.max(...runs.map((r) => r.maxRss)),
    finished: runs.every((r) => r.finished),
  };
}

/** The peak RSS a build wrote on exit; 0 for a build stopped before its hook was loaded. */
function readRss(file: string): number {
  if (!existsSync(file)) return 0;
  const kb = Number(readFileSync(file, "utf8"));
  rmSync(file, { force: true });
  return kb * 1024;
}

function countPages(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.endsWith(".html"),
  ).length;
}
