// Global setup: builds every fixture under test/fixtures/ (the examples among
// them, copied from the kit's content/) with the real build script, into a
// folder of this run's own. It never builds content/: that folder is the
// author's, and `npm run verify` tests it.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { builtSite, FIXTURES } from "./sites.ts";

const run = promisify(execFile);

export async function buildSite(content: string, output: string, env: Record<string, string> = {}): Promise<void> {
  await run(process.execPath, ["--import", "tsx", "scripts/build.ts", "--content", content, "--output", output], { timeout: 120_000, env: { ...process.env, ...env } });
}

export default async function setup() {
  const root = path.join(".test-work", `sites-${process.pid}`);
  process.env.LITTLEPRESS_TEST_SITES = root; // inherited by the test workers
  await Promise.all(readdirSync(FIXTURES).map((name) => buildSite(`${FIXTURES}/${name}`, builtSite(name))));
  return () => rm(root, { recursive: true, force: true });
}
