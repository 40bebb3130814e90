// Every command package.json runs, and every command of the package's bin,
// answers --help with its usage and the exit codes (exit 0), and an unknown
// option with one line pointing at --help (exit 2), never with a stack trace.
// The scripts are read from package.json and scripts/littlepress.ts, so a new
// one is covered. What a command throws is test/unit/cli-boundary.test.ts's.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { EXIT_CODES } from "../../scripts/cli.ts";
import { compiled } from "../helpers/kit-script.ts";

const run = promisify(execFile);

/** The .ts files package.json's scripts run with tsx, e.g. "scripts/build.ts". */
function packageScripts(): string[] {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const run = (line: string) => [...line.matchAll(/\btsx (\S+\.ts)\b/g)].map((m) => m[1]!);
  const files = Object.values(pkg.scripts).flatMap(run);
  return [...new Set([...files, ...binCommands()])].sort();
}

/** The scripts of `littlepress <command>`, read from its COMMANDS table, e.g. "scripts/print-server.ts". */
function binCommands(): string[] {
  const source = readFileSync("scripts/littlepress.ts", "utf8");
  const table = /const COMMANDS = \{([^}]*)\}/.exec(source)![1]!;
  return [...table.matchAll(/^\s+"?([\w-]+)"?:/gm)].map((m) => `scripts/${m[1]!}.ts`);
}

// A script starts tsx and imports its modules; on a loaded machine that takes
// seconds. The test waits longer than the script may run, so a slow start
// shows as the script's own timeout (exit -1), not a test that gave up first.
const SCRIPT_TIMEOUT = 60_000;
const TEST_TIMEOUT = SCRIPT_TIMEOUT + 10_000;

/**
 * Runs a script without throwing on a non-zero exit: a tool the package ships compiled, as `littlepress <tool>`
 * runs it; the kit's own scripts it does not ship (the benchmarks, the fuzzer) as npm runs them, through tsx.
 */
async function runScript(file: string, ...args: string[]) {
  const options = { timeout: SCRIPT_TIMEOUT };
  const command = existsSync(compiled(file)) ? [compiled(file)] : ["--import", "tsx", file];
  try {
    const { stdout, stderr } = await run(process.execPath, [...command, ...args], options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

const STACK_LINE = /^\s+at /m;
const scripts = packageScripts();

it("finds the commands in package.json", () => {
  for (const cli of ["build", "serve", "check", "preview", "bundle-size", "fuzz", "bench", "new", "print-server"]) {
    expect(scripts).toContain(`scripts/${cli}.ts`);
  }
});

describe.concurrent.each(scripts)("%s", (file) => {
  it.each(["--help", "-h"])(
    "%s prints the usage, its options, an example and the exit codes, and exits 0",
    async (flag) => {
      const { code, stdout, stderr } = await runScript(file, flag);
      expect(stderr).not.toMatch(STACK_LINE);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: (npm (run \w+|start)|littlepress [\w-]+)/);
      expect(stdout).toMatch(/\n {2}-h, --help +show this/);
      expect(stdout).toMatch(/\nExample:\n {2}\S/);
      expect(stdout.endsWith(`\n\n${EXIT_CODES}\n`)).toBe(true);
    },
    TEST_TIMEOUT,
  );

  it(
    "refuses an unknown option in one line that points at --help, exit 2",
    async () => {
      const { code, stdout, stderr } = await runScript(file, "--nope");
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toMatch(/^[\w-]+: unknown option '--nope'; see --help\n$/);
    },
    TEST_TIMEOUT,
  );
});

// The package's one command, `littlepress <command>` (package.json's bin), runs the same scripts.
describe("littlepress, the package's command", () => {
  const bin = "scripts/littlepress.ts";
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> };

  it("is the bin, compiled", () => {
    expect(pkg.bin).toEqual({ littlepress: "dist/scripts/littlepress.js" });
  });

  it(
    "lists its commands on --help (exit 0), and without a command (exit 2)",
    async () => {
      const help = await runScript(bin, "--help");
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(EXIT_CODES);
      for (const command of ["build", "start", "serve", "verify", "check", "preview", "deliver", "push"])
        expect(help.stdout).toMatch(new RegExp(`\\n {2}${command} +\\S`));
      const none = await runScript(bin);
      expect(none.code).toBe(2);
      expect(none.stdout).toBe(help.stdout);
    },
    TEST_TIMEOUT,
  );

  it(
    "refuses an unknown command in one line, exit 2, and hands a command its own arguments",
    async () => {
      const unknown = await runScript(bin, "nope");
      expect(unknown).toMatchObject({ code: 2, stdout: "" });
      expect(unknown.stderr).toMatch(/^littlepress: there is no command "nope"; see --help\n$/);
      const build = await runScript(bin, "build", "--help");
      expect(build.code).toBe(0);
      expect(build.stdout).toMatch(/^Usage: npm run build/);
      const option = await runScript(bin, "check", "--nope");
      expect(option.code).toBe(2);
      expect(option.stderr).toMatch(/^check: unknown option '--nope'; see --help\n$/);
    },
    TEST_TIMEOUT,
  );
});
