// Where the functions find the built site.
import path from "node:path";
import type { PrintKeyOrigin } from "../model/print-key.ts";

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

/** The built site's folder name in the project (netlify.toml's publish). */
const PUBLISHED = "_site";

/** The deployed site, worked out once per function module: its working folder and environment do not change. */
let deployed: string | undefined;

/**
 * The built site for a request: the one the caller names (the local server, the tests), else the deployed one
 * beside the function. The one way a handler finds its site (the platform's through its runtime). Under
 * `npm start`, what was read of an earlier build of it is forgotten first (readingBuild).
 */
export function siteFor(context: ServeContext | undefined): string {
  const local = context?.littlepress;
  if (local?.site === undefined) return (deployed ??= deployedSite());
  if (local.build !== undefined) readingBuild(local.site, local.build);
  return local.site;
}

/**
 * The deployed site: `_site/` in the working directory, which is where Netlify
 * puts the included_files beside the function. LITTLEPRESS_SITE_DIR names
 * another one to a process that runs the functions as Netlify does but on a
 * site built elsewhere (netlify dev in the parity test); nothing of ours sets
 * it. The folder's name is a parameter: Netlify's bundler (its file tracer, on
 * the package's compiled code) follows a path it can work out from constants
 * and would pack the whole site into every function; from a parameter it packs
 * only netlify.toml's included_files. .ci/tests/netlify.test.ts checks every
 * file of each bundle a real `netlify serve` makes.
 */
export function deployedSite(published = PUBLISHED): string {
  return process.env.LITTLEPRESS_SITE_DIR ?? path.resolve(process.cwd(), published);
}
