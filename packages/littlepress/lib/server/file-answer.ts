// A found file's answer, as a static host gives it: 200, 206, 304 or 416 by
// the request's method, its validators (the RFC 9110 rules Express uses, by
// `fresh`: If-None-Match, else If-Modified-Since) and one byte range (with
// If-Range), from memory or streamed from the disk. static-site.ts finds the
// file.
import { createReadStream, type Stats } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import fresh from "fresh";

/** A file found for a request, with what the disk says of it and the headers it is sent with. */
export interface Found {
  file: string;
  info: Stats;
  /** Its bytes, for a file kept in memory; a larger one is streamed from the disk. */
  kept?: Buffer<ArrayBuffer>;
  /** ETag, Last-Modified, Cache-Control, Content-Type and Accept-Ranges (lower-case names). */
  headers: Readonly<Record<string, string>>;
  /** The same and Content-Length: a 200's. */
  whole: Readonly<Record<string, string>>;
  /** A 200's headers with netlify.toml's for the path it was last asked by, made once. */
  ruled?: { custom: Record<string, string>; whole: Readonly<Record<string, string>> };
}

/** Bytes `start` to `end` of a found file: from memory, or streamed from the disk. */
export const bytes = (found: Found, start: number, end: number): Uint8Array<ArrayBuffer> | ReadableStream =>
  found.kept
    ? found.kept.subarray(start, end + 1)
    : (Readable.toWeb(createReadStream(found.file, { start, end })) as ReadableStream);

/**
 * 200, 206, 304 or 416 for a found file, by the request's method, validators and
 * range; a 200 or 206 with netlify.toml's headers for its path (`custom`), as Netlify sends them.
 */
export function answer(
  method: string,
  req: IncomingHttpHeaders,
  found: Found,
  custom?: Record<string, string>,
): Response {
  const { info } = found;
  const whole = custom ? wholeWith(found, custom) : found.whole;
  const etag = found.headers.etag!;
  if ((req["if-none-match"] !== undefined || req["if-modified-since"] !== undefined) && isFresh(req, found.headers))
    return new Response(null, { status: 304, headers: validators(found.headers) });
  const size = info.size;
  if (method === "HEAD") return new Response(null, { headers: whole });
  const given = req["if-range"]; // Node joins a repeated one: a string
  const ifRange = typeof given === "string" ? given.trim() : undefined;
  const current = ifRange === undefined || ifRange === etag || Date.parse(ifRange) === roundedMtime(info);
  const range = current && req.range !== undefined ? byteRange(req.range, size) : undefined;
  if (range === "unsatisfiable")
    return new Response(null, { status: 416, headers: { ...found.headers, "content-range": `bytes */${size}` } });
  if (range) {
    const [start, end] = range;
    const partial = {
      ...whole,
      "content-length": String(end - start + 1),
      "content-range": `bytes ${start}-${end}/${size}`,
    };
    return new Response(bytes(found, start, end), { status: 206, headers: partial });
  }
  const body = size === 0 ? null : bytes(found, 0, size - 1);
  return new Response(body, { headers: whole });
}

/** A 200's headers and netlify.toml's for its path (a later value winning), kept with the file's version. */
function wholeWith(found: Found, custom: Record<string, string>): Readonly<Record<string, string>> {
  if (found.ruled?.custom !== custom) found.ruled = { custom, whole: { ...found.whole, ...custom } };
  return found.ruled.whole;
}

/** The client's copy is current: `fresh`'s rules (If-None-Match, else If-Modified-Since; no-cache asks again). */
const isFresh = (req: IncomingHttpHeaders, headers: Readonly<Record<string, string>>) =>
  fresh(
    {
      "if-none-match": req["if-none-match"],
      "if-modified-since": req["if-modified-since"],
      "cache-control": req["cache-control"],
    },
    { etag: headers.etag, "last-modified": headers["last-modified"] },
  );

/** What a 304 carries: the validators, not the type or length of a body it has not. */
const validators = (h: Readonly<Record<string, string>>) => ({
  etag: h.etag!,
  "last-modified": h["last-modified"]!,
  "cache-control": h["cache-control"]!,
});

/**
 * The one range of a Range header (`bytes=2-9`, `bytes=5-`, `bytes=-5`) within
 * `size` bytes; undefined to send the whole file (no header, one this server
 * does not read, several ranges), or "unsatisfiable" for one past the end.
 */
function byteRange(header: string, size: number): [number, number] | "unsatisfiable" | undefined {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  const [, first, last] = match;
  if (first === "") {
    const length = Number(last);
    return length === 0 || size === 0 ? "unsatisfiable" : [Math.max(size - length, 0), size - 1];
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return undefined; // not a range (RFC 9110: ignored)
  return start >= size ? "unsatisfiable" : [start, end];
}

/** Last-Modified has whole seconds. */
const roundedMtime = (info: { mtimeMs: number }) => Math.floor(info.mtimeMs / 1000) * 1000;
