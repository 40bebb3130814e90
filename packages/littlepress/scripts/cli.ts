// What the command-line tools share: where output goes, how arguments are
// read, how --help and bad arguments are answered (usage on --help, exit 0;
// one line and "see --help" on a mistake, exit 2), and the one error boundary
// every command runs in (runTool): one exit code per kind of outcome (EXIT),
// listed in every --help, and never a stack trace.
import { shownLine } from "../lib/model/printer-name.ts";
import { connect, createServer, type AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** The exit codes, one per kind of outcome, the same for every command. */
export const EXIT = {
  /** Done; a server stopped by Ctrl+C or SIGTERM. */
  done: 0,
  /** The work failed or found a problem, said on stderr or in its report (an answer, or a ToolFailure thrown). */
  failed: 1,
  /** A mistake in the arguments, said in one line (answerUsage). */
  usage: 2,
  /** An internal fault: anything else thrown, a bug or what the tool did not expect; said in one line. */
  fault: 3,
} as const;

/** EXIT, as every command's --help ends (answerUsage adds it, so that no usage text can leave it out). */
export const EXIT_CODES = `Exit codes (the same for every littlepress command):
  0  done (a server: stopped by Ctrl+C or SIGTERM)
  1  the work failed or found a problem, said on stderr or in the report
  2  a mistake in the arguments, said in one line
  3  an internal fault (a bug, or what the command did not expect): one line, no stack trace`;

/**
 * A failure a tool expects, which the person running it can act on (a port in use, a missing
 * browser): thrown from anywhere in the tool, runTool says its message in one line and exits 1, or
 * 2 when `usage` marks a mistake in the arguments.
 */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

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

/**
 * Answers `--help` (exit 0) and bad arguments (one sentence and "see --help", exit 2);
 * returns undefined when the tool should go on with the parsed options. `parsed`
 * is a tool's own reading ({ help } or { error }) or parseToolArgs' (--help in its values).
 */
export function answerUsage(tool: string, parsed: object, usage: string, out: Output): number | undefined {
  const values = "values" in parsed ? (parsed.values as { help?: unknown }) : {};
  if ("help" in parsed || values.help === true) {
    out.stdout(`${usage}\n\n${EXIT_CODES}\n`);
    return EXIT.done;
  }
  if ("error" in parsed) {
    out.stderr(`${tool}: ${String(parsed.error)}; see --help\n`);
    return EXIT.usage;
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

/** What is wrong with a --timeout value (seconds, above 0 and at most 600), or undefined. */
export function timeoutProblem(text: string, flag = "--timeout"): string | undefined {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 && n <= 600
    ? undefined
    : `${flag} is in seconds, above 0 and at most 600, not "${text}"`;
}

/**
 * The one error boundary of every command: runs its `main` when its file (`moduleUrl`, import.meta.url) is
 * the script node was started with, and exits with main's answer. Every expected failure is an answer, or a
 * ToolFailure thrown (exit 1, or 2); anything else thrown, then or later (a server's stray rejection), is an
 * internal fault: one line, exit 3. A long-running command answers once it runs, and stopOnSignals ends it.
 */
export function runTool(tool: string, moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  // Node's own answer to an error nobody caught is a stack trace and exit 1, which means "failed" here.
  const uncaught = (error: unknown) => process.exit(sayFailure(tool, error, processOutput));
  process.on("uncaughtException", uncaught);
  process.on("unhandledRejection", uncaught);
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = sayFailure(tool, error, processOutput);
    },
  );
}

/** The first line of an error's message: a browser's or a library's message goes on with a call log or a stack. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}

/** What was thrown out of a tool, said in one line (a library's message may go on with a call log); its exit code. */
export function sayFailure(tool: string, error: unknown, out: Output): number {
  const line = shownLine(firstLine(error));
  if (!(error instanceof ToolFailure)) {
    out.stderr(`${tool}: internal error: ${line}\n`);
    return EXIT.fault;
  }
  out.stderr(`${tool}: ${line}\n`);
  return error.usage ? EXIT.usage : EXIT.failed;
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
    throw new ToolFailure(`port ${port} on ${host} is in use by another program; pick another with --port`);
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

/**
 * A server's start, for the commands that run one: what stops it (its address taken or refused, a
 * netlify.toml it cannot serve) is the person's to act on, as "cannot start the server: …", exit 1.
 */
export async function serverStart<T>(started: Promise<T>): Promise<T> {
  try {
    return await started;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolFailure(`cannot start the server: ${message}`);
  }
}

/** Ctrl+C and SIGTERM run `stop` (which lets the requests in flight finish), then exit 0. */
export function stopOnSignals(stop: () => Promise<unknown>): void {
  const once = () => void stop().then(() => process.exit(0));
  process.once("SIGINT", once);
  process.once("SIGTERM", once);
}
