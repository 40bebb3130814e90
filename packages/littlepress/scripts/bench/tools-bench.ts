// npm run bench:tools [-- --runs N]: how long each command-line tool takes
// before its work, as authors run it (the package's compiled bin, `littlepress
// <command>`), side by side with Node's own start in the same run. `--help`
// answers once the tool has loaded what it loads before reading its arguments,
// which is all a tool does before its first real step; `print` against a
// closed port and `verify` of an empty folder time the first real step itself.
// Each tool loads Eleventy, the server or Chromium's driver only when a step
// needs it (issue 38: "< 0.5 s from the command to its first real step").
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import { compiledBin, median, ROOT } from "./util.ts";

const run = promisify(execFile);

const USAGE = `Usage: npm run bench:tools [-- --runs N]

Compiles the package (npm run prepare), then starts every littlepress command
N times with --help, alternating with node -e 0, and prints the median time
of each against Node's own start and the 500 ms target.

Options:
  --runs N      starts a tool (default 5)
  -h, --help    show this text

Example:
  npm run bench:tools -- --runs 9`;

const TOOLS = [
  ...["new", "build", "start", "serve", "verify", "check", "preview"],
  ...["deliver", "push", "sirius", "print", "print-server"],
];
const TARGET_MS = 500;

async function main(argv: string[]): Promise<number> {
  const parsed = parseToolArgs(argv, { runs: { type: "string" }, help: { type: "boolean", short: "h" } }, false);
  const answered = answerUsage("bench", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const runs = Number(parsed.values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100)
    return answerUsage("bench", { error: "--runs is 1 to 100" }, USAGE, processOutput)!;
  const bin = compiledBin();
  const empty = mkdtempSync(path.join(os.tmpdir(), "littlepress-tools-bench-"));
  const cases: [string, string[]][] = [
    ...TOOLS.map((tool): [string, string[]] => [`${tool} --help`, [bin, tool, "--help"]]),
    // First real steps: asking a publication that is not there, and reading a content folder with nothing in it.
    ["print (asks the publication)", [bin, "print", "http://127.0.0.1:9/p/", "--to", "tcp://127.0.0.1:9"]],
    ["verify (reads the content)", [bin, "verify", "--content", empty, "--no-preview"]],
  ];
  try {
    const node: number[] = [];
    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let i = 0; i < runs; i++) {
      for (const [name, args] of cases) {
        node.push(await timed(["-e", "0"]));
        times.get(name)!.push(await timed(args));
      }
    }
    const floor = median(node);
    const lines = [`| command | median ms | above Node's start | target < ${TARGET_MS} ms |`, "|---|---:|---:|---|"];
    let failed = 0;
    for (const [name, ms] of times) {
      const m = median(ms);
      if (m >= TARGET_MS) failed++;
      const result = m < TARGET_MS ? "PASS" : "**FAIL**";
      lines.push(`| \`littlepress ${name}\` | ${m.toFixed(0)} | ${(m - floor).toFixed(0)} | ${result} |`);
    }
    const machine = `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`;
    processOutput.stdout(
      `${lines.join("\n")}\n\nNode's own start (node -e 0): ${floor.toFixed(0)} ms, median of ${node.length}; ` +
        `${runs} runs a command, alternated with it, on ${machine}.\n` +
        `${failed ? `${failed} of ${times.size} over the target` : `all ${times.size} under the target`}\n`,
    );
    return failed ? 1 : 0;
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/** Milliseconds from starting `node <args>` to its exit, whatever its exit code (a refusal is an answer too). */
async function timed(args: string[]): Promise<number> {
  const started = performance.now();
  await run(process.execPath, args, { cwd: ROOT, timeout: 60_000 }).catch(() => undefined);
  return performance.now() - started;
}

runTool("bench:tools", import.meta.url, main);
