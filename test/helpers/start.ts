// Runs `npm start` (scripts/start.ts) as an author does, in a child process, on
// a content folder of the test's own copied from fixtures, for one test file.
// The server binds a free 127.0.0.1 port; Ctrl+C (SIGINT) stops it after the file.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { FIXTURES } from "./sites.ts";

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
  const site = { url: "", log: "", content: path.join(root, "content"), output: path.join(root, "_site") };
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(site.content, { recursive: true });
    for (const f of fixtures) cpSync(path.join(FIXTURES, f), path.join(site.content, path.basename(f)), { recursive: true });
    const args = ["--import", "tsx", "scripts/start.ts", "--port", "0", "--content", site.content, "--output", site.output];
    child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const heard = (chunk: Buffer) => (site.log += chunk.toString());
    child.stdout!.on("data", heard);
    child.stderr!.on("data", heard);
    site.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${site.log}`)), 60_000);
      child!.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${site.log}`)));
      child!.stdout!.on("data", () => {
        const url = /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(site.log)?.[1];
        if (url) clearTimeout(timer), resolve(url);
      });
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  });
  return site;
}
