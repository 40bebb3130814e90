// What the authors' command-line tools (check, preview) share: where output
// goes, how arguments are read, and how --help and bad arguments are answered.
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
 * Answers `--help` (exit 0) and bad arguments (a sentence and the usage, exit 2);
 * returns undefined when the tool should go on with the parsed options.
 */
export function answerUsage(tool: string, parsed: object, usage: string, out: Output): number | undefined {
  if ("help" in parsed) {
    out.stdout(`${usage}\n`);
    return 0;
  }
  if ("error" in parsed) {
    out.stderr(`${tool}: ${String(parsed.error)}\n\n${usage}\n`);
    return 2;
  }
  return undefined;
}

/** Reads a tool's arguments; a mistake in them (an unknown option, a missing value) is an answer, not an exception. */
export function parseToolArgs<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** What is wrong with a --timeout value (seconds, above 0 and at most 600), or undefined. */
export function timeoutProblem(text: string): string | undefined {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 && n <= 600 ? undefined : `--timeout is in seconds, above 0 and at most 600, not "${text}"`;
}
