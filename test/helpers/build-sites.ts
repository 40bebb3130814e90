// Global setup: builds every fixture under test/fixtures/ (the examples among
// them, copied from the kit's content/) with the real build script, into a
// folder of this run's own. It never builds content/: that folder is the
// author's, and `npm run verify` tests it.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { BuildOptions } from "../../lib/build/build.ts";
import { builtSite, FIXTURES } from "./sites.ts";

const run = promisify(execFile);

/**
 * Builds `content` into `output` in a child process: with the build script,
 * or, given `options` the command line has no flag for (a tiny bundle budget),
 * with build() itself.
 */
export async function buildSite(content: string, output: string, options?: BuildOptions): Promise<void> {
  const args = options
    ? [
        "--input-type=module",
        "-e",
        'import { build } from "./lib/build/build.ts"; ' +
          `await build(${JSON.stringify({ ...options, content, output })});`,
      ]
    : ["scripts/build.ts", "--content", content, "--output", output];
  await run(process.execPath, ["--import", "tsx", ...args], { timeout: 120_000 });
}

export default async function setup() {
  const root = path.join(".test-work", `sites-${process.pid}`);
  process.env.LITTLEPRESS_TEST_SITES = root; // inherited by the test workers
  await Promise.all(readdirSync(FIXTURES).map((name) => buildSite(`${FIXTURES}/${name}`, builtSite(name))));
  return () => rm(root, { recursive: true, force: true });
}
