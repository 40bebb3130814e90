// The built site's files, as a static host serves them: the file at the
// request's path (or its index.html), its type, HEAD and single byte ranges,
// with the validators a static host gives: a strong ETag from the file's size
// and modification time (as nginx makes it), 304, and If-Range (file-answer.ts).
//
// Small files are answered from memory, checked against the disk at most once a
// second (RECHECK_MS) and after every build under `npm start`: @hono/node-server's
// serveStatic streams every file through a web stream and waits a timer turn for
// its first chunk, which made the site's pages 0.1x as fast as a plain Node
// server sending them, with a p99 of 15 ms; a stat per request cost another 12%.
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type { HttpBindings } from "@hono/node-server";
import type { Context, Handler } from "hono";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { getMimeType } from "hono/utils/mime";
import { RECHECK_MS } from "../edge/site-index.ts";
import { answer, bytes, type Found } from "./file-answer.ts";
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
