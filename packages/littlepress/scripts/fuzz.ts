// npm run fuzz -- --runs N: the property tests of the functions with N cases
// per property (npm test runs 10,000).
import { spawnSync } from "node:child_process";
import { answerUsage, EXIT, parseToolArgs, processOutput, runTool } from "./cli.ts";

export const USAGE = `Usage: npm run fuzz [-- --runs N]

Runs the property tests of the functions (test/fuzz/): random and hostile
requests to edition/, sample/ and validate_config/, N cases per property.

Options:
  --runs N     cases per property (default 100000; npm test runs 10000)
  -h, --help   show this text

Example:
  npm run fuzz -- --runs 20000`;

const OPTIONS = { runs: { type: "string", default: "100000" }, help: { type: "boolean", short: "h" } } as const;

/** Runs vitest on test/fuzz; resolves to the exit code. */
function main(argv: string[]): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("fuzz", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return Promise.resolve(answered ?? EXIT.usage);
  const runsText = parsed.values.runs;
  const runs = Number(runsText);
  if (!/^\d+$/.test(runsText) || !Number.isSafeInteger(runs) || runs < 1) {
    const problem = `--runs takes a whole number of cases per property, not "${runsText}"`;
    return Promise.resolve(answerUsage("fuzz", { error: problem }, USAGE, processOutput) ?? EXIT.usage);
  }
  console.log(`fuzz: ${runs} cases per property`);
  const env = { ...process.env, LITTLEPRESS_FUZZ_RUNS: String(runs) };
  return Promise.resolve(spawnSync("npx", ["vitest", "run", "test/fuzz"], { stdio: "inherit", env }).status ?? 1);
}

runTool("fuzz", import.meta.url, main);
