/**
 * A failure the person running the preview can act on (an unknown slug, a
 * missing browser, a broken build): its message is shown as it is, without a
 * stack trace. `usage` marks mistakes in the command's arguments.
 */
export class PreviewError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** The first line of an error's message: a browser's or a library's message goes on with a call log or a stack. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
