// A built site's index (site.json in the functions' data): which publication
// is at the root, how many subscriptions a publication may have, which
// print-key services subscribers may use (lib/platform/printers/print-key-origins.ts).
// The subscribing and delivering functions read it without opening any publication.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SITE_INDEX, siteDataDir, type SiteIndex } from "../model/site-paths.ts";
import { fileVersion } from "../model/file-version.ts";
import { keptPerSite } from "./site-folder.ts";

/** Each site's site.json, by site folder; read again when the build replaces it. */
const siteIndexes = new Map<string, Fresh<SiteIndex>>();
/** How often a file read here is checked again (a deployed site never changes; `npm start` may be rebuilt under it). */
export const RECHECK_MS = 1_000;

// A site rebuilt under `npm start`: its index is read again (site-folder.ts's forgetSite).
keptPerSite((site) => siteIndexes.delete(site));

/**
 * A built site's index (its site.json in the functions' data), read again
 * when the build replaces it; {} without one.
 */
export function siteIndexOf(site: string): SiteIndex {
  const file = () => path.join(siteDataDir(site), SITE_INDEX);
  return freshRead(siteIndexes, site, file, () => {
    try {
      return JSON.parse(readFileSync(file(), "utf8")) as SiteIndex;
    } catch {
      // No site index (a site built before it existed, or a bare folder): every field has its default.
      return {};
    }
  });
}

/** A value read from a file, with what the file was like then and when that was last checked. */
export interface Fresh<T> {
  value: T;
  stamp: string;
  checkedAt: number;
}

/**
 * The value cached under `key`, read again with `read` when `file` has been replaced
 * (looked at once a RECHECK_MS at most; the file's name is only made then).
 */
export function freshRead<T>(cache: Map<string, Fresh<T>>, key: string, file: () => string, read: () => T): T {
  const now = Date.now();
  const entry = cache.get(key);
  if (entry && now - entry.checkedAt < RECHECK_MS) return entry.value;
  const stamp = fileStamp(file());
  if (entry && entry.stamp === stamp) {
    entry.checkedAt = now;
    return entry.value;
  }
  const value = read();
  cache.set(key, { value, stamp, checkedAt: now });
  return value;
}

/** Changes when the file is replaced (fileVersion). */
function fileStamp(file: string): string {
  try {
    return fileVersion(statSync(file));
  } catch {
    // A stamp of its own: the file appearing later is a change, and is read then.
    return "missing";
  }
}
