// The built site's files, served by @hono/node-server's serveStatic (lookup,
// types, ranges, HEAD, and its refusal of paths that leave the root), with the
// validators a static host gives: a strong ETag from the file's size and
// modification time (as nginx makes it), 304 by `fresh` (the RFC 9110 rules
// Express uses: If-None-Match, else If-Modified-Since), and If-Range.
import { createReadStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import type { HttpBindings } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import fresh from "fresh";
import type { Context, MiddlewareHandler } from "hono";

/** What the app's requests carry: Node's request and response, and the file a static answer sent. */
export interface SiteEnv {
  Bindings: HttpBindings;
  Variables: { file: string };
}

/** As Netlify serves a site's files: cached, but checked with the server each time. */
const CACHE_CONTROL = "public, max-age=0, must-revalidate";

/** The site's file at the request's path (or its index.html), or on to `next` when there is none. */
export function staticFiles(site: string): MiddlewareHandler<SiteEnv> {
  // Made at the first request: serveStatic warns when its root is missing, and the
  // site may be built after the server starts (`npm start`, `npm run verify`).
  let serve: MiddlewareHandler<SiteEnv> | undefined;
  return async (c, next) => {
    serve ??= serveStatic<SiteEnv>({ root: site, onFound: (file, c) => c.set("file", file) });
    const res = await serve(c, async () => {});
    const file = c.get("file");
    if (!res || !file) return next();
    return validated(c, res, file);
  };
}

/** The answer with the file's validators, or 304 when the client's copy is current. */
function validated(c: Context<SiteEnv>, res: Response, file: string): Response {
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info) return res; // removed since it was found: the stream will say
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const validators = { ETag: etag, "Last-Modified": info.mtime.toUTCString(), "Cache-Control": CACHE_CONTROL };
  const conditions = {
    "if-none-match": c.req.header("if-none-match"),
    "if-modified-since": c.req.header("if-modified-since"),
    "cache-control": c.req.header("cache-control"),
  };
  if (res.status < 300 && fresh(conditions, { etag, "last-modified": validators["Last-Modified"] })) {
    void res.body?.cancel();
    return new Response(null, { status: 304, headers: validators });
  }
  for (const [name, value] of Object.entries(validators)) res.headers.set(name, value);
  res.headers.set("Accept-Ranges", "bytes");
  const ifRange = c.req.header("if-range")?.trim();
  if (res.status !== 206 || ifRange === undefined || ifRange === etag || Date.parse(ifRange) === roundedMtime(info))
    return res;
  // A range of another copy than the client's: the whole file instead (RFC 9110, If-Range).
  void res.body?.cancel();
  const headers = new Headers(res.headers);
  headers.delete("Content-Range");
  headers.set("Content-Length", String(info.size));
  const whole = c.req.method === "HEAD" ? null : (Readable.toWeb(createReadStream(file)) as ReadableStream);
  return new Response(whole, { status: 200, headers });
}

/** Last-Modified has whole seconds. */
const roundedMtime = (info: { mtimeMs: number }) => Math.floor(info.mtimeMs / 1000) * 1000;
