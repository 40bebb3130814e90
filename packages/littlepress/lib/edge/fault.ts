// The one error boundary of every function: what it answers when its work
// throws, and one log line that says what failed without the request's
// secrets. A print key is a URL, a sealed key or a token is a long string, and
// either may sit in an error's message (a fetch's, a store's): both are cut
// out. The stack is not logged; the first frame says where.
import type { FunctionHandler } from "./http.ts";
import type { ServeContext } from "./site-folder.ts";

/**
 * `handler` behind the boundary of the function `name`: a throw is logged
 * (faultWords) and answered with `answer()`, never with the error.
 */
export function withFaultBoundary(
  name: string,
  handler: FunctionHandler,
  answer: (req: Request, context: ServeContext | undefined) => Response,
): FunctionHandler {
  return async (req, context) => {
    try {
      return await handler(req, context);
    } catch (error) {
      console.error(`${name}: internal fault: ${faultWords(error)}`);
      return answer(req, context);
    }
  };
}

/** A URL, with its path, query and user name: only its origin is kept. */
const URLS = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/@"'<>]*@)?([^\s/"'<>?#]+)[^\s"'<>]*/gi;
/** A run of 20 or more characters of base64url, base64 or hex with a digit among letters: a key, a token, an id. */
const TOKENS = /(?=[A-Za-z0-9+_-]*\d)(?=[A-Za-z0-9+_-]*[A-Za-z])[A-Za-z0-9+_-]{20,}={0,2}/g;

/**
 * An error in a few words fit for a log: its name, its message with URLs cut
 * to their origin and long tokens masked, and where it was thrown (the
 * stack's first frame, by file and line).
 */
export function faultWords(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`;
  const message = error.message.replace(URLS, "$1$2/…").replace(TOKENS, "…");
  const frame = /\n\s+at .*?\(?((?:file:\/\/)?[^\s()]+:\d+):\d+\)?/.exec(error.stack ?? "")?.[1];
  const where = frame
    ? ` (at ${frame
        .replace(/^file:\/\//, "")
        .split(/[\\/]/)
        .slice(-2)
        .join("/")})`
    : "";
  return `${error.name}: ${message}${where}`;
}
