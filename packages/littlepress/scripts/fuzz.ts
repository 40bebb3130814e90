// npm run fuzz -- --runs N: the property tests of the functions with N cases
// per property (npm test runs 10,000).
import { spawnSync } from "node:child_process";
import { scriptArgs } from "./cli.ts";

export const USAGE = `Usage: npm run fuzz [-- --runs N]

Runs the property tests of the functions (test/fuzz/): random and hostile
requests to edition/, sample/ and validate_config/, N cases per property.

Options:
  --runs N     cases per property (default 100000; npm test runs 10000)
  -h, --help   show this text

Example:
  npm run fuzz -- --runs 20000`;

/** Runs vitest on test/fuzz; resolves to the exit code. */
function main(runsText: string): number {
  const runs = Number(runsText);
  if (!/^\d+$/.test(runsText) || !Number.isSafeInteger(runs) || runs < 1) {
    console.error(`fuzz: --runs takes a whole number of cases per property, not "${runsText}"; see --help`);
    return 2;
  }
  console.log(`fuzz: ${runs} cases per property`);
  const env = { ...process.env, LITTLEPRESS_FUZZ_RUNS: String(runs) };
  return spawnSync("npx", ["vitest", "run", "test/fuzz"], { stdio: "inherit", env }).status ?? 1;
}

const args = scriptArgs("fuzz", USAGE, { runs: { type: "string", default: "100000" } });
if (args) process.exitCode = main(args.values.runs);
