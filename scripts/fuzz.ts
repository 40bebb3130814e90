// npm run fuzz -- --runs N: the property tests of the functions with N cases
// per property (npm test runs 10,000).
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "100000" } } });
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  console.error(`fuzz: --runs takes a whole number of cases per property, not "${values.runs}"`);
  process.exit(2);
}
console.log(`fuzz: ${runs} cases per property`);
const result = spawnSync("npx", ["vitest", "run", "test/fuzz"], { stdio: "inherit", env: { ...process.env, LITTLEPRESS_FUZZ_RUNS: String(runs) } });
process.exit(result.status ?? 1);
