// The built site's files, as a static host serves them: the file at the
// request's path (or its index.html), its type, HEAD and single byte ranges,
// with the validators a static host gives: a strong ETag from the file's size
// and modification time (as nginx makes it), 304 by `fresh` (the RFC 9110 rules
// Express uses: If-None-Match, else If-Modified-Since), and If-Range.
//
// Small files are answered from memory, checked against the disk at most once a
// second (RECHECK_MS) and after every build under `npm start`: @hono/node-server's
// serveStatic streams every file through a web stream and waits a timer turn for
// its first chunk, which made the site's pages 0.1x as fast as a plain Node
// server sending them, with a p99 of 15 ms; a stat per request cost another 12%.
import { closeSync, createReadStream, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { IncomingHttpHeaders } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import fresh from "fresh";
import type { Context, Handler } from "hono";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { getMimeType } from "hono/utils/mime";
import { RECHECK_MS } from "../edge/site-index.ts";
import type { LiveChannel } from "./live-reload.ts";
import type { HeaderRule } from "./netlify-config.ts";

/** What the app's requests carry: Node's request and response, and the file a static answer sent. */
export interface SiteEnv {
  Bindings: HttpBindings;
  Variables: { file: string };
}

/** As Netlify serves a site's files: cached, but checked with the server each time. */
const CACHE_CONTROL = "public, max-age=0, must-revalidate";
/** Request paths remembered at most, each map (a crawl of many addresses starts them again). */
const REMEMBERED_PATHS = 10_000;
/** Files up to this size are kept in memory once read; larger ones are streamed from the disk. */
const KEPT_FILE_BYTES = 1024 * 1024;
/** What the kept files may take in all (the oldest read go first). */
const KEPT_BYTES = 64 * 1024 * 1024;

/**
 * The site's file at the request's path (or its index.html), or on to `next`
 * when there is none; a 200 or 206 carries netlify.toml's [[headers]] for the
 * path (not a 304 or an error), as Netlify sends them.
 */
export function staticFiles(site: string, rules: readonly HeaderRule[] = [], live?: LiveChannel): Handler<SiteEnv> {
  const files = new SiteFiles(site);
  live?.subscribe(() => files.forgetChecks());
  const custom = headerRules(rules);
  // Not async: a file's answer is handed to Node as it is made, with no promise to wait for.
  return (c, next) => {
    const found = files.find(c.req.path);
    if (!found) return next();
    c.set("file", found.file);
    return answer(c.req.method, c.env.incoming.headers, found, custom(c.req.path));
  };
}

/** The headers netlify.toml's rules give a path (names in lower case, a later rule's value winning), or none. */
function headerRules(rules: readonly HeaderRule[]): (path: string) => Record<string, string> | undefined {
  if (!rules.length) return () => undefined;
  const router = new SmartRouter<Record<string, string>>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const rule of rules)
    router.add("GET", rule.for, Object.fromEntries(Object.entries(rule.values).map(([k, v]) => [k.toLowerCase(), v])));
  // By path, so that a path's headers are one object from request to request (answer's memo).
  const byPath = new Map<string, Record<string, string> | undefined>();
  const match = (path: string) => {
    const [matched] = router.match("GET", path);
    if (!matched.length) return undefined;
    if (matched.length === 1) return matched[0]![0];
    return matched.reduce<Record<string, string>>((all, [values]) => ({ ...all, ...values }), {});
  };
  return (path) => {
    if (byPath.has(path)) return byPath.get(path);
    if (byPath.size >= REMEMBERED_PATHS) byPath.clear();
    const values = match(path);
    byPath.set(path, values);
    return values;
  };
}

/** The site's 404.html as Netlify sends it for a path that names nothing, else a plain "Not found". */
export function notFoundPage(site: string): (c: Context) => Response {
  const files = new SiteFiles(site);
  return (c) => {
    const page = files.find("/404.html");
    if (!page) return c.text("Not found\n", 404);
    const body = c.req.method === "HEAD" ? null : bytes(page, 0, page.info.size - 1);
    return new Response(body, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } });
  };
}

/** A file found for a request, with what the disk says of it and the headers it is sent with. */
interface Found {
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

/** The site's folder, with the small files last read from it. */
class SiteFiles {
  private readonly kept = new Map<string, Found>();
  private keptBytes = 0;

  private readonly site: string;

  constructor(site: string) {
    this.site = path.resolve(site);
  }

  /** The kept file each request path found, and when it was last checked against the disk. */
  private readonly checked = new Map<string, { at: number; file: string }>();

  /**
   * The file a request path names, or undefined for none (or a path that leaves the site).
   * A kept file checked less than RECHECK_MS ago is not looked at again, as the functions'
   * indexes are not (lib/edge/site-index.ts, as nginx's open_file_cache_valid at a second):
   * a site swapped in by a build in another process is served within it. Under `npm start`
   * each build ends the checks at once (the live channel).
   */
  find(requestPath: string): Found | undefined {
    const now = performance.now();
    const recent = this.checked.get(requestPath);
    // Only while the file is kept: the memory's bound is the kept files'.
    const kept = recent && now - recent.at < RECHECK_MS ? this.kept.get(recent.file) : undefined;
    if (kept) return kept;
    const found = this.look(requestPath);
    if (!found?.kept) this.checked.delete(requestPath);
    else {
      if (this.checked.size >= REMEMBERED_PATHS) this.checked.clear();
      this.checked.set(requestPath, { at: now, file: found.file });
    }
    return found;
  }

  /** Every file is checked against the disk at its next request (a build has swapped in a new site). */
  forgetChecks(): void {
    this.checked.clear();
  }

  private look(requestPath: string): Found | undefined {
    const file = sitePath(this.site, requestPath);
    if (file === undefined) return undefined;
    let info = stat(file);
    let found = file;
    if (info?.isDirectory()) info = stat((found = path.join(file, "index.html")));
    if (!info?.isFile()) return undefined;
    if (info.size > KEPT_FILE_BYTES) return { file: found, info, ...fileHeaders(found, info) };
    const kept = this.kept.get(found);
    return kept && sameFile(kept.info, info) ? kept : this.read(found);
  }

  /** Reads a file whole and keeps it; its facts are the open file's, so they match the bytes. */
  private read(file: string): Found | undefined {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      return undefined; // gone since the stat, or unreadable: as if never there (the next request looks again)
    }
    try {
      const info = fstatSync(fd);
      const bytes = Buffer.allocUnsafe(info.size);
      let read = 0;
      while (read < info.size) {
        const n = readSync(fd, bytes, read, info.size - read, read);
        if (n === 0) break;
        read += n;
      }
      const found = { file, info, kept: bytes.subarray(0, read), ...fileHeaders(file, info) };
      this.keep(found);
      return found;
    } finally {
      closeSync(fd);
    }
  }

  private keep(found: Found) {
    const old = this.kept.get(found.file);
    if (old) this.keptBytes -= old.kept!.length;
    this.kept.delete(found.file);
    this.kept.set(found.file, found);
    this.keptBytes += found.kept!.length;
    for (const [name, { kept }] of this.kept) {
      if (this.keptBytes <= KEPT_BYTES) break;
      this.kept.delete(name);
      this.keptBytes -= kept!.length;
    }
  }
}

/**
 * The file a request's path names inside the site, or undefined. Hono's path is
 * decoded already, but for what would change its meaning (%2F, %5C, %25...): a
 * path still holding a `%` is refused, as are a NUL, a backslash, `.` or `..`
 * segments and empty ones, which no built page's address has.
 */
function sitePath(site: string, requestPath: string): string | undefined {
  if (/[%\\\0]|\/\/|(?:^|\/)\.{1,2}(?:\/|$)/.test(requestPath)) return undefined;
  return site + requestPath; // nothing left to normalise
}

/** What the disk says of a path, or undefined for nothing readable there (a name too long, a file as a folder). */
function stat(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    // ENAMETOOLONG, ENOTDIR and the like: a path that names nothing, answered 404 as one.
    return undefined;
  }
}

/** The same version of a file: a build swaps in new files (a new inode); an edit changes the time or size. */
const sameFile = (a: Stats, b: Stats) =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/**
 * The validators and the type of one version of a file, and with its length
 * (lower-case names, as netlify.toml's are made).
 */
function fileHeaders(file: string, info: Stats): Pick<Found, "headers" | "whole"> {
  const headers = {
    etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
    "last-modified": info.mtime.toUTCString(),
    "cache-control": CACHE_CONTROL,
    "content-type": getMimeType(file) ?? "application/octet-stream",
    "accept-ranges": "bytes",
  };
  return { headers, whole: { ...headers, "content-length": String(info.size) } };
}

/** Bytes `start` to `end` of a found file: from memory, or streamed from the disk. */
const bytes = (found: Found, start: number, end: number): Uint8Array<ArrayBuffer> | ReadableStream =>
  found.kept
    ? found.kept.subarray(start, end + 1)
    : (Readable.toWeb(createReadStream(found.file, { start, end })) as ReadableStream);

/**
 * 200, 206, 304 or 416 for a found file, by the request's method, validators and
 * range; a 200 or 206 with netlify.toml's headers for its path (`custom`), as Netlify sends them.
 */
function answer(method: string, req: IncomingHttpHeaders, found: Found, custom?: Record<string, string>): Response {
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
