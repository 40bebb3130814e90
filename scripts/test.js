// `npm test`: every test there is. In the littlepress repository, the kit's own
// tests first, in its workspace (packages/littlepress); then the site's test/.
// A site made from this starter has no packages/ folder, so it runs its own
// tests alone. The TypeScript checks (the kit's `npm run typecheck`, the site's
// tsc) run beside the tests, their output kept until the tests end: alone
// before them they took 15 s, most of it one core while the other waited, and
// the tests leave a core free often enough. First of all, littlepress must be
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

const checks = [...(kit ? [["run", "typecheck", ...inKit]] : []), ["exec", "--", "tsc"]].map((args) =>
  run(args, "pipe"),
);
const suites = [...(kit ? [["exec", ...inKit, "--", "vitest", "run"]] : []), ["exec", "--", "vitest", "run"]];

let failed = 0;
for (const args of suites) {
  const { status } = await run(args, "inherit");
  if (status !== 0) {
    failed = status;
    break;
  }
}
for (const check of checks) {
  const { status, args, output } = await check;
  if (status === 0) continue;
  process.stdout.write(`\nnpm ${args.join(" ")} failed (exit ${status}):\n${output}`);
  failed ||= status;
}
process.exit(failed);

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
