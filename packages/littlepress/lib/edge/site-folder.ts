// Where the functions find the built site.
import path from "node:path";
import type { PrintKeyOrigin } from "../model/print-key.ts";

/**
 * What a function is handed besides the request: on Netlify its Context (which
 * names no folder), from the local server and the tests a context that names
 * the built site they serve. Its littlepress fields are ours, named so that
 * they cannot meet one of Netlify's.
 */
export interface ServeContext {
  /** The built site's folder (absolute). */
  littlepressSite?: string;
  /**
   * The folder of the subscriptions' file store (lib/platform/stores/state-setup.ts),
   * from the local server; a deployed function has none and uses Netlify Blobs.
   */
  littlepressState?: string;
  /**
   * The file of the local sealing key for littlepressState, when the local
   * server was given one (tests); none: state-setup.ts's localKeyFile, in the
   * user's config folder.
   */
  littlepressKeyFile?: string;
  /** Whether the delivery histories may be shown (the desk under `npm start`). */
  littlepressHistory?: boolean;
  /** The local server's own address; deployed, the request's origin is the site's. */
  littlepressOrigin?: string;
  /** The client's address: Netlify's Context names it `ip` too; the local server passes the socket's. */
  ip?: string;
  /** The route's named parts (`:slug`): Netlify's Context names them `params` too; so does the local server. */
  params?: Record<string, string>;
  /** The print-key services allowed, when the local server is told them (tests); else the built site's list. */
  littlepressPrintKeys?: readonly PrintKeyOrigin[];
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
 * The site's own address for the platform's runs (the delivery batches, the
 * pushes): the one the local server gives, else the one Netlify sets (URL);
 * undefined when neither is known.
 */
export function siteAddress(context: ServeContext | undefined): string | undefined {
  return context?.littlepressOrigin ?? process.env.URL;
}

/** The built site's folder name in the project (netlify.toml's publish). */
const PUBLISHED = "_site";

/** The built site for a request: the one the caller names, else the deployed one beside the function. */
export function siteFor(context: ServeContext | undefined): string {
  return context?.littlepressSite ?? deployedSite();
}

/**
 * The deployed site: `_site/` in the working directory, which is where Netlify
 * puts the included_files beside the function. LITTLEPRESS_SITE_DIR names
 * another one to a process that runs the functions as Netlify does but on a
 * site built elsewhere (netlify dev in the parity test); nothing of ours sets
 * it. Netlify's bundler traces file paths it can work out from the code and
 * would pack the whole site with the functions; the folder comes from a call
 * it cannot follow, so the bundles hold only netlify.toml's included_files.
 */
export function deployedSite(): string {
  return process.env.LITTLEPRESS_SITE_DIR ?? path.resolve(process.cwd(), publishedFolder());
}

function publishedFolder(): string {
  return [PUBLISHED][0]!;
}
