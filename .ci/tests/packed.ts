// The package as authors get it: packed once per test run by `npm pack`, and
// installed into a folder outside this repository, so that nothing resolves to
// the workspace or its node_modules. What it packs is what prepare makes (dist/,
// compiled, and precompiled by scripts/precompile.ts): compiledBin() makes it
// when a source is newer, as the kit's own tests do, so that npm test does not
// compile and type-check the kit a second time (`npm run typecheck` has).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { compiledBin } from "../../packages/littlepress/scripts/bench/util.ts";
import { finished } from "./processes.ts";

const run = promisify(execFile);

declare module "vitest" {
  export interface ProvidedContext {
    /** The absolute path of the packed littlepress tarball. */
    littlepressTarball: string;
  }
}

/** Global setup: packs packages/littlepress into .test-work/packed/, and hands the tarball's path to the tests. */
export default async function pack(project: TestProject) {
  const folder = path.resolve(".test-work/packed");
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  compiledBin();
  // Its prepare has run: compiledBin() made dist/ as prepare does, or found it newer than every source.
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", folder], {
    cwd: "packages/littlepress",
    timeout: 120_000,
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  project.provide("littlepressTarball", path.join(folder, filename));
}

/** A new folder outside the repository, for a site made from the tarball. */
export const outsideFolder = (name: string) => mkdtempSync(path.join(tmpdir(), `littlepress-${name}-`));

/** Runs a command in `cwd` with a timeout; resolves to its output, rejects with it on a failure. */
export const inFolder = (
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  timeout = 240_000,
) => finished(command, args, { cwd, env: { ...process.env, ...env }, within: timeout });

/** Installs the tarball into `site` as an author would from the registry (npm's cache first, no audit). */
export const installTarball = (site: string, tarball: string) =>
  inFolder(site, "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball]);
