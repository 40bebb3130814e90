// The two pictures in the README: the desk as a visitor sees it (in Chromium),
// and one edition as the printer prints it. Only a screenshot of a URL:
// nothing here depends on the desk's markup.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";
import { packageFile } from "../../lib/build/package-files.ts";
import { CHROMIUM, launchChromium } from "../browser.ts";
import { firstLine, PreviewError } from "./errors.ts";
import type { PhantomRenderer } from "./phantom.ts";
import { printImage } from "./print-image.ts";
import { editionUrl, printHeader, type Target } from "./targets.ts";

/** Which desk page the README shows. */
export const DESK_PAGE = "/";

export async function writeReadmeImages(
  browser: Browser,
  baseUrl: string,
  docsDir: string,
  strip: Buffer,
  timeoutMs: number,
): Promise<string[]> {
  await mkdir(docsDir, { recursive: true });
  const desk = path.join(docsDir, "desk.png");
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(baseUrl + DESK_PAGE, { waitUntil: "networkidle", timeout: timeoutMs });
    await page.screenshot({ path: desk, timeout: timeoutMs, animations: "disabled", caret: "hide" });
  } finally {
    await context.close();
  }
  const stripFile = path.join(docsDir, "preview-strip.png");
  await writeFile(stripFile, strip);
  return [desk, stripFile];
}

/** The desk screenshot and the strip for the README, in the Chromium lent or one started for them. */
export async function readmeImages(
  options: { browser?: Browser; docsDir?: string },
  url: string,
  strip: Buffer,
  timeoutMs: number,
) {
  const browser =
    options.browser ??
    (await launchChromium().catch((error: unknown) => {
      throw new PreviewError(chromiumMissing(`Chromium at ${CHROMIUM} did not start (${firstLine(error)})`));
    }));
  try {
    return await writeReadmeImages(browser, url, options.docsDir ?? packageFile("docs"), strip, timeoutMs);
  } catch (error) {
    throw new PreviewError(`the desk screenshot for the README failed: ${firstLine(error)}`);
  } finally {
    if (!options.browser) await browser.close();
  }
}

/** Renders one edition and makes it black and white as the printer does. */
export async function renderEdition(
  renderer: PhantomRenderer,
  base: string,
  target: Pick<Target, "slug" | "name" | "by">,
  key: string,
  now: Date,
) {
  const render = await renderer.render(editionUrl(base, target.slug, target.by, key), printHeader(target, key, now));
  return { ...render, png: await printImage(render.png) };
}

export const chromiumMissing = (what: string) =>
  `${what}. Install it with \`apt-get install chromium\` (or set CHROMIUM_PATH to a Chromium binary).`;
