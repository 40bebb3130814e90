// Renders editions in headless Chromium as a print key does on sirius: the
// edition is fetched as the sender fetches it (or given as sirius receives
// it), pasted into sirius's own page (sirius-page.ts), written to a temporary
// file and opened from there (file://, so relative URLs load nothing, as on
// the printer), 384 px wide, one device pixel per CSS pixel, the whole length
// of the page (cut at sirius's 10,000 px). Every step is bounded in time, so
// a page that hangs is reported, never waited on.
//
// An edition is a page from anyone, and the tools render it at home, beside
// printers that take raw bytes on port 9100. So the page may load only itself
// and its publication's own images, styles and fonts: every request of the
// browser context is routed here, and those are fetched by the kit's checked
// fetch (lib/platform/printers/print-key-client.ts: the edition's origin only, public
// addresses unless the user wrote a private one, no redirect, replies capped in
// size and time) and handed to Chromium, which connects nowhere itself; every
// other request is refused (another origin, file: URLs but the page's own,
// scripts' fetch, beacons, navigations, popups, downloads, service workers).
// WebSockets, which routes do not see, go to a proxy of ours that closes them.
// Scripts run, as in sirius's browser: an edition laid out by a script prints
// as it would on sirius, and with every request refused a script can reach
// nothing; it can only spend time, which is bounded, and memory, which is
// bounded too (memory-ceiling.ts): past its ceiling the page is stopped.
import { availableParallelism } from "node:os";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import iconv from "iconv-lite";
import type { Browser, BrowserContext, CDPSession, Page, Request, Route } from "playwright-core";
import { charsetOf, decodeHtml } from "../../lib/model/charset.ts";
import { MAX_PRINT_HEIGHT_PX } from "../../lib/model/bilevel.ts";
import { PAPER_WIDTH_PX } from "../../lib/model/paper.ts";
import { AssetLoader, type AssetReply, type RenderOptions, type SiteFiles } from "./assets.ts";
import { firstLine } from "./errors.ts";
import { MemoryCeiling, PAGE_MEMORY_MIB } from "./memory-ceiling.ts";
import { siriusPage, type PrintHeader } from "./sirius-page.ts";

/** The most renders at once on any machine: past it a run is bounded by other things, and holds more renderers. */
export const MAX_AT_ONCE = 4;

/**
 * Renders at once on a machine with `cores` cores: one a core (a render keeps a core busy; more only take turns
 * on the cores, each holding a renderer's memory the while), at most MAX_AT_ONCE.
 */
export const rendersAtOnce = (cores = availableParallelism()) => Math.max(1, Math.min(cores, MAX_AT_ONCE));

/** sirius cuts every print at this length. */
export const MAX_HEIGHT = MAX_PRINT_HEIGHT_PX;
/** How long a page may take to load, and then to be measured and captured. */
export const PAGE_TIMEOUT_MS = 20_000;
/** What a page may load besides itself: its images, styles and fonts (GET only). */
const ASSET_TYPES = new Set(["image", "stylesheet", "font"]);
export { MAX_ASSETS, MAX_ASSET_BYTES, type RenderOptions } from "./assets.ts";

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
   * Requests that loaded nothing: refused (another origin, a file, a script's
   * request, a navigation; see RenderOptions) or failed through the checked fetch.
   */
  blocked: string[];
  /** Relative URLs of the edition: opened from a file, the printer finds nothing there. */
  relative: string[];
}

/** The page could not be rendered; the message is a sentence fragment about the page. */
export class RenderError extends Error {
  /** The page ran out of its time: on a busy machine, perhaps only for now (publication-preview.ts tries again). */
  timedOut = false;

  /** A page stopped at its memory ceiling, said in the same words by either renderer (Chromium's, PhantomJS). */
  static overMemory(ceilingMiB: number): RenderError {
    return new RenderError(`used more than ${ceilingMiB} MiB of memory`);
  }

  /** A page that did not load in its time, said in the same words by either renderer. */
  static late(timeoutMs: number): RenderError {
    return Object.assign(new RenderError(lateWords(timeoutMs)), { timedOut: true });
  }

  /** Whether a message kept as text (a summary row's) says a page ran out of its time. */
  static saysLate(message: string): boolean {
    return message.includes(`${LATE} `);
  }
}

/**
 * Renders pages, answering every request of its browser context itself (see
 * the top of this file). With a site (the preview, verify), editions link
 * their images by the site's public address (or http://127.0.0.1:8080 in a
 * local build), so an image, style or font at any http(s) URL is answered from
 * the built site's files when it has that path; else the local server's
 * origin is asked through the checked fetch, and the rest is refused: nothing
 * leaves the machine. Without a site (print, print-server, the sirius
 * stand-in), the render's origin decides (RenderOptions).
 */
export class PaperRenderer {
  private page: Page | undefined;
  /** While openPage opens the renderer's page: any other page is a popup. */
  private opening = false;
  private blocked: string[] = [];
  private relative: string[] = [];
  /** The one file: URL the page may load (itself), and its HTML. */
  private pageFile = "";
  private pageHtml = "";
  /** The current render's loads (assets.ts). */
  private assets: AssetLoader;
  /** Whether the page's renderer ended under it (killed for its memory, or out of memory). */
  private crashed = false;
  /** The page's own DevTools session, where its renderer's memory is asked (opened once a page). */
  private pageSession: Promise<CDPSession> | undefined;

  private constructor(
    private readonly context: BrowserContext,
    private readonly site: SiteFiles | undefined,
    private readonly timeoutMs: number,
    /** A folder of our own, where the page to print is written, as sirius writes it to a temporary file. */
    private readonly folder: string,
    /** The paper's width in dots: 384 (sirius, 58 mm ESC/POS printers) or 576 (80 mm). */
    readonly width: number,
    /** The proxy that closes every connection, where what no route sees (WebSockets) is sent. */
    private readonly deadEnd: Server,
    private readonly memory: MemoryCeiling,
  ) {
    this.assets = new AssetLoader(site, timeoutMs);
  }

  static async open(
    browser: Browser,
    site: SiteFiles | undefined,
    timeoutMs = PAGE_TIMEOUT_MS,
    width = PAPER_WIDTH_PX,
    /** The most memory the page's renderer may hold, in MiB (memory-ceiling.ts). */
    memoryMiB = PAGE_MEMORY_MIB,
  ): Promise<PaperRenderer> {
    const deadEnd = await listenDeadEnd();
    const port = (deadEnd.address() as { port: number }).port;
    // Loaded in a viewport 1 px tall, a page's scroll height is the length of its content.
    const opened = browser.newContext({
      viewport: { width, height: 1 },
      deviceScaleFactor: 1,
      serviceWorkers: "block",
      acceptDownloads: false,
      // "<-loopback>": this machine's addresses go through the proxy too.
      proxy: { server: `http://127.0.0.1:${port}`, bypass: "<-loopback>" },
    });
    const late = `could not be rendered: Chromium did not answer in ${seconds(timeoutMs)}`;
    const context = await bounded(opened, timeoutMs, late).catch((error: unknown) => {
      deadEnd.close();
      throw error;
    });
    const folder = await mkdtemp(path.join(tmpdir(), "littlepress-print-"));
    const memory = new MemoryCeiling(browser, memoryMiB);
    const renderer = new PaperRenderer(context, site, timeoutMs, folder, width, deadEnd, memory);
    await context.route("**/*", (route) => renderer.route(route));
    // A popup is closed at once (its requests are refused like the page's); only openPage opens pages.
    context.on("page", (page) => {
      if (!renderer.opening) void page.close().catch(() => undefined);
    });
    return renderer;
  }

  /**
   * Fetches the edition at `url` and renders it as sirius prints it, under
   * `header`; rejects with a RenderError when it does not load in time or
   * answers anything but 200.
   */
  async render(url: string, header: PrintHeader): Promise<Render> {
    return this.renderPage(siriusPage(await this.fetch(url), header), { origin: url });
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
  renderHtml(html: string, header: PrintHeader, options: RenderOptions = {}): Promise<Render> {
    return this.renderPage(siriusPage(html, header), options);
  }

  /**
   * Renders a page already pasted into sirius's (siriusPage), as render() does;
   * with a site, its images come from the site (see the class).
   */
  async renderPage(printed: string, options: RenderOptions = {}): Promise<Render> {
    const page = await this.inTime(this.openPage(), "could not be opened");
    this.blocked = [];
    this.relative = [];
    this.assets = new AssetLoader(this.site, this.timeoutMs, options);
    this.crashed = false;
    const stopWatching = this.memory.watch();
    try {
      await this.inTime(this.memory.limitNew(), "could not be given its memory limit");
      const file = path.join(this.folder, "print.html");
      await writeFile(file, printed);
      this.pageFile = pathToFileURL(file).href;
      this.pageHtml = printed;
      const loaded = await bounded(
        load(page, this.pageFile, this.timeoutMs, this.width),
        this.timeoutMs + 1000,
        lateWords(this.timeoutMs),
      );
      const render = await bounded(
        capture(page, loaded, this.timeoutMs, this.width),
        this.timeoutMs,
        `could not be captured in ${seconds(this.timeoutMs)}`,
      );
      await this.inTime(this.overMemory(page), "could not have its memory measured");
      return { ...render, blocked: [...new Set(this.blocked)], relative: [...new Set(this.relative)] };
    } catch (error) {
      const why = await this.whyFailed(error, page);
      await this.closePage(); // a page that hung is not reused
      throw why;
    } finally {
      stopWatching();
    }
  }

  /** Throws a RenderError when the page was killed for its memory, or holds more than the ceiling. */
  private async overMemory(page: Page): Promise<void> {
    // Every render watches all of the browser's renderers (memory-ceiling.ts): one killed past the ceiling may be
    // another page's, rendered at the same time (the home print server renders two at once). Only this page's
    // own renderer gone says that this page was stopped; or its own renderer holding more than the ceiling.
    const killed = (await this.memory.check()) && !(await answers(page));
    if (killed || (await this.pageOver(page))) throw RenderError.overMemory(this.memory.ceilingMiB);
  }

  /** Whether the page's own renderer holds more than the ceiling, asked through its DevTools session (one a page). */
  private async pageOver(page: Page): Promise<boolean> {
    this.pageSession ??= page.context().newCDPSession(page);
    return this.memory.pageOver(await this.pageSession);
  }

  /**
   * `work`, a call to Chromium around the page's load and capture, bounded like them: a browser that does not
   * answer (on a starved machine, or busy with a page that allocates without end) fails the render, never hangs it.
   */
  private inTime<T>(work: Promise<T>, what: string): Promise<T> {
    return bounded(work, this.timeoutMs, `${what}: Chromium did not answer in ${seconds(this.timeoutMs)}`);
  }

  /** What a render that failed with `error` reports: a page stopped for its memory says so, whatever failed after. */
  private async whyFailed(error: unknown, page: Page): Promise<unknown> {
    // Killed for its memory; or ended under the kernel's limit, as V8 does when its heap reaches it.
    if (this.memory.tripped || (this.crashed && this.memory.limiting))
      return RenderError.overMemory(this.memory.ceilingMiB);
    if (this.crashed) return new RenderError("stopped Chromium's renderer (out of memory, or a fault in Chromium)");
    if (await this.heldTooMuch(page)) return RenderError.overMemory(this.memory.ceilingMiB);
    return error;
  }

  /**
   * Whether a page whose render failed did so for its memory, though its renderer goes on: it holds more than the
   * ceiling itself, as a page still filling memory when its time runs out may (touching memory is slow: 64 MiB took
   * 0.25 s here, unloaded); or it does not answer, held at the kernel's limit, collecting garbage or busy, after a
   * renderer held more than the ceiling (memory-ceiling.ts). Another page, rendered at once, may be the one that held
   * it: this page answers, and holds less.
   */
  private async heldTooMuch(page: Page): Promise<boolean> {
    if (!(await bounded(answers(page), 1000, "").catch(() => false))) return this.memory.reached;
    return bounded(this.pageOver(page), 1000, "").catch(() => false);
  }

  async close(): Promise<void> {
    await bounded(this.context.close(), 10_000, "").catch(() => undefined);
    await new Promise<void>((done) => this.deadEnd.close(() => done()));
    await bounded(this.memory.close(), 10_000, "").catch(() => undefined);
    await rm(this.folder, { recursive: true, force: true });
  }

  private async openPage(): Promise<Page> {
    if (this.page) return this.page;
    this.opening = true;
    const page = await this.context.newPage().finally(() => (this.opening = false));
    page.setDefaultTimeout(this.timeoutMs);
    // A page whose renderer ended is never reused: the next render opens another.
    page.once("crash", () => {
      this.crashed = true;
      if (this.page === page) [this.page, this.pageSession] = [undefined, undefined];
      void page.close().catch(() => undefined);
    });
    this.page = page;
    return page;
  }

  private async closePage(): Promise<void> {
    const page = this.page;
    this.page = undefined;
    this.pageSession = undefined;
    if (page) await bounded(page.close(), 5000, "").catch(() => undefined);
  }

  /** Every request of the context: the page itself, its allowed assets fetched here, nothing else. */
  private async route(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    try {
      if (url === this.pageFile && topNavigation(request))
        // The page, from what was written (and nothing else of the folder is ever read).
        return await route.fulfill({
          status: 200,
          contentType: "text/html; charset=utf-8",
          headers: { "Content-Security-Policy": PAGE_POLICY },
          body: this.pageHtml,
        });
      const reply = await this.asset(request);
      if (reply) return await route.fulfill(reply);
      this.refused(url);
      // A navigation answered 204 is no navigation: a meta refresh or a frame stays where it was.
      if (request.resourceType() === "document") return await route.fulfill({ status: 204 });
      return await route.abort("blockedbyclient");
    } catch {
      // The page closed under the route, or the answer failed: refused, if anything is still waiting.
      await route.abort("blockedbyclient").catch(() => undefined);
    }
  }

  /** An asset that may load, fetched: a GET of an image, style or font that the render's loader allows. */
  private async asset(request: Request): Promise<AssetReply | undefined> {
    if (request.method() !== "GET" || !ASSET_TYPES.has(request.resourceType())) return undefined;
    return this.assets.get(request.url(), request.headers().accept ?? "*/*");
  }

  private refused(url: string): void {
    if (url.startsWith("file:")) {
      // A relative URL resolves next to the temporary file, where there is nothing.
      if (url.startsWith(pathToFileURL(this.folder).href + "/")) this.relative.push(relativePart(url, this.folder));
      else this.blocked.push(url);
    } else if (!url.startsWith("data:") && !url.startsWith("blob:")) this.blocked.push(url);
  }
}

/**
 * Whether the page's renderer still runs scripts: false at once when it was killed (a renderer that hangs is the
 * caller's bound to catch).
 */
async function answers(page: Page): Promise<boolean> {
  return page
    .evaluate(() => true)
    .then(
      () => true,
      () => false,
    );
}

/** Whether `request` is the page's own load (not a frame's, not a worker's). */
function topNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    return false; // a worker's request has no frame
  }
}

/**
 * The page's own policy, behind the routes: no connection from a script
 * (fetch, beacons, WebSockets), no workers, no plugins, no form sent anywhere.
 */
const PAGE_POLICY = "connect-src 'none'; worker-src 'none'; object-src 'none'; form-action 'none'; base-uri 'none'";

/** A proxy on this machine that closes every connection: the renderer's way out, which leads nowhere. */
function listenDeadEnd(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve(server);
    });
  });
}

/** The edition's HTML as the sender gets it: a GET that must answer 200, read in the charset it names. */
export async function fetchEdition(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  let body: ArrayBuffer;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    body = await response.arrayBuffer();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") throw RenderError.late(timeoutMs);
    throw new RenderError(`could not be loaded: ${firstLine(error)}`);
  }
  if (response.status !== 200) {
    const reason = response.headers.get("x-littlepress-reason");
    throw new RenderError(`answered ${response.status} instead of 200${reason ? ` (${reason})` : ""}`);
  }
  return decodeHtml(new Uint8Array(body), charsetOf(response.headers.get("content-type") ?? ""), iconv);
}

/** Loads the page, and measures it once its fonts are ready (a font that never loads is a page that did not). */
async function load(page: Page, url: string, timeoutMs: number, width: number): Promise<Size> {
  await page.setViewportSize({ width, height: 1 });
  try {
    await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
  } catch (error) {
    if (/timeout/i.test(firstLine(error))) throw RenderError.late(timeoutMs);
    throw new RenderError(`could not be loaded: ${firstLine(error)}`);
  }
  return measure(page, "fonts");
}

/** What the edition wrote, as near as can be told: the failed file URL less the temporary folder. */
export function relativePart(url: string, folder: string): string {
  const base = pathToFileURL(folder).href + "/";
  return url.startsWith(base) ? url.slice(base.length) : url;
}

async function capture(
  page: Page,
  loaded: Size,
  timeoutMs: number,
  width: number,
): Promise<Omit<Render, "blocked" | "relative">> {
  // Make the viewport as tall as the page, so that what is measured is what is
  // captured; wait for images it now shows; measure again until the length settles.
  // (Each wait and its measure are one call into the page: a page costs a few
  // milliseconds a call, and verify renders hundreds.)
  let m = loaded;
  for (let round = 0; round < 3; round++) {
    await page.setViewportSize({ width, height: clampHeight(m.height) });
    const again = await measure(page, "images");
    const settled = again.height === m.height;
    m = again;
    if (settled) break;
  }
  // The viewport is the page's length, cut at MAX_HEIGHT: the screenshot is of
  // the viewport alone, so a page 200,000 px long costs no more than one of 10,000.
  const png = await page.screenshot({
    clip: { x: 0, y: 0, width, height: clampHeight(m.height) },
    timeout: timeoutMs,
    animations: "disabled",
    caret: "hide",
  });
  return { png, heightPx: m.height, wider: m.width > width };
}

const clampHeight = (height: number) => Math.max(1, Math.min(height, MAX_HEIGHT));

/** A page's length and width, in CSS pixels. */
interface Size {
  height: number;
  width: number;
}

/** The page's length and width, once its fonts are ready, or once the images it shows now have loaded (or failed). */
function measure(page: Page, after: "fonts" | "images"): Promise<Size> {
  return page.evaluate(async (waitFor) => {
    if (waitFor === "fonts") await document.fonts.ready;
    else
      await Promise.all(
        [...document.images]
          .filter((img) => !img.complete)
          .map(
            (img) =>
              new Promise((done) => {
                img.addEventListener("load", done, { once: true });
                img.addEventListener("error", done, { once: true });
              }),
          ),
      );
    const root = document.documentElement;
    return {
      height: Math.ceil(Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0)),
      width: Math.ceil(Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0)),
    };
  }, after);
}

export const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** A late page's words, in one place: verify's summary recognises them in its rows (RenderError.saysLate). */
const LATE = "did not load in";
const lateWords = (timeoutMs: number) => `${LATE} ${seconds(timeoutMs)}`;

/** `work`, or a RenderError with `message` once `ms` have passed. */
function bounded<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderError(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
