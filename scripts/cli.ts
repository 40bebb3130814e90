// What the authors' command-line tools (check, preview) share: where output
// goes, and how --help and bad arguments are answered.

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
