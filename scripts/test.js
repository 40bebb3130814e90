// `npm test`: every test there is. In the littlepress repository, the kit's own
// tests, in its workspace (packages/littlepress), and beside them the site's
// test/ (most of its time waits on npm, the registry and netlify-cli, while the
// kit's keep the cores busy: 2-3 minutes less than one after the other), its
// output kept until the kit's end: a failure in one says nothing of the other,
// and both results are said at the end. A site made from this starter has no
// packages/ folder, so it runs its own tests alone. The TypeScript checks (the
// kit's `npm run typecheck`, the site's tsc) run beside the tests, their output
// kept until the tests end: alone before them they took 15 s, most of it one
// core while the other waited, and the tests leave a core free often enough. First of all, littlepress must be
// installed (scripts/check-install.js says how when it is not).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { installProblem } from "./check-install.js";

const problem = installProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const kit = existsSync("packages/littlepress/package.json");
const inKit = ["--workspace", "littlepress"];
const COMPILER = "packages/littlepress/scripts/bench/util.ts";
const COMPILE = `import("./${COMPILER}").then((kit) => kit.compiledBin())`;

const suites = [
  ...(kit ? [["the kit's tests (packages/littlepress)", ["exec", ...inKit, "--", "vitest", "run"]]] : []),
  ["the site's tests", ["exec", "--", "vitest", "run"]],
];

// Both suites run the kit compiled (dist/, as the package ships): made once here when a source is newer,
// not by both suites' set-ups at once.
if (kit && existsSync(COMPILER)) await run(["exec", "--", "tsx", "-e", COMPILE], "inherit");
// The checks start once it is made: the site's tsc reads the kit's types from dist/ (a check started before the
// compile, in a checkout whose dist/ was gone, failed on every import of littlepress).
const checks = [...(kit ? [["run", "typecheck", ...inKit]] : []), ["exec", "--", "tsc"]].map((args) =>
  run(args, "pipe"),
);
// The first suite's output as it comes; the other's once it ends, after the first's.
const [first, ...others] = suites.map(([name, args], i) =>
  run(args, i === 0 ? "inherit" : "pipe").then((result) => ({ name, ...result })),
);
const results = [await first];
for (const other of others) {
  const result = await other;
  process.stdout.write(`\n${result.name}:\n${result.output}`);
  results.push(result);
}
for (const check of await Promise.all(checks)) {
  results.push({ name: `npm ${check.args.join(" ")}`, ...check });
  if (check.status !== 0)
    process.stdout.write(`\nnpm ${check.args.join(" ")} failed (exit ${check.status}):\n${check.output}`);
}
process.stdout.write(`\nnpm test:\n${results.map(said).join("")}`);
// The first failure's own exit code (tsc's 2, vitest's 1), or 0 when all passed.
process.exit(results.find((r) => r.status !== 0)?.status ?? 0);

/** One line of the summary: what ran, and whether it passed. */
function said({ name, status }) {
  return `  ${name}: ${status === 0 ? "passed" : `failed (exit ${status})`}\n`;
}

/** Runs npm with `args`; resolves to its exit status (1 for a signal), and its output when piped. */
function run(args, stdio) {
  return new Promise((resolve) => {
    const child = spawn(npm, args, { stdio: ["inherit", stdio, stdio], shell: process.platform === "win32" });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ status: 1, args, output: `${output}${error.message}\n` }));
    child.on("close", (code) => resolve({ status: code ?? 1, args, output }));
  });
}
