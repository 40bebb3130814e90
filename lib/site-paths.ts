import path from "node:path";

/** What a publication's folder may be called: lowercase letters, digits and dashes, as it becomes a URL segment. */
export const SAFE_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Folder inside the built site that holds the functions' data; never served as a static file. */
export const DATA_DIR = "_littlepress";

/**
 * Folder inside the built site for shards that did not fit in the function
 * bundle (lib/shard-placement.ts): public static files the functions fetch.
 */
export const PUBLIC_SHARDS_DIR = "_littlepress-shards";

/** The built site's folder name in the project (netlify.toml's publish). */
const PUBLISHED = "_site";

/**
 * The built site: `_site/` in the project, or LITTLEPRESS_SITE_DIR (tests build
 * elsewhere). Netlify's bundler traces file paths it can work out from the
 * code and would pack the whole site with the functions; the folder comes from
 * a call it cannot follow, so the bundles hold only netlify.toml's included_files.
 */
export function siteDir(): string {
  return process.env.LITTLEPRESS_SITE_DIR ?? path.resolve(process.cwd(), publishedFolder());
}

function publishedFolder(): string {
  return [PUBLISHED][0]!;
}

/** Site-wide facts the functions need (which publication is at the root), written by the build. */
export interface SiteIndex {
  root?: string;
}
export const SITE_INDEX = "site.json";

export function publicationDataDir(site: string, slug: string): string {
  return path.join(site, DATA_DIR, slug);
}

/**
 * The publication a function URL belongs to: `/tales/edition/` -> "tales".
 * Returns "" for a URL at the site root (`/edition/`).
 */
export function slugFromPath(pathname: string, endpoint: string): string {
  const parts = pathname.split("/").filter(Boolean);
  const at = parts.lastIndexOf(endpoint);
  return at > 0 ? (parts[at - 1] ?? "") : "";
}
