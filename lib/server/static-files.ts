// The built site's files as the local server sends them. A file is looked up
// once and kept, a small one with its bytes, so that a request for it costs
// no system call: a stat and a stream per request (what the server did, and
// what sirv does) ran at a fraction of what a plain server sending the same
// bytes reaches. Each path is checked against the disk again once a
// RECHECK_MS at most (a site rebuilt under `npm run serve`), and everything
// is forgotten at once after each build of `npm start` (forget()).
import { readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { RECHECK_MS } from "../edge/publication-store.ts";
import { insideSite } from "../edge/site-folder.ts";

/** A file of the site, as found at its last check. */
export interface SiteFile {
  file: string;
  info: Stats;
  /** A strong validator from its size and modification time (as nginx makes it). */
  etag: string;
  lastModified: string;
  /** The whole file, when it is small enough to keep in memory; else it is streamed from `file`. */
  bytes?: Buffer;
}

/** Files up to this size are kept in memory (an edition page, meta.json, an icon, the desk's script). */
export const KEEP_BYTES_UP_TO = 256 * 1024;
/** At most this many paths are remembered (found or not), the oldest checked forgotten first... */
export const MAX_PATHS = 4096;
/** ...and at most this many bytes kept. */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;

interface Entry {
  found: SiteFile | undefined;
  checkedAt: number;
}

export class SiteFiles {
  private readonly entries = new Map<string, Entry>();
  private kept = 0;

  constructor(private readonly site: string) {}

  /** The site's file at the decoded URL path `pathname` (or its index.html), or undefined. */
  find(pathname: string): SiteFile | undefined {
    const now = Date.now();
    const entry = this.entries.get(pathname);
    if (entry && now - entry.checkedAt < RECHECK_MS) return entry.found;
    const found = this.look(pathname, entry?.found);
    if (entry) this.drop(pathname, entry); // re-inserted last: the map's order is the order of checks
    this.entries.set(pathname, { found, checkedAt: now });
    this.kept += found?.bytes?.length ?? 0;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= MAX_PATHS && this.kept <= MAX_KEPT_BYTES) break;
      this.drop(oldest, old);
    }
    return found;
  }

  /** Forgets every file (after a build replaced them). */
  forget(): void {
    this.entries.clear();
    this.kept = 0;
  }

  private drop(pathname: string, entry: Entry) {
    this.entries.delete(pathname);
    this.kept -= entry.found?.bytes?.length ?? 0;
  }

  private look(pathname: string, before: SiteFile | undefined): SiteFile | undefined {
    const file = insideSite(this.site, pathname);
    if (!file) return undefined;
    for (const candidate of [file, path.join(file, "index.html")]) {
      // Synchronous: a stat is microseconds, a hop through libuv's threads costs more on a small machine.
      const info = statOf(candidate);
      if (!info?.isFile()) continue;
      if (before && before.file === candidate && sameFile(before.info, info)) return before;
      return {
        file: candidate,
        info,
        etag: fileEtag(info),
        lastModified: info.mtime.toUTCString(),
        bytes: read(candidate, info),
      };
    }
    return undefined;
  }
}

/** What stat says of a path; undefined when it is missing or cannot be a file name (a NUL in the URL). */
function statOf(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

/** A small file's bytes; undefined for a large one, or one that cannot be read now (the stream will say). */
function read(file: string, info: Stats): Buffer | undefined {
  if (info.size > KEEP_BYTES_UP_TO) return undefined;
  try {
    const bytes = readFileSync(file);
    return bytes.length === info.size ? bytes : undefined; // changed while read: stream it
  } catch {
    return undefined;
  }
}

/** A strong validator from the file's size and modification time (as nginx makes it). */
function fileEtag(info: Stats): string {
  return `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
}
