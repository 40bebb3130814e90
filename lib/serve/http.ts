import { encodeHtml } from "../model/charset.ts";
import type { EditionDecision } from "./edition-route.ts";
import type { PublishedPublication } from "./publication-store.ts";
import { finishEdition } from "../model/text-slots.ts";

// Every /edition/ answer depends on the query string and on the day, and some
// on the subscriber: no browser or CDN may reuse one for another request.
const NO_STORE = { "Cache-Control": "no-store", "Netlify-CDN-Cache-Control": "no-store" };

/** Header that says why /edition/ answered 204 or 410. */
export const REASON_HEADER = "X-Littlepress-Reason";

/**
 * An edition endpoint's answer before it is a web Response: the status, the
 * headers and the page. Netlify gets it as a Response (toResponse); the local
 * server writes it to its socket as it is, without building one per request.
 */
export interface EditionAnswer {
  status: 200 | 204 | 410;
  headers: Record<string, string>;
  /** The page, for a 200 to a GET (a HEAD gets the same headers and none). */
  body?: Uint8Array;
}

/** A 204 or 410: no body, a reason header. */
export function noEditionAnswer(status: 204 | 410, reason: string): EditionAnswer {
  const headers: Record<string, string> = { ...NO_STORE, [REASON_HEADER]: reason };
  if (status === 410) headers["Content-Length"] = "0"; // a 204 has no length by definition
  return { status, headers };
}

/**
 * Pages as sent, for editions without text slots (the same bytes for every
 * subscriber), by charset and ETag: found in a map for less than encoding
 * them again costs. The most recently encoded ENCODED_PAGES are kept.
 */
const encoded = new Map<string, { html: string; body: Buffer }>();
export const ENCODED_PAGES = 512;

function encodedPage(html: string, charset: string, etag: string): Buffer {
  const key = `${charset} ${etag}`;
  const kept = encoded.get(key);
  if (kept && kept.html === html) return kept.body; // the same object, or the same text after a rebuild
  const body = encodeHtml(html, charset);
  encoded.delete(key);
  encoded.set(key, { html, body });
  if (encoded.size > ENCODED_PAGES) encoded.delete(encoded.keys().next().value!);
  return body;
}

/** Turns a routing decision into the HTTP answer. HEAD gets the same headers without the body. */
export function editionAnswer(pub: PublishedPublication, d: EditionDecision, method: string): EditionAnswer {
  if (d.status !== 200) return noEditionAnswer(d.status, d.reason);
  const { charset, fields } = pub.index;
  const { html, etag } = finishEdition(d, fields, d.values);
  const body = d.slots ? encodeHtml(html, charset) : encodedPage(html, charset, etag);
  return {
    status: 200,
    headers: {
      ...NO_STORE,
      ETag: etag,
      "Content-Type": `text/html; charset=${charset}`,
      "Content-Length": String(body.length),
    },
    body: method === "HEAD" ? undefined : body,
  };
}

/** The answer as the web Response a Netlify function returns. */
export function toResponse({ status, headers, body }: EditionAnswer): Response {
  return new Response((body ?? null) as Uint8Array<ArrayBuffer> | null, { status, headers });
}

/** noEditionAnswer as a Response. */
export const noEdition = (status: 204 | 410, reason: string): Response => toResponse(noEditionAnswer(status, reason));

/** editionAnswer as a Response. */
export const editionResponse = (pub: PublishedPublication, d: EditionDecision, method: string): Response =>
  toResponse(editionAnswer(pub, d, method));

/** A JSON answer with the charset the spec's consumers expect. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
