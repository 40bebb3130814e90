// Global setup: builds content/ (the examples) and every fixture under
// test/fixtures/ with the real build script, into a folder of this run's own.
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
  const jobs = [buildSite("content", builtSite("examples"))];
  for (const name of readdirSync(FIXTURES)) jobs.push(buildSite(`${FIXTURES}/${name}`, builtSite(name)));
  await Promise.all(jobs);
  return () => rm(root, { recursive: true, force: true });
}
