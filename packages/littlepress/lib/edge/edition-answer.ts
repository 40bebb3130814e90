// The edition endpoints' answers (/edition/, /sample/): a routing decision
// made an HTTP answer, the page encoded in the publication's charset.
import { encodeHtml, isUtf8, type CharsetCodec } from "../model/charset.ts";
import type { EditionDecision } from "./edition-copy.ts";
import type { PublishedPublication } from "./publication-store.ts";
import type { PrebuiltEdition } from "../model/shard.ts";
import { textFields, type ConfigField } from "../model/config-fields.ts";
import { cutAtSlots, finishEdition, finishedEtag, slotText } from "../model/text-slots.ts";

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
  const headers: Record<string, string> = {
    "Cache-Control": NO_STORE["Cache-Control"],
    "Netlify-CDN-Cache-Control": NO_STORE["Netlify-CDN-Cache-Control"],
    [REASON_HEADER]: reason,
  };
  if (status === 410) headers["Content-Length"] = "0"; // a 204 has no length by definition
  return { status, headers };
}

/**
 * Pages as sent, for copies without text slots (the same bytes for every
 * subscriber), by the prebuilt copy they were encoded from: a copy is kept
 * only while its shard is (lib/edge/publication-store.ts), so these go with
 * it. Encoding a page again cost some 2 µs a request, a good part of the
 * whole decision; a map by charset and ETag of the last 512 pages missed on
 * most requests of a long serial, whose subscribers each ask for their own part.
 */
const encoded = new WeakMap<PrebuiltEdition, { charset: string; body: Buffer }>();

function encodedPage(copy: PrebuiltEdition, html: string, charset: string, codec?: CharsetCodec): Buffer {
  const kept = encoded.get(copy);
  if (kept && kept.charset === charset) return kept.body;
  const body = encodeHtml(html, charset, codec);
  encoded.set(copy, { charset, body });
  return body;
}

/**
 * A UTF-8 page with text slots, kept cut at them with its fixed text encoded
 * (by prebuilt copy, like the pages above): a request encodes only its
 * values, where filling and encoding the whole page cost some 5 µs. UTF-8
 * only: it is the one charset whose bytes for a text are always its pieces'
 * bytes joined (iconv may add a byte-order mark per call, or keep state).
 */
const cutPages = new WeakMap<PrebuiltEdition, { pieces: Buffer[]; names: string[] }>();

function filledUtf8Page(d: Extract<EditionDecision, { status: 200 }>, fields: readonly ConfigField[]): Buffer {
  let cut = cutPages.get(d.copy);
  if (!cut) {
    const { pieces, names } = cutAtSlots(d.html);
    cutPages.set(d.copy, (cut = { pieces: pieces.map((p) => Buffer.from(p, "utf8")), names }));
  }
  const text = new Set(textFields(fields).map((f) => f.name));
  const parts: Buffer[] = [cut.pieces[0]!];
  for (let i = 0; i < cut.names.length; i++) {
    const name = cut.names[i]!;
    // A slot named after no text field is filled with "" (fillSlots does the same for any name without a value).
    parts.push(Buffer.from(slotText(text.has(name) ? (d.values.get(name) ?? "") : ""), "utf8"), cut.pieces[i + 1]!);
  }
  return Buffer.concat(parts);
}

/** Content-Type per charset, made once (a publication has one). */
const contentTypes = new Map<string, string>();
const contentType = (charset: string) => {
  let type = contentTypes.get(charset);
  if (type === undefined) contentTypes.set(charset, (type = `text/html; charset=${charset}`));
  return type;
};

/**
 * Turns a routing decision into the HTTP answer. HEAD gets the same headers without the body. `rebase`
 * changes the page's image addresses for this request (edition-endpoint.ts): such pages are not kept.
 */
export function editionAnswer(
  pub: PublishedPublication,
  d: EditionDecision,
  method: string,
  rebase?: (html: string) => string,
): EditionAnswer {
  if (d.status !== 200) return noEditionAnswer(d.status, d.reason);
  const { charset, fields } = pub.index;
  const { codec } = pub;
  const etag = finishedEtag(d, fields, d.values);
  const body = rebase
    ? encodeHtml(rebase(finishEdition(d, fields, d.values).html), charset, codec)
    : !d.slots
      ? encodedPage(d.copy, d.html, charset, codec)
      : isUtf8(charset)
        ? filledUtf8Page(d, fields)
        : encodeHtml(finishEdition(d, fields, d.values).html, charset, codec);
  return {
    status: 200,
    headers: {
      "Cache-Control": NO_STORE["Cache-Control"],
      "Netlify-CDN-Cache-Control": NO_STORE["Netlify-CDN-Cache-Control"],
      ETag: etag,
      "Content-Type": contentType(charset),
      "Content-Length": String(body.length),
    },
    body: method === "HEAD" ? undefined : body,
  };
}

/** The answer as the web Response a Netlify function returns. */
export function toResponse({ status, headers, body }: EditionAnswer): Response {
  return new Response((body ?? null) as Uint8Array<ArrayBuffer> | null, { status, headers });
}
