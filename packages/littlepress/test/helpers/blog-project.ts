// A blog's project written by a test (its own Eleventy config, pages and what the test adds), built by the
// real `littlepress build` in its folder, as its author runs it: the compiled command, without --content,
// so the project's own config adds the plugin.
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { compiled } from "./kit-script.ts";

const run = promisify(execFile);

/** What a blog's config imports the plugin from (the lead may switch it to the packed package). */
export const PLUGIN = path.resolve(compiled("lib/build/eleventy-plugin.ts"));
const BUILD_SCRIPT = path.resolve(compiled("scripts/build.ts"));

/** Writes `files` (paths relative to `dir`) into `dir`, made afresh; returns `dir`. */
export function writeProject(dir: string, files: Record<string, string>): string {
  rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/**
 * How long a test that runs `littlepress build` in a process of its own may take: seconds a build, once or more,
 * many more on a loaded machine (beside npm start and a CPU-bound process, one such test took 87 s at a load
 * average of 13). A bound on a hang, not on the speed.
 */
export const BUILD_TESTS_MS = 300_000;

/** `littlepress build` in the project's folder, with `env` added to the environment: its exit code, and output. */
export async function buildProject(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  try {
    const r = await run(process.execPath, [BUILD_SCRIPT], {
      cwd: dir,
      timeout: 60_000,
      env: { ...process.env, ...env },
    });
    return { code: 0, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, output: err.stdout + err.stderr };
  }
}
