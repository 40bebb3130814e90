// `npm start`: builds the site, serves it with the functions (lib/server/server.ts),
// and rebuilds on every save to content/ or layouts/ (lib/build/live.ts). Pages
// open in a browser reload by themselves; a broken save is shown there and in
// the terminal while the last good build goes on being served.
import { spawn } from "node:child_process";
import path from "node:path";
import {
  answerUsage,
  EXIT,
  freePort,
  listenPort,
  parseToolArgs,
  processOutput,
  runTool,
  serverStart,
  stopOnSignals,
  type Output,
} from "./cli.ts";
import { builtFolder, nothingToBuild, starterContent } from "../lib/build/eleventy-config-file.ts";
import type { LocalServer } from "../lib/server/server.ts";

export const USAGE = `Usage: npm start [-- options]

Builds the site into _site/ (the starter's content/; a blog, by its own
Eleventy config, into its output folder, such as dist/), serves the site and its functions on
http://127.0.0.1:$PORT (default 8080), and rebuilds on every save (to content/
or layouts/; in a blog, to any file of the project): only the editions you
changed are rendered again, and pages open in a browser reload by themselves.
Ctrl+C stops.

Options:
  --port <n>        listen on this port (default: $PORT, else 8080; 0 picks a free one)
  --content <dir>   the publications are in <dir> instead of content/
  --output <dir>    build into <dir> instead of _site/ (or the config's output)
  -h, --help        show this text

Example:
  PORT=3000 npm start`;

const FOLDER = { type: "string" } as const;
const OPTIONS = { port: FOLDER, content: FOLDER, output: FOLDER, help: { type: "boolean", short: "h" } } as const;

/** Reads the arguments, and starts the site (startLive) once they are known good; resolves once it serves. */
export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("start", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? EXIT.usage;
  // The starter's content/ (starterContent), else the project by its own Eleventy config (a blog).
  const { content = starterContent() } = parsed.values;
  const listen = listenPort(parsed.values.port);
  if ("problem" in listen) return answerUsage("start", { error: listen.problem }, USAGE, out) ?? EXIT.usage;
  const nothing = content === undefined ? nothingToBuild() : undefined;
  if (nothing) {
    out.stderr(`start: nothing to serve: ${nothing}\n`);
    return EXIT.failed;
  }
  // Where `littlepress build` writes (a blog: its config's dir.output). A config that does not load builds into
  // _site/: its first build then says what is wrong, as a broken save does.
  const built = content === undefined && parsed.values.output === undefined ? await builtFolder() : undefined;
  const output = parsed.values.output ?? (built && "output" in built ? built.output : "_site");
  await startLive(content, output, listen.port);
  return EXIT.done;
}

/** Builds, serves and watches until Ctrl+C or SIGTERM; resolves once it serves. */
async function startLive(content: string | undefined, output: string, wantedPort: number): Promise<void> {
  // The port opens first, before Eleventy loads: a tool that waits for it (netlify dev) gives up after some 15 s,
  // which a loaded machine's first build passed. Nothing is answered before that build is done (an edition/ asked
  // then would be "nothing today", and a serial's subscriber would skip one): the requests wait for it
  // (answerAfter), and the build knows the server's address for image URLs. A failed first build is served like a
  // broken save.
  const { openServer, startServer } = await import("../lib/server/server.ts");
  const opened = await serverStart(openServer(await freePort(wantedPort)));
  // Eleventy and the server load once the arguments are known good: --help and a bad port answer at once.
  const { LiveSite } = await import("../lib/build/live.ts");
  const live = new LiveSite({
    ...(content !== undefined && { content }),
    output,
    watch: content ? [content, "layouts"] : ["."],
  });
  const building = live.start(opened.url);
  building.catch(() => undefined); // thrown where the server awaits it, not as an unhandled rejection meanwhile
  let server: LocalServer;
  try {
    server = await serverStart(startServer({ opened, siteDir: output, live, answerAfter: building }));
  } catch (error) {
    await building.catch(() => undefined);
    await live.close();
    throw error;
  }
  console.log(
    `littlepress: serving ${output}/ and the functions on ${server.url}/, rebuilding on every save (Ctrl+C stops)`,
  );
  stopOnSignals(() => Promise.all([live.close(), server.shutdown()]));
}

/** `npm start` running in a child process (the live tests and the benchmark). */
export interface StartedProcess {
  url: string;
  /** Its process id (the bench reads its CPU time). */
  pid: number;
  /** Everything it printed so far, stdout and stderr. */
  readonly log: string;
  /** Ctrl+C, and its exit. */
  stop(): Promise<void>;
}

/**
 * Runs this script (or `tool`, `serve`) in a child process on a free port, and resolves once it serves (after its
 * first build). Without `content` and `output`, as the command finds them in `bin.cwd` (a blog's own config).
 */
export function spawnStart({
  content,
  output,
  timeoutMs = 60_000,
  bin,
  tool = "start",
}: {
  content?: string;
  output?: string;
  timeoutMs?: number;
  /** The compiled command (dist/scripts/littlepress.js), run in `cwd` as a site runs it; else this script by tsx. */
  bin?: { file: string; cwd: string };
  tool?: "start" | "serve";
}): Promise<StartedProcess> {
  const script = path.join(import.meta.dirname, `${tool}.ts`);
  const start = bin ? [bin.file, tool] : ["--import", "tsx", script];
  const folders = [...(content ? ["--content", content] : []), ...(output ? ["--output", output] : [])];
  const args = [...start, "--port", "0", ...folders];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], ...(bin && { cwd: bin.cwd }) });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => void stop().then(() => reject(new Error(`littlepress ${tool} ${why}:\n${log}`)));
    const timer = setTimeout(() => fail("did not start in time"), timeoutMs);
    child.once(
      "exit",
      (code) => (clearTimeout(timer), reject(new Error(`littlepress ${tool} exited with ${code}:\n${log}`))),
    );
    child.stdout.on("data", () => {
      const url = /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        pid: child.pid!,
        stop,
        get log() {
          return log;
        },
      });
    });
  });
}

runTool("start", import.meta.url, main);
