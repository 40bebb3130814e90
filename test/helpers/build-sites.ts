// Global setup: builds content/ (the examples) and every fixture under
// test/fixtures/ with the real build script, each into .test-work/<name>/.
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { promisify } from "node:util";
import { builtSite, FIXTURES } from "./sites.ts";

const run = promisify(execFile);

export async function buildSite(content: string, output: string): Promise<void> {
  await run(process.execPath, ["--import", "tsx", "scripts/build.ts", "--content", content, "--output", output], { timeout: 120_000 });
}

export default async function setup() {
  await rm(".test-work/sites", { recursive: true, force: true });
  const jobs = [buildSite("content", builtSite("examples"))];
  for (const name of readdirSync(FIXTURES)) jobs.push(buildSite(`${FIXTURES}/${name}`, builtSite(name)));
  await Promise.all(jobs);
}
