// Runs `npm start` as an author does (littlepress start, compiled, in a child process) on
// a content folder of the test's own, copied from fixtures, for one test file.
// The server binds a free 127.0.0.1 port and is stopped with Ctrl+C after the file.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { spawnStart, type StartedProcess } from "../../scripts/start.ts";
import { FIXTURES } from "./sites.ts";
import { COMPILED_START } from "./kit-script.ts";

export interface StartedSite {
  readonly url: string;
  /** Everything the process printed so far. */
  readonly log: string;
  /** The content folder it watches, and where it builds. */
  content: string;
  output: string;
}

/** `fixtures`: publication folders under test/fixtures/, each copied into the content folder under its last name. */
export function withStart(name: string, fixtures: string[]): StartedSite {
  const root = path.join(".test-work", `${name}-${process.pid}`);
  const content = path.join(root, "content");
  const output = path.join(root, "_site");
  let started: StartedProcess | undefined;
  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(content, { recursive: true });
    for (const f of fixtures) cpSync(path.join(FIXTURES, f), path.join(content, path.basename(f)), { recursive: true });
    started = await spawnStart({ content, output, bin: COMPILED_START });
  });
  afterAll(async () => {
    await started?.stop();
    rmSync(root, { recursive: true, force: true });
  });
  return {
    content,
    output,
    get url() {
      if (!started) throw new Error("npm start runs from beforeAll");
      return started.url;
    },
    get log() {
      return started?.log ?? "";
    },
  };
}
