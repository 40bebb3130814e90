// A tool of the kit run as the package runs it (`littlepress <tool>`): plain
// node on its compiled module under dist/, in a child process, whatever its
// exit code: the code and everything it printed. The tests' global setup
// compiles dist/ once a run (compiledBin), so every child starts the same tree
// without tsx, which took longer than most tools' work.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ScriptRun {
  code: number;
  output: string;
}

/** A module of the kit as compiled: scripts/build.ts is dist/scripts/build.js, functions/x.mts dist/functions/x.mjs. */
export const compiled = (source: string) => path.join("dist", source.replace(/\.ts$/, ".js").replace(/\.mts$/, ".mjs"));

/** `littlepress start` as a site runs it, for scripts/start.ts's spawnStart: the compiled command, here. */
export const COMPILED_START = { file: compiled("scripts/littlepress.ts"), cwd: "." };

/** `node dist/scripts/<script>.js <args>`, within `timeout` ms, with `env` if given, in `cwd` if given. */
export async function kitScript(
  script: string,
  args: string[],
  { timeout = 100_000, env, cwd }: { timeout?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ScriptRun> {
  try {
    const r = await run(process.execPath, [path.resolve(compiled(`scripts/${script}.ts`)), ...args], {
      timeout,
      ...(env && { env }),
      ...(cwd && { cwd }),
    });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}
