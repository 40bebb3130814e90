// Where the functions find the built site.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { PrintKeyOrigin } from "../model/print-key.ts";
import { DATA_SUFFIX, SITE_INDEX } from "../model/site-paths.ts";

/**
 * What the local server (and the tests) tell a function that Netlify tells it
 * otherwise, or not at all: one typed object, read by the platform's runtime
 * (lib/platform/runtime.ts) and, for `site` alone, by siteFor; never by a handler itself.
 */
export interface LocalSite {
  /** The built site's folder (absolute); deployed, the one beside the function (deployedSite). */
  site?: string;
  /**
   * The folder of the subscriptions' file store (lib/platform/stores/state-setup.ts);
   * deployed, there is none and the functions use Netlify Blobs.
   */
  state?: string;
  /** The file of the local sealing key for `state` (tests); none: state-setup.ts's localKeyFile. */
  keyFile?: string;
  /** Whether the delivery histories may be shown (the desk under `npm start`). */
  history?: boolean;
  /** The local server's own address; deployed, the site's (Netlify's URL). */
  origin?: string;
  /** The print-key services allowed (tests); none: the built site's list. */
  printKeys?: readonly PrintKeyOrigin[];
  /**
   * Under `npm start`, the number of the build being served, moved on by the
   * server after every build: each function forgets what it read of an earlier
   * one at its next request (siteFor).
   */
  build?: number;
}

/**
 * What a function is handed besides the request: on Netlify its Context, from
 * the local server and the tests a context that also carries `littlepress`,
 * named so that it cannot meet one of Netlify's fields.
 */
export interface ServeContext {
  littlepress?: LocalSite;
  /** The client's address: Netlify's Context names it `ip` too; the local server passes the socket's. */
  ip?: string;
  /** The route's named parts (`:slug`): Netlify's Context names them `params` too; so does the local server. */
  params?: Record<string, string>;
  /**
   * The deploy the function belongs to: Netlify's Context names it `deploy` too (`published`: whether it is
   * the site's live deploy, not a deploy preview or an older one); the local server passes none.
   */
  deploy?: { context?: string; published?: boolean };
}

/**
 * The publication a request is for: its route's `:slug`, "" at the site root (`/edition/`).
 * Netlify's Context names it in `params`; but `netlify serve`, running the bundles a deploy
 * ships, leaves `params` empty on a route written with its trailing slash (`/:slug/edition/`,
 * the form the platform calls), and a publication answered as if there were none. Every route
 * is `/<slug>/<endpoint>/` or `/<endpoint>/`, so the path says it then.
 */
export function routeSlug(request: Request, context: ServeContext | undefined): string {
  const named = context?.params?.slug;
  if (named) return named;
  return /^\/([^/]+)\/[^/]+\/?$/.exec(new URL(request.url).pathname)?.[1] ?? "";
}

/**
 * What this module instance keeps of each site, as ways to forget a site's
 * entries: site-index.ts adds the site indexes, publication-store.ts the
 * publications opened.
 */
const siteCaches: ((site: string) => void)[] = [];

/** Adds a cache of what was read of a site: forgetSite empties it of that site. */
export function keptPerSite(forget: (site: string) => void): void {
  siteCaches.push(forget);
}

/**
 * Forgets everything this module instance read of a site: the next request
 * reads the new build at once, without waiting for the once-a-second check.
 */
export function forgetSite(site: string): void {
  for (const forget of siteCaches) forget(site);
}

/** The build of each site that this module instance's caches hold (readingBuild). */
const builds = new Map<string, number>();

/**
 * Called with each request's site and the local server's number of its build
 * (LocalSite.build, which `npm start` moves on after every build): what was read
 * of an earlier build is forgotten. The request carries the number, so the
 * functions forget in whatever module instance they run: under plain Node a
 * site's functions/*.mts are loaded through tsx, each file with its own
 * instance of the kit, none of them the server's. One Map lookup a request.
 */
function readingBuild(site: string, build: number): void {
  if (builds.get(site) === build) return;
  builds.set(site, build);
  forgetSite(site);
}

/** The deployed site, worked out once per function module: its working folder and environment do not change. */
let deployed: string | undefined;

/** The deployed site, once it is found (deployedSite); until then `_site`, looked for again next time. */
function deployedOnce(): string {
  const { site, found } = deployedSite(process.cwd());
  if (found) deployed = site;
  return site;
}

/**
 * The built site for a request: the one the caller names (the local server, the tests), else the deployed one
 * beside the function. The one way a handler finds its site (the platform's through its runtime). Under
 * `npm start`, what was read of an earlier build of it is forgotten first (readingBuild).
 */
export function siteFor(context: ServeContext | undefined): string {
  const local = context?.littlepress;
  if (local?.site === undefined) return deployed ?? deployedOnce();
  if (local.build !== undefined) readingBuild(local.site, local.build);
  return local.site;
}

/**
 * The deployed site: the one whose functions' data (`<site>_data/site.json`, siteDataDir) is in `dir`, the
 * working directory, which is where Netlify puts the included_files beside the function. The build writes
 * that data beside whatever folder the site's Eleventy config writes (`dist/` has `dist_data/`), and the
 * site's netlify.toml names it in included_files (`littlepress build` checks that it does: netlify-check.ts),
 * so a bundle holds one; the data says which site it is, and no file of ours has to. A project folder (netlify
 * dev runs the functions there, unbundled) may also hold an older build's data under another name: the newest
 * is the one built last. None yet (a first build still running): `_site`, worked out again at the next request.
 * LITTLEPRESS_SITE_DIR names another site to a process that runs the functions as Netlify does but on a site
 * built elsewhere (netlify dev in the parity test); nothing of ours sets it. The folder is a parameter, and the
 * data's name read from it: Netlify's bundler (its file tracer, on the package's compiled code) follows a path
 * it can work out from constants and would pack the whole folder into every function; this way it packs only
 * netlify.toml's included_files. .ci/tests/netlify.test.ts checks every file of each bundle a real `netlify
 * serve` makes, and test/deploy/eleventy-site-netlify.test.ts a site built into dist/.
 */
export function deployedSite(dir: string): { site: string; found: boolean } {
  const named = process.env.LITTLEPRESS_SITE_DIR;
  if (named) return { site: named, found: true };
  const built = builtSites(dir);
  if (built.length === 0) return { site: path.join(dir, "_site"), found: false };
  return { site: built.reduce((a, b) => (b.at > a.at ? b : a)).site, found: true };
}

/** The sites whose functions' data `dir` holds (a folder `<site>_data` with a site.json), with when each was built. */
function builtSites(dir: string): { site: string; at: number }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // No working folder to read (it went): no data in it, as for a folder without any.
    return [];
  }
  return names.flatMap((name) => {
    const site = name.slice(0, -DATA_SUFFIX.length);
    if (!name.endsWith(DATA_SUFFIX) || !site) return [];
    try {
      return [{ site: path.join(dir, site), at: statSync(path.join(dir, name, SITE_INDEX)).mtimeMs }];
    } catch {
      // A folder named like a data folder without a site index (an Eleventy `_data` of global data): no site's.
      return [];
    }
  });
}
