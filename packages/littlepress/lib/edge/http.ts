// What every function answers with: its handler's shape, the methods of a
// read-only address, JSON. The edition endpoints' answers are in
// edition-answer.ts, which only they need: a function that answers JSON
// reaches none of the page encoding.
import type { ServeContext } from "./site-folder.ts";

/** A function's handler, as Netlify calls it: a web Request in, a Response out. */
export type FunctionHandler = (req: Request, context?: ServeContext) => Promise<Response>;

/**
 * The methods of an address that is only read (/edition/, /sample/, the
 * histories): a function exports them as `methods`, and the local server
 * answers any other with 405 and Allow (Netlify hands every method over).
 */
export const READ_METHODS: readonly string[] = ["GET", "HEAD"];

/** A JSON answer with the charset the spec's consumers expect. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
