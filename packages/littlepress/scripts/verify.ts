// `npm run verify [-- options]`: tests the author's own publications, as CI
// does. `npm test` tests the kit on its fixtures; this tests content/: it
// builds it with --strict (a print warning fails), serves the result on a free
// 127.0.0.1 port, plays the platform (the conformance checker) against every
// publication the build produced, over deliveries chosen from its own
// editions, and renders every edition, with every setting a subscriber can
// pick (identical pages once), as the printer prints it. One line per
// publication; the exit code is 1 if any is not ready.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { findContentError } from "../lib/model/content-error.ts";
import { eleventyConfigFile, nothingToBuild, starterContent } from "../lib/build/eleventy-config-file.ts";
import {
  answerUsage,
  eleventyRunsOnce,
  inertOutput,
  parseToolArgs,
  processOutput,
  runTool,
  timeoutProblem,
  type Output,
} from "./cli.ts";
import type { Verdict } from "./verify/run.ts";
import { formatVerdict } from "./verify/summary.ts";
import { plural } from "../lib/model/words.ts";

export interface VerifyOptions {
  /** The publications (the starter's content/; without one, the project's own Eleventy config, as a blog's posts). */
  content?: string;
  /** At most this many days (or deliveries) of the checker's run per publication. */
  maxDays: number;
  timeoutMs: number;
  /** Also render every edition as sirius does, in PhantomJS (default true). */
  preview: boolean;
  /** Each page's time to load in the preview (default: the preview's own, 20 s). */
  pageTimeoutMs?: number;
}

export const USAGE = `Usage: npm run verify [-- options]

Tests your publications before you deploy them: builds the site with --strict
(the starter's content/, or a blog by its own Eleventy config; print warnings
fail), serves it on a free local port, runs the conformance
checker (npm run check) on every publication over the days of its own editions,
and renders every edition as the printer prints it (npm run preview), with
every setting a subscriber can have: each select and radio option, each text
field at its default and at its max_length (200 characters without one).
Prints one line per publication. npm test tests the kit itself, not content/.

Options:
  --content <dir>    the publications are in <dir> instead of content/
  --days N           check at most N days (or deliveries) per publication (default 60)
  --timeout SECONDS  per-request time limit of the checker (default 10)
  --page-timeout SECONDS
                     give each page this many seconds to load in the preview
                     (default 20; for a machine too busy to render in time)
  --no-preview       do not render the editions
  -h, --help         show this text

A publication not ready, or none at all, is exit 1.

Example:
  npm run verify -- --no-preview`;

type Parsed = { help: true } | { error: string } | { options: VerifyOptions };

export function parseVerifyArgs(argv: string[]): Parsed {
  const parsed = parseToolArgs(argv, {
    content: { type: "string" },
    days: { type: "string", default: "60" },
    timeout: { type: "string", default: "10" },
    "page-timeout": { type: "string" },
    "no-preview": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if ("error" in parsed) return parsed;
  const { values: v, positionals } = parsed;
  if (v.help) return { help: true };
  if (positionals.length) {
    return { error: `unexpected argument: ${positionals.join(" ")} (verify checks every publication)` };
  }
  if (v.content === "") return { error: "--content needs a value" };
  const days = Number(v.days);
  if (!/^\d+$/.test(v.days) || days < 1 || days > 366) {
    return { error: `--days must be a whole number from 1 to 366, not "${v.days}"` };
  }
  // An empty --page-timeout is refused too, not taken for the default.
  const pageTimeout = v["page-timeout"];
  const timeoutIssue =
    timeoutProblem(v.timeout) ??
    (pageTimeout === undefined ? undefined : timeoutProblem(pageTimeout, "--page-timeout"));
  if (timeoutIssue) return { error: timeoutIssue };
  // "content/" is named as "content/" in messages, not "content//"; without --content, the starter's content/.
  const content = v.content?.replace(/(.)\/+$/, "$1") ?? starterContent();
  const options = { maxDays: days, timeoutMs: Number(v.timeout) * 1000, preview: !v["no-preview"] };
  const page = pageTimeout === undefined ? {} : { pageTimeoutMs: Number(pageTimeout) * 1000 };
  return { options: { ...options, ...page, ...(content !== undefined && { content }) } };
}

/** Runs verify as the command line does; resolves to the exit code. */
export async function main(argv: string[], raw: Output = processOutput): Promise<number> {
  const out = inertOutput(raw);
  const parsed = parseVerifyArgs(argv);
  const answered = answerUsage("verify", parsed, USAGE, out);
  if (answered !== undefined || !("options" in parsed)) return answered ?? 2;
  return verify(parsed.options, out);
}

export async function verify(options: VerifyOptions, out: Output): Promise<number> {
  const started = performance.now();
  // Nothing found is said, with what to do, and is no success: nothing was checked.
  if (options.content !== undefined && !(await hasPublications(options.content))) {
    const what = "each is a folder <slug>/ with publication.json and editions/";
    out.stdout(`verify: nothing to verify: no publications in ${options.content}/ (${what})\n  fix: ${ADD_ONE}\n`);
    return 1;
  }
  const nothing = options.content === undefined ? nothingToBuild() : undefined;
  if (nothing) {
    out.stdout(`verify: nothing to verify: ${nothing}\n`);
    return 1;
  }
  // Everything goes to a folder of its own: _site/ and preview/ stay as the author left them.
  const work = await mkdtemp(path.join(tmpdir(), "littlepress-verify-"));
  const site = path.join(work, "site");
  // The server is up before the build, so image URLs can name it, as Netlify's builds name the site's own URL.
  // What each step needs loads when it starts (Eleventy, the server, the renderer): --help answers at once.
  const { startServer } = await import("../lib/server/server.ts");
  const server = await startServer({ port: 0, siteDir: site });
  try {
    const built = await strictBuild(options.content, site, server.url, out);
    if (!built) return 1;
    if (!built.publications.length) {
      const what = options.content === undefined ? `by ${eleventyConfigFile() ?? "its Eleventy config"}` : "";
      out.stdout(`verify: nothing to verify: the build ${what || `of ${options.content}/`} made no publications\n`);
      out.stdout(`  fix: ${ADD_ONE}\n`);
      return 1;
    }
    const { checkPublications, previewPublications } = await import("./verify/run.ts");
    const verdicts = await checkPublications(site, server.url, options, (line) => out.stderr(`verify: ${line}\n`));
    if (options.preview) {
      const { pageTimeoutMs } = options;
      const previewed = {
        built,
        site,
        out: path.join(work, "preview"),
        ...(pageTimeoutMs && { timeoutMs: pageTimeoutMs }),
      };
      await previewPublications(previewed, verdicts, out);
    }
    return report(verdicts, started, out);
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

const ADD_ONE =
  "add a publication, content/<slug>/publication.json and its editions " +
  '(docs/writing-publications.md: "Writing a publication"), ' +
  'or a blog\'s posts with the littlepress plugin (docs/eleventy-plugin.md: "Posts as a publication")';

/** Whether there is anything to verify; a folder whose publications have problems has (the build says which). */
async function hasPublications(content: string): Promise<boolean> {
  if (!existsSync(content)) return false;
  const { loadSite } = await import("../lib/build/site.ts");
  try {
    return loadSite(content).publications.length > 0;
  } catch (error) {
    if (findContentError(error)) return true;
    throw error;
  }
}

/** Builds with --strict; resolves to the publications built, or undefined when the build failed (said). */
async function strictBuild(content: string | undefined, site: string, url: string, out: Output) {
  const what = content === undefined ? "the site (by its Eleventy config)" : `${content}/`;
  out.stderr(`verify: building ${what} with --strict\n`);
  const { build, describeBuildError } = await import("../lib/build/build.ts");
  try {
    return await build({ ...(content !== undefined && { content }), output: site, strict: true, url });
  } catch (error) {
    const why = `the build of ${what} failed (with --strict, print warnings fail it too), so nothing was checked`;
    out.stdout(`${describeBuildError(error)}\n\nverify: NOT READY: ${why}\n`);
    return undefined;
  }
}

function report(verdicts: Verdict[], started: number, out: Output): number {
  const width = Math.max(...verdicts.map((v) => v.slug.length));
  for (const v of verdicts) out.stdout(formatVerdict(v, width));
  const failed = verdicts.filter((v) => !v.ok).map((v) => v.slug);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const n = verdicts.length;
  const all = plural(n, "publication");
  const variants = verdicts.reduce((n, v) => n + (v.preview?.variants ?? 0), 0);
  const pages = verdicts.reduce((n, v) => n + (v.preview?.pages ?? 0), 0);
  const previewed = `, print preview of ${plural(variants, "variant")} as ${plural(pages, "distinct page")}`;
  const done = `strict build, conformance checks${verdicts[0]?.preview ? previewed : ""}`;
  const which = `${failed.length} of ${all} failed (${failed.join(", ")})`;
  if (failed.length) out.stdout(`\nverify: NOT READY: ${which} in ${seconds} s\n`);
  else out.stdout(`\nverify: OK: ${all} ready (${done}) in ${seconds} s\n`);
  return failed.length ? 1 : 0;
}

runTool("verify", import.meta.url, (argv) => {
  eleventyRunsOnce();
  return main(argv);
});
