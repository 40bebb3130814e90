import { encodeHtml } from "../model/charset.ts";
import type { EditionDecision } from "./edition-route.ts";
import type { PublishedPublication } from "./publication-store.ts";
import { finishEdition } from "../model/text-slots.ts";

// Every /edition/ answer depends on the query string and on the day, and some
// on the subscriber: no browser or CDN may reuse one for another request.
const NO_STORE = { "Cache-Control": "no-store", "Netlify-CDN-Cache-Control": "no-store" };

/** Header that says why /edition/ answered 204 or 410. */
export const REASON_HEADER = "X-Littlepress-Reason";

/** A 204 or 410: no body, a reason header. */
export function noEdition(status: 204 | 410, reason: string): Response {
  const headers: Record<string, string> = { ...NO_STORE, [REASON_HEADER]: reason };
  if (status === 410) headers["Content-Length"] = "0"; // a 204 has no length by definition
  return new Response(null, { status, headers });
}

/** Turns a routing decision into the HTTP answer. HEAD gets the same headers without the body. */
export function editionResponse(pub: PublishedPublication, d: EditionDecision, method: string): Response {
  if (d.status !== 200) return noEdition(d.status, d.reason);
  const { charset, fields } = pub.index;
  const { html, etag } = finishEdition(d, fields, d.values);
  const body = encodeHtml(html, charset);
  return new Response(method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer>), {
    status: 200,
    headers: {
      ...NO_STORE,
      ETag: etag,
      "Content-Type": `text/html; charset=${charset}`,
      "Content-Length": String(body.length),
    },
  });
}

/** A JSON answer with the charset the spec's consumers expect. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
