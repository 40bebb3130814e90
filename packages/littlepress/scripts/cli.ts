// What the command-line tools share: where output goes, how arguments are
// read, and how --help and bad arguments are answered (usage on --help, exit 0;
// one line and "see --help" on a mistake, exit 2; never a stack trace).
import { shownLine } from "../lib/model/printer-name.ts";
import { connect, createServer, type AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Where a tool writes; tests pass their own to read it. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processOutput: Output = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * `out`, with each line of what is written made inert (printer-name.ts's shownLine: controls, CR and the
 * invisible format characters out, the spacing kept): for tools whose lines carry what a publication chose
 * (its name, a reason header, a page's error). The tool's own line breaks stay.
 */
export function inertOutput(out: Output): Output {
  const clean = (text: string) => text.split("\n").map(shownLine).join("\n");
  return { stdout: (text) => out.stdout(clean(text)), stderr: (text) => out.stderr(clean(text)) };
}

type Options = NonNullable<ParseArgsConfig["options"]>;
/** What parseArgs gives for `options` (named, so the tools' declarations can say it). */
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: boolean; options: O }>
>;

/** Every tool takes -h and --help. */
const HELP = { help: { type: "boolean", short: "h" } } as const;

/**
 * Answers `--help` (exit 0) and bad arguments (one sentence and "see --help", exit 2);
 * returns undefined when the tool should go on with the parsed options. `parsed`
 * is a tool's own reading ({ help } or { error }) or parseToolArgs' (--help in its values).
 */
export function answerUsage(tool: string, parsed: object, usage: string, out: Output): number | undefined {
  const values = "values" in parsed ? (parsed.values as { help?: unknown }) : {};
  if ("help" in parsed || values.help === true) {
    out.stdout(`${usage}\n`);
    return 0;
  }
  if ("error" in parsed) {
    out.stderr(`${tool}: ${String(parsed.error)}; see --help\n`);
    return 2;
  }
  return undefined;
}

/** Reads a tool's arguments; a mistake in them (an unknown option, a missing value) is an answer, not an exception. */
export function parseToolArgs<O extends Options>(
  argv: string[],
  options: O,
  allowPositionals = true,
): Parsed<O> | { error: string } {
  try {
    return parseArgs({ args: argv, allowPositionals, options });
  } catch (error) {
    return { error: error instanceof Error ? firstSentence(error.message) : String(error) };
  }
}

/** parseArgs explains how to pass "--x" as a positional after its complaint; the complaint is what the author needs. */
function firstSentence(message: string): string {
  const sentence = message.split(/\.\s/)[0]!;
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

/**
 * For a script run from package.json: reads process.argv with -h/--help added,
 * answers help and mistakes (setting the exit code), and then returns undefined;
 * otherwise returns the parsed arguments.
 */
export function scriptArgs<O extends Options>(
  tool: string,
  usage: string,
  options: O,
  allowPositionals = false,
): Parsed<O & typeof HELP> | undefined {
  const parsed = parseToolArgs(process.argv.slice(2), { ...options, ...HELP }, allowPositionals);
  const answered = answerUsage(tool, parsed, usage, processOutput);
  if (answered !== undefined || "error" in parsed) {
    process.exitCode = answered ?? 2;
    return undefined;
  }
  return parsed;
}

/** What is wrong with a --timeout value (seconds, above 0 and at most 600), or undefined. */
export function timeoutProblem(text: string): string | undefined {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 && n <= 600
    ? undefined
    : `--timeout is in seconds, above 0 and at most 600, not "${text}"`;
}

/**
 * Runs a tool's `main` when its file (`moduleUrl`, import.meta.url) is the
 * script node was started with: its answer is the exit code. Every expected
 * failure is an answer; a throw is a bug in the tool itself (exit 3).
 */
export function runTool(tool: string, moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`${tool}: internal error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 3;
    },
  );
}

/**
 * For a command that runs Eleventy once and exits (build, verify, preview), before it loads Eleventy.
 * Eleventy's ES module cache-buster serves only its --watch and --serve (a changed config or data file
 * imported again); on Node before 22.15 it resolves every import through a loader thread, about 100 ms
 * of a build. Eleventy's own switch turns it off, unless the author has set it.
 */
export function eleventyRunsOnce(): void {
  process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= "1";
}

/** The port a server listens on: --port, else $PORT, else 8080 (0 picks a free one); or what is wrong with it. */
export function listenPort(option: string | undefined): { port: number } | { problem: string } {
  const text = option ?? process.env.PORT;
  const port = Number(text ?? 8080);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return { port };
  return { problem: `the port must be a whole number from 0 to 65535, not "${text}"` };
}

/**
 * The port a server will listen on once it is ready (`npm start` builds for its address first), checked
 * free on `host` without accepting anything: a listener, even for a moment, would take a client's
 * connection and reset it. Port 0 is one the system picks, by listening on it for a moment (no client
 * knows that number yet). Any other port is in use when a connection to it is accepted, free when it is
 * refused; the server's own listen still tells if another program takes it in between.
 */
export async function freePort(port: number, host = "127.0.0.1"): Promise<number> {
  if (port === 0) return systemPickedPort(host);
  const answer = await new Promise<"accepted" | "refused" | "unknown">((resolve) => {
    const socket = connect({ port, host, timeout: 1_000 });
    const settle = (result: "accepted" | "refused" | "unknown") => (socket.destroy(), resolve(result));
    socket.once("connect", () => settle("accepted"));
    socket.once("timeout", () => settle("unknown"));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      settle(error.code === "ECONNREFUSED" ? "refused" : "unknown"),
    );
  });
  if (answer === "accepted")
    throw new Error(`port ${port} on ${host} is in use by another program; pick another with --port`);
  return port;
}

async function systemPickedPort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, host, resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Ctrl+C and SIGTERM run `stop` (which lets the requests in flight finish), then exit 0. */
export function stopOnSignals(stop: () => Promise<unknown>): void {
  const once = () => void stop().then(() => process.exit(0));
  process.once("SIGINT", once);
  process.once("SIGTERM", once);
}
