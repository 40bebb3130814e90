// Where the functions find the built site, and which publication a URL is for.
import path from "node:path";

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

/**
 * The publication a function URL belongs to: `/tales/edition/` -> "tales".
 * Returns "" for a URL at the site root (`/edition/`).
 */
export function slugFromPath(pathname: string, endpoint: string): string {
  const parts = pathname.split("/").filter(Boolean);
  const at = parts.lastIndexOf(endpoint);
  return at > 0 ? (parts[at - 1] ?? "") : "";
}
