import path from "node:path";

/** What a publication's folder may be called: lowercase letters, digits and dashes, as it becomes a URL segment. */
export const SAFE_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Folder inside the built site that holds the functions' data; never served as a static file. */
export const DATA_DIR = "_littlepress";

/**
 * Folder inside the built site for shards that did not fit in the function
 * bundle (lib/build/shard-placement.ts): public static files the functions fetch.
 */
export const PUBLIC_SHARDS_DIR = "_littlepress-shards";

/** Site-wide facts the functions need (which publication is at the root), written by the build. */
export interface SiteIndex {
  root?: string;
}
export const SITE_INDEX = "site.json";

export function publicationDataDir(site: string, slug: string): string {
  return path.join(site, DATA_DIR, slug);
}
