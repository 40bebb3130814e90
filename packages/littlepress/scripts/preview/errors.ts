import { ToolFailure } from "../cli.ts";

/**
 * A failure the person running the preview can act on (an unknown slug, a
 * missing browser, a broken build): the commands' boundary (cli.ts's runTool)
 * says its message in one line and exits 1, or 2 when `usage` marks a mistake
 * in the command's arguments.
 */
export class PreviewError extends ToolFailure {}

// The first line of an error's message, as every tool says one (cli.ts).
export { firstLine } from "../cli.ts";
