// `npm run build` in the test's own process: scripts/build.ts's main() with the
// same arguments, giving what it printed (and what the build warns of on the
// console) and its exit code, as kitScript gives a child's. Eleventy and the kit
// load once a test file, not once a build: most of a small build's time in a
// child process is loading them. A test file keeps at least one build in a
// process of its own (kitScript), as the author runs it.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { format } from "node:util";
import { register } from "tsx/esm/api";
import { vi } from "vitest";
import { eleventyForget } from "../../lib/build/build.ts";
import { main } from "../../scripts/build.ts";
import type { ScriptRun } from "./kit-script.ts";

let turns: Promise<unknown> = Promise.resolve();
let registered = false;

/**
 * Runs `build <args>` here, with `env` added to the environment while it runs (as a child's would be; a name given
 * undefined is unset meanwhile). The builds take turns, so each one's console and environment are its own; and, as
 * in a new process, nothing Eleventy read of the content folder (`--content`) in an earlier build is kept.
 */
export function buildCommand(args: string[], env: Record<string, string | undefined> = {}): Promise<ScriptRun> {
  const run = turns.then(() => buildHere(args, env));
  turns = run.catch(() => undefined);
  return run;
}

async function buildHere(args: string[], env: Record<string, string | undefined>): Promise<ScriptRun> {
  // Eleventy imports the project's .eleventy.js, and it the plugin's TypeScript, as under `npm run build`'s tsx.
  if (!registered) {
    register();
    registered = true;
  }
  const at = args.indexOf("--content");
  const content = at >= 0 ? args[at + 1] : undefined;
  if (content && existsSync(content)) {
    const names = readdirSync(content, { recursive: true, encoding: "utf8" });
    await eleventyForget(names.map((name) => path.join(content, name)));
  }
  let stdout = "";
  let stderr = "";
  const toOut = (...parts: unknown[]) => void (stdout += `${format(...parts)}\n`);
  const toErr = (...parts: unknown[]) => void (stderr += `${format(...parts)}\n`);
  const spies = [
    vi.spyOn(console, "log").mockImplementation(toOut),
    vi.spyOn(console, "info").mockImplementation(toOut),
    vi.spyOn(console, "warn").mockImplementation(toErr),
    vi.spyOn(console, "error").mockImplementation(toErr),
  ];
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    const code = await main(args, {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
    });
    return { code, output: stdout + stderr };
  } finally {
    for (const spy of spies) spy.mockRestore();
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
