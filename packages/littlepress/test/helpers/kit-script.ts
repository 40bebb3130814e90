// A tool of the kit run as `npm run <tool>` runs it (node through tsx, in a
// child process), whatever its exit code: the code and everything it printed.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ScriptRun {
  code: number;
  output: string;
}

/** `node --import tsx scripts/<script>.ts <args>`, within `timeout` ms, with `env` if given. */
export async function kitScript(
  script: string,
  args: string[],
  { timeout = 100_000, env }: { timeout?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ScriptRun> {
  try {
    const r = await run(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
      timeout,
      ...(env && { env }),
    });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}
