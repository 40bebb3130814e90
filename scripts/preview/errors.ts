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
