// What a rendered page may load besides itself, whichever browser renders it
// (render.ts's Chromium, phantom.ts's PhantomJS): a GET of an http(s) URL
// allowed by the render's origin, fetched here by the kit's checked fetch
// (lib/platform/printers/print-key-client.ts: no redirect, replies capped in
// size and time, private addresses only when the user wrote them), or a file
// of the built site standing for its public address. The browser connects
// nowhere itself; everything this declines is refused.
import { stat } from "node:fs/promises";
import path from "node:path";
import { DATA_DIR } from "../../lib/model/site-paths.ts";
import { EDITION_MAX_BYTES, publicationPolicy } from "../../lib/platform/printers/escpos-publication.ts";
import { askPrintKey, type PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";

/** The most assets one render loads, and their bytes together. */
export const MAX_ASSETS = 200;
export const MAX_ASSET_BYTES = 16 * 1024 * 1024;

/** Where a page's images, styles and fonts may come from. */
export interface RenderOptions {
  /**
   * The edition's URL (or its origin): only that origin is asked, through the
   * checked fetch. Without one (the sirius stand-in, which is posted HTML and
   * knows no origin), any origin at a public address, as sirius fetches from
   * the internet; never this machine or its network.
   */
  origin?: string | URL;
  /**
   * Without an origin: sites this machine's user named on purpose (the sirius
   * stand-in's --site, npm start's own address by default), whose images,
   * styles and fonts load even at a private address, as sirius loads a
   * deployed site's from the internet. Other private addresses stay refused.
   */
  ownSites?: readonly string[];
}

/** A built site whose files stand for its URL (the preview, verify). */
export interface SiteFiles {
  dir: string;
  url: string;
}

/** An asset's answer: fetched, or a file of the built site. */
export type AssetReply = { status: number; headers: Record<string, string>; body: Buffer } | { path: string };

/** One render's loads: what its origin allows, and how much it has loaded (see the top of this file). */
export class AssetLoader {
  private readonly origin: string | undefined;
  private readonly ownSites: readonly string[];
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly site: SiteFiles | undefined,
    private readonly timeoutMs: number,
    options: RenderOptions = {},
  ) {
    this.origin = options.origin ? new URL(options.origin).origin : site && new URL(site.url).origin;
    this.ownSites = options.ownSites ?? [];
  }

  /** The answer to a GET of `href`, or undefined when it may not load (refused, or failed through the fetch). */
  async get(href: string, accept = "*/*"): Promise<AssetReply | undefined> {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return undefined;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    if (url.username || url.password) return undefined;
    if (this.count >= MAX_ASSETS || this.bytes >= MAX_ASSET_BYTES) return undefined;
    this.count++;
    if (this.site) {
      // The built site's own files stand for its public address (and the local server's).
      const file = await siteFile(this.site.dir, url.pathname);
      if (file) return { path: file };
    }
    const policy = this.policyFor(url);
    if (!policy) return undefined;
    const maxBytes = Math.min(EDITION_MAX_BYTES, MAX_ASSET_BYTES - this.bytes);
    const reply = await askPrintKey(url, { method: "GET", headers: { Accept: accept } }, { ...policy, maxBytes });
    if (!("status" in reply)) return undefined;
    this.bytes += reply.body.length;
    // The status and the type only: never a Location, so a redirect leads nowhere.
    const headers: Record<string, string> = reply.contentType ? { "Content-Type": reply.contentType } : {};
    return { status: reply.status, headers, body: reply.body };
  }

  /**
   * The checked fetch's rules for `url`: its origin must be the edition's; without one, public addresses only,
   * and the user's own sites (RenderOptions.ownSites) at theirs.
   */
  private policyFor(url: URL): PrintKeyPolicy | undefined {
    if (this.origin === undefined && this.ownSites.includes(url.origin)) return publicationPolicy(url, this.timeoutMs);
    if (this.origin === undefined)
      return { allowed: [{ origin: url.origin, private: false }], timeoutMs: this.timeoutMs };
    if (url.origin !== this.origin) return undefined;
    return publicationPolicy(url, this.timeoutMs);
  }
}

/**
 * The path under `site` that a decoded URL path names, or undefined when it
 * would lead out of the site (`/../`): the renderer's guard against path
 * traversal. (Not in lib/edge, which the functions load: Netlify's bundler
 * reads its path.resolve of an unknown folder as "anything under the project"
 * and packs the whole project into every function.)
 */
function insideSite(site: string, pathname: string): string | undefined {
  const root = path.resolve(site);
  const file = path.resolve(root, `.${path.posix.normalize(`/${pathname}`)}`);
  return file === root || file.startsWith(root + path.sep) ? file : undefined;
}

/** The built site's file for a URL path, if there is one (never the functions' data). */
async function siteFile(dir: string, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const file = insideSite(dir, decoded);
  if (!file || file.startsWith(path.join(path.resolve(dir), DATA_DIR) + path.sep)) return undefined;
  return (await stat(file).catch(() => undefined))?.isFile() ? file : undefined;
}
