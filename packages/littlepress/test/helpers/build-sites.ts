// Global setup: builds every fixture under test/fixtures/ (the examples among
// them, copied from the kit's content/) with the real build script, into a
// folder of this run's own. It never builds content/: that folder is the
// author's, and `npm run verify` tests it.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { BuildOptions } from "../../lib/build/build.ts";
import { compiledBin } from "../../scripts/bench/util.ts";
import { compiled } from "./kit-script.ts";
import { builtSite, FIXTURES } from "./sites.ts";

const run = promisify(execFile);

/** How the child process that builds runs: its environment (added to this one's), and its clock. */
export interface BuildProcess {
  /** Added to the environment: TZ, or the address a data file fetches from. */
  env?: Record<string, string>;
  /** The build's "now": its clock is moved there (Date and Date.now), as a rebuild on another day would see. */
  now?: string;
}

/**
 * Builds `content` into `output` in a child process: with the compiled build
 * script, or, given `options` the command line has no flag for (a tiny bundle budget)
 * or another clock, with build() itself.
 */
export async function buildSite(
  content: string,
  output: string,
  options?: BuildOptions,
  child: BuildProcess = {},
): Promise<void> {
  const args =
    options || child.now
      ? [
          "--input-type=module",
          "-e",
          (child.now ? movedClock(child.now) : "") +
            `const { build } = await import(${JSON.stringify(`./${compiled("lib/build/build.ts")}`)}); ` +
            `await build(${JSON.stringify({ ...options, content, output })});`,
        ]
      : [compiled("scripts/build.ts"), "--content", content, "--output", output];
  const env = { ...process.env, ...child.env };
  await run(process.execPath, args, { timeout: 120_000, env });
}

/** Code that moves the process's clock to `now` (and lets it run on from there) before anything else runs. */
function movedClock(now: string): string {
  const shift = Date.parse(now) - Date.now();
  if (Number.isNaN(shift)) throw new Error(`buildSite: now must be a date, got ${now}`);
  return (
    `const shift = ${shift}; const Real = Date; ` +
    "globalThis.Date = class extends Real { " +
    "constructor(...a) { if (a.length) super(...a); else super(Real.now() + shift); } " +
    "static now() { return Real.now() + shift; } }; "
  );
}

export default async function setup() {
  // Once a run, before anything starts it: the children run the kit compiled, as the package ships it.
  compiledBin();
  const root = path.join(".test-work", `sites-${process.pid}`);
  process.env.LITTLEPRESS_TEST_SITES = root; // inherited by the test workers
  // A whole Eleventy site (eleventy-site/) is no content folder: its own test builds it by its own config.
  const contents = readdirSync(FIXTURES).filter((name) => !existsSync(path.join(FIXTURES, name, "eleventy.config.js")));
  await Promise.all(contents.map((name) => buildSite(`${FIXTURES}/${name}`, builtSite(name))));
  return () => rm(root, { recursive: true, force: true });
}
