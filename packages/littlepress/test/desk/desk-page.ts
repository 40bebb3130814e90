// Shared pieces of the desk's browser tests: the worker's Chromium, a fresh
// context (own localStorage) per test, and a record of every request
// the pages make, so a test can check that none left the local server.
import { afterAll, beforeAll } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { workerBrowser } from "../helpers/browser.ts";

export interface DeskBrowser {
  /** A new page in a fresh context; every request it makes is recorded in `requests`. */
  open(
    path: string,
    options?: {
      timezoneId?: string;
      viewport?: { width: number; height: number };
      before?: (page: Page) => Promise<unknown>;
    },
  ): Promise<Page>;
  /** Every request made, and whether the desk page itself made it (not an edition in a strip). */
  readonly requests: { url: string; byDesk: boolean }[];
  /** Uncaught errors in the pages' scripts. */
  readonly errors: string[];
}

export function withBrowser(server: { readonly url: string }): DeskBrowser {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const requests: { url: string; byDesk: boolean }[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await workerBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  });
  return {
    requests,
    errors,
    async open(path, options = {}) {
      if (!browser) throw new Error("the browser starts in beforeAll");
      const context = await browser.newContext({
        locale: "en-US",
        viewport: options.viewport ?? { width: 1280, height: 900 },
        timezoneId: options.timezoneId ?? "America/New_York",
      });
      contexts.push(context);
      const page = await context.newPage();
      context.on("request", (r) => requests.push({ url: r.url(), byDesk: r.frame() === page.mainFrame() }));
      await options.before?.(page);
      page.on("pageerror", (error) => errors.push(`${path}: ${error.message}`));
      await page.goto(server.url + path);
      return page;
    },
  };
}

/** Waits until the page has read meta.json and built its form and simulator. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector("main[data-ready='true']");
}

/** Fills the simulator's inputs that exist on the page and plays the deliveries. */
export async function play(
  page: Page,
  options: { start?: string; tz?: string; count?: number; days: number },
): Promise<void> {
  if (options.start !== undefined) await page.fill("#sim-start", options.start);
  if (options.tz !== undefined) await page.fill("#sim-tz", options.tz);
  if (options.count !== undefined) await page.fill("#sim-count", String(options.count));
  await page.fill("#sim-days", String(options.days));
  await page.click("#sim-run");
  await page.waitForSelector("#sim-status.notice-ok, #sim-status.notice-end");
  // every printed strip has loaded its edition and been sized to it
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLIFrameElement>("iframe.paper-strip")].every(
      (f) => f.dataset.fitted !== undefined,
    ),
  );
}

export interface DayRow {
  status: string;
  prints: string;
  url: string;
  etag: string;
}

/** The simulator's log, one row per day played. */
export function days(page: Page): Promise<DayRow[]> {
  return page.$$eval("#sim-days-log > li[data-day]", (items) =>
    items.map((li) => ({
      status: (li as HTMLElement).dataset.status ?? "",
      prints: (li as HTMLElement).dataset.prints ?? "",
      url: li.querySelector(".request-url")?.textContent ?? "",
      etag: li.querySelector(".day-etag")?.textContent ?? "",
    })),
  );
}

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(12, 16).toString("latin1") !== "IHDR") throw new Error("not a PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
