// Renders editions in headless Chromium as a print key does on sirius: the
// edition is fetched as the sender fetches it (or given as sirius receives
// it), pasted into sirius's own page (sirius-page.ts), written to a temporary
// file and opened from there (file://, so relative URLs load nothing, as on
// the printer), 384 px wide, one device pixel per CSS pixel, the whole length
// of the page. Every step is bounded in time, so a page that hangs is
// reported, never waited on.
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import iconv from "iconv-lite";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { charsetOf, decodeHtml } from "../../lib/model/charset.ts";
import { MAX_PRINT_HEIGHT_PX } from "../../lib/model/bilevel.ts";
import { PAPER_WIDTH_PX } from "../../lib/model/paper.ts";
import { DATA_DIR } from "../../lib/model/site-paths.ts";
import { firstLine } from "./errors.ts";
import { siriusPage, type PrintHeader } from "./sirius-page.ts";

/** sirius cuts every print at this length. */
export const MAX_HEIGHT = MAX_PRINT_HEIGHT_PX;
/** How long a page may take to load, and then to be measured and captured. */
export const PAGE_TIMEOUT_MS = 20_000;

export interface Render {
  /**
   * Full-page screenshot of the sirius page, the paper's width (PAPER_WIDTH_PX unless told),
   * at most MAX_HEIGHT long.
   */
  png: Buffer;
  /** The page's length in pixels, sirius's header and margins included (the screenshot stops at MAX_HEIGHT). */
  heightPx: number;
  /** Whether the page is wider than the paper (the screenshot keeps the left PAPER_WIDTH_PX px). */
  wider: boolean;
  /**
   * Requests that loaded nothing: with a site, those to other hosts, which
   * were not made (this machine has no network), e.g. a remote image; without
   * one, those that failed (nothing answered).
   */
  blocked: string[];
  /** Relative URLs of the edition: opened from a file, the printer finds nothing there. */
  relative: string[];
}

/** The page could not be rendered; the message is a sentence fragment about the page. */
export class RenderError extends Error {}

/**
 * Renders pages of a locally served site. Editions link their images by the
 * site's public address (or http://127.0.0.1:8080 in a local build), so any
 * http(s) request that is not for the local server is answered from the built
 * site's files when it has that path, and refused otherwise: nothing leaves
 * the machine and nothing waits on a network that is not there.
 * Without a site (the local stand-in for sirius, scripts/sirius.ts), a page
 * loads what it links as it would on sirius, and what fails is reported.
 */
export class PaperRenderer {
  private page: Page | undefined;
  private blocked: string[] = [];
  private relative: string[] = [];

  private constructor(
    private readonly context: BrowserContext,
    private readonly site: { dir: string; url: string } | undefined,
    private readonly timeoutMs: number,
    /** A folder of our own, where the page to print is written, as sirius writes it to a temporary file. */
    private readonly folder: string,
    /** The paper's width in dots: 384 (sirius, 58 mm ESC/POS printers) or 576 (80 mm). */
    readonly width: number,
  ) {}

  static async open(
    browser: Browser,
    site: { dir: string; url: string } | undefined,
    timeoutMs = PAGE_TIMEOUT_MS,
    width = PAPER_WIDTH_PX,
  ): Promise<PaperRenderer> {
    // Loaded in a viewport 1 px tall, a page's scroll height is the length of its content.
    const context = await browser.newContext({ viewport: { width, height: 1 }, deviceScaleFactor: 1 });
    const folder = await mkdtemp(path.join(tmpdir(), "littlepress-print-"));
    return new PaperRenderer(context, site, timeoutMs, folder, width);
  }

  /**
   * Fetches the edition at `url` and renders it as sirius prints it, under
   * `header`; rejects with a RenderError when it does not load in time or
   * answers anything but 200.
   */
  async render(url: string, header: PrintHeader): Promise<Render> {
    return this.renderPage(siriusPage(await this.fetch(url), header));
  }

  /** The edition at `url`, as the sender fetches it (a RenderError unless it answers 200 in time). */
  fetch(url: string): Promise<string> {
    return fetchEdition(url, this.timeoutMs);
  }

  /**
   * Renders an edition's HTML as sirius prints it, under `header` (the local
   * stand-in for sirius, scripts/sirius.ts); rejects with a RenderError when it
   * does not load or cannot be captured in time.
   */
  renderHtml(html: string, header: PrintHeader): Promise<Render> {
    return this.renderPage(siriusPage(html, header));
  }

  /** Renders a page already pasted into sirius's (siriusPage), as render() does. */
  async renderPage(printed: string): Promise<Render> {
    const page = await this.openPage();
    this.blocked = [];
    this.relative = [];
    try {
      const file = path.join(this.folder, "print.html");
      await writeFile(file, printed);
      await bounded(
        load(page, pathToFileURL(file).href, this.timeoutMs, this.width),
        this.timeoutMs + 1000,
        `did not load in ${seconds(this.timeoutMs)}`,
      );
      const render = await bounded(
        capture(page, this.timeoutMs, this.width),
        this.timeoutMs,
        `could not be captured in ${seconds(this.timeoutMs)}`,
      );
      return { ...render, blocked: [...new Set(this.blocked)], relative: [...new Set(this.relative)] };
    } catch (error) {
      await this.closePage(); // a page that hung is not reused
      throw error;
    }
  }

  async close(): Promise<void> {
    await bounded(this.context.close(), 10_000, "").catch(() => undefined);
    await rm(this.folder, { recursive: true, force: true });
  }

  private async openPage(): Promise<Page> {
    if (this.page) return this.page;
    const page = await this.context.newPage();
    page.setDefaultTimeout(this.timeoutMs);
    const site = this.site;
    if (site) {
      const local = new URL(site.url).origin;
      await page.route(
        (u) => (u.protocol === "http:" || u.protocol === "https:") && u.origin !== local,
        (route) => this.elsewhere(site.dir, route),
      );
    }
    page.on("requestfailed", (request) => {
      const url = request.url();
      // A relative URL resolves next to the temporary file, where there is nothing.
      if (url.startsWith("file:") && !url.endsWith("/print.html")) this.relative.push(relativePart(url, this.folder));
      // With a site, what is refused is counted where it is refused.
      else if (!site && /^https?:/.test(url)) this.blocked.push(url);
    });
    this.page = page;
    return page;
  }

  private async closePage(): Promise<void> {
    const page = this.page;
    this.page = undefined;
    if (page) await bounded(page.close(), 5000, "").catch(() => undefined);
  }

  private async elsewhere(dir: string, route: Route): Promise<void> {
    const url = route.request().url();
    const file = await siteFile(dir, new URL(url).pathname);
    if (file) return route.fulfill({ path: file });
    this.blocked.push(url);
    return route.abort("blockedbyclient");
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

/** The edition's HTML as the sender gets it: a GET that must answer 200, read in the charset it names. */
async function fetchEdition(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  let body: ArrayBuffer;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    body = await response.arrayBuffer();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError")
      throw new RenderError(`did not load in ${seconds(timeoutMs)}`);
    throw new RenderError(`could not be loaded: ${firstLine(error)}`);
  }
  if (response.status !== 200) {
    const reason = response.headers.get("x-littlepress-reason");
    throw new RenderError(`answered ${response.status} instead of 200${reason ? ` (${reason})` : ""}`);
  }
  return decodeHtml(new Uint8Array(body), charsetOf(response.headers.get("content-type") ?? ""), iconv);
}

async function load(page: Page, url: string, timeoutMs: number, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 1 });
  try {
    await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
  } catch (error) {
    if (/timeout/i.test(firstLine(error))) throw new RenderError(`did not load in ${seconds(timeoutMs)}`);
    throw new RenderError(`could not be loaded: ${firstLine(error)}`);
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** What the edition wrote, as near as can be told: the failed file URL less the temporary folder. */
function relativePart(url: string, folder: string): string {
  const base = pathToFileURL(folder).href + "/";
  return url.startsWith(base) ? url.slice(base.length) : url;
}

async function capture(page: Page, timeoutMs: number, width: number): Promise<Omit<Render, "blocked" | "relative">> {
  // Make the viewport as tall as the page, so that what is measured is what is
  // captured; wait for images it now shows; measure again until the length settles.
  let m = await measure(page);
  for (let round = 0; round < 3; round++) {
    await page.setViewportSize({ width, height: clampHeight(m.height) });
    await page.evaluate(() =>
      Promise.all(
        [...document.images]
          .filter((img) => !img.complete)
          .map(
            (img) =>
              new Promise((done) => {
                img.addEventListener("load", done, { once: true });
                img.addEventListener("error", done, { once: true });
              }),
          ),
      ),
    );
    const again = await measure(page);
    const settled = again.height === m.height;
    m = again;
    if (settled) break;
  }
  const png = await page.screenshot({
    fullPage: true,
    clip: { x: 0, y: 0, width, height: clampHeight(m.height) },
    timeout: timeoutMs,
    animations: "disabled",
    caret: "hide",
  });
  return { png, heightPx: m.height, wider: m.width > width };
}

const clampHeight = (height: number) => Math.max(1, Math.min(height, MAX_HEIGHT));

function measure(page: Page): Promise<{ height: number; width: number }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    return {
      height: Math.ceil(Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0)),
      width: Math.ceil(Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0)),
    };
  });
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** `work`, or a RenderError with `message` once `ms` have passed. */
function bounded<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderError(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
