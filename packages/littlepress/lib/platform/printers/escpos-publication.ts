// Asking any publication for today's edition, as the platform asked, for a
// home printer (littlepress print, print-server). The publication's URL is
// one a user gave, so it goes through the print keys' client
// (print-key-client.ts) and its rules: only that URL's own origin is ever
// asked, no redirect is followed, replies are capped in size and time, and a
// host name must resolve to public addresses (checked inside the connection's
// own lookup). A private address is asked only when the user wrote it as one
// (an address literal, or localhost): a publication served on the home network.
import iconv from "iconv-lite";
import { isAddressLiteral } from "../../model/addresses.ts";
import { charsetOf, decodeHtml } from "../../model/charset.ts";
import { editionParams, type EditionAsks } from "../../model/delivery-rules.ts";
import { shownText } from "../../model/printer-name.ts";
import { quotedUrl } from "../../model/shown-url.ts";
import { askPrintKey, type PrintKeyPolicy, type PrintKeyReply } from "./print-key-client.ts";

/** The most of an edition read (its images inlined as data: URIs count). */
export const EDITION_MAX_BYTES = 4 * 1024 * 1024;
/** The longest publication name shown, in code points. */
export const PUBLICATION_NAME_LENGTH = 120;
/** Per request, connect to last byte. */
export const PUBLICATION_TIMEOUT_MS = 10_000;

/** A publication's base URL (ending in "/"), or what is wrong with the text. */
export function publicationBase(text: string): URL | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The parser's own message adds nothing to this one.
    return { problem: `${quotedUrl(text)} is not a URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { problem: `${quotedUrl(text)} is not an http(s) URL` };
  if (url.username || url.password) return { problem: "a publication URL carries no user name or password" };
  url.search = "";
  url.hash = "";
  url.pathname = url.pathname.replace(/(meta\.json|edition\/?)$/, "");
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Only the publication's own origin; private only when written as an address or localhost. */
export function publicationPolicy(base: URL, timeoutMs = PUBLICATION_TIMEOUT_MS): PrintKeyPolicy {
  const host = base.hostname.replace(/^\[|\]$/g, "");
  const written = isAddressLiteral(host) || host === "localhost";
  return { allowed: [{ origin: base.origin, private: written }], timeoutMs, maxBytes: EDITION_MAX_BYTES };
}

export interface PublicationInfo extends EditionAsks {
  /** meta.json's name, cleaned for showing (printer-name.ts's shownText): the publication chose it. */
  name: string;
}

async function ask(url: URL, policy: PrintKeyPolicy): Promise<PrintKeyReply | { error: string }> {
  const reply = await askPrintKey(url, { method: "GET", headers: { Accept: "*/*" } }, policy);
  if ("refused" in reply) return { error: `${url.origin} was not asked: ${reply.refused}` };
  if ("failed" in reply) return { error: `${url.href} ${reply.failed}` };
  return reply;
}

/** meta.json's name and what it asks the platform to send. */
export async function readPublication(base: URL, policy: PrintKeyPolicy): Promise<PublicationInfo | { error: string }> {
  const url = new URL("meta.json", base);
  const reply = await ask(url, policy);
  if ("error" in reply) return reply;
  if (reply.status !== 200) return { error: `${url.href} answered ${reply.status}, not 200: is this a publication?` };
  let meta: unknown;
  try {
    meta = JSON.parse(reply.body.toString("utf8"));
  } catch {
    // Where the JSON breaks matters less than that it is not a publication's meta.json.
    return { error: `${url.href} is not JSON: is this a publication?` };
  }
  if (typeof meta !== "object" || meta === null || typeof (meta as { name?: unknown }).name !== "string")
    return { error: `${url.href} has no name: is this a publication?` };
  const m = meta as { name: string; send_timezone_info?: unknown; send_delivery_count?: unknown };
  return {
    name: shownText(m.name, PUBLICATION_NAME_LENGTH),
    byTime: m.send_timezone_info === true,
    byCount: m.send_delivery_count === true,
  };
}

export interface EditionReply {
  /** The /edition/ request, as sent. */
  url: URL;
  status: number;
  etag: string | null;
  /** The page, read in the charset it names (for a 200). */
  html?: string;
  bytes: number;
}

/** One delivery's /edition/ request and its answer, read whole within the caps. */
export async function fetchEdition(
  base: URL,
  asks: EditionAsks,
  parts: Parameters<typeof editionParams>[1],
  policy: PrintKeyPolicy,
): Promise<EditionReply | { error: string }> {
  const url = new URL("edition/", base);
  for (const [name, value] of editionParams(asks, parts)) url.searchParams.append(name, value);
  const reply = await askPrintKey(url, { method: "GET", headers: { Accept: "text/html" } }, policy);
  if ("refused" in reply) return { error: `${url.origin} was not asked: ${reply.refused}` };
  if ("failed" in reply) return { error: `edition/ ${reply.failed}` };
  const etag = reply.etag ?? null;
  const answer: EditionReply = { url, status: reply.status, etag, bytes: reply.body.length };
  if (reply.status === 200) {
    answer.html = decodeHtml(new Uint8Array(reply.body), charsetOf(reply.contentType), iconv);
  }
  return answer;
}
