// The functions' JSON answers. The edition endpoints' answers are in
// edition-answer.ts, which only they need: a function that answers JSON
// reaches none of the page encoding.

// Re-exported until lib/edge/edition-endpoint.ts imports them from edition-answer.ts.
export { editionAnswer, noEditionAnswer, REASON_HEADER, toResponse, type EditionAnswer } from "./edition-answer.ts";

/** A JSON answer with the charset the spec's consumers expect. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
