import path from "node:path";
import type { PrintKeyOrigin } from "./print-key.ts";

/** What a publication's folder may be called: lowercase letters, digits and dashes, as it becomes a URL segment. */
export const SAFE_SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Folder where the build stages the functions' data inside Eleventy's output;
 * the build moves it out (to siteDataDir) before the site is swapped in, so no
 * published site ever holds it.
 */
export const DATA_DIR = "_littlepress";

/** What the functions' data folder adds to the site folder's name: `_site` has its data in `_site_data`. */
export const DATA_SUFFIX = "_data";

/**
 * Folder inside the built site for shards that did not fit in the function
 * bundle (lib/build/shard-placement.ts): public static files the functions fetch.
 */
export const PUBLIC_SHARDS_DIR = "_littlepress-shards";

/** Site-wide facts the functions need, written by the build. */
export interface SiteIndex {
  /** Which publication is also at the site root. */
  root?: string;
  /** The print-key services subscribers' keys may be on (content/site.json); none: the default list. */
  printKeyOrigins?: PrintKeyOrigin[];
  /** Live subscriptions each publication takes at most (content/site.json); none: the subscribe page's default. */
  maxSubscriptions?: number;
  /** The publications (by slug) whose publication.json says `"end_notice": false`: no end slip (end-notice.ts). */
  noEndNotice?: string[];
  /**
   * The address the site was built for, without a trailing slash: its editions' images link there
   * (content/site.json's url, else the build's: Netlify's URL, npm start's own address, or
   * http://127.0.0.1:8080 when nothing gave one). `npm run serve` compares it with its own.
   */
  url?: string;
  /**
   * Set when nothing gave `url` and it is only the default: the edition endpoints then link the images at the
   * address each request reached the site at (`netlify serve` on 8888, `npm run serve` on another port).
   */
  urlAssumed?: true;
}
export const SITE_INDEX = "site.json";

/**
 * The functions' data of a built site (the site index, each publication's
 * index and shards): a sibling of the site's folder, never inside it, so no
 * static server of the site can reach it whatever the URL. Netlify bundles it
 * with the functions (netlify.toml's included_files) and publishes only the site.
 */
export function siteDataDir(site: string): string {
  return path.join(path.dirname(site), path.basename(site) + DATA_SUFFIX);
}

export function publicationDataDir(site: string, slug: string): string {
  return path.join(siteDataDir(site), slug);
}
