import { ToolFailure } from "../cli.ts";

/**
 * A failure the person running the preview can act on (an unknown slug, a
 * missing browser, a broken build): the commands' boundary (cli.ts's runTool)
 * says its message in one line and exits 1, or 2 when `usage` marks a mistake
 * in the command's arguments.
 */
export class PreviewError extends ToolFailure {}

/** The first line of an error's message: a browser's or a library's message goes on with a call log or a stack. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
