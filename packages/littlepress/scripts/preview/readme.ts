// The two pictures in the README: the desk as a visitor sees it, and one
// edition as the printer prints it. Only a screenshot of a URL: nothing here
// depends on the desk's markup.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";

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
