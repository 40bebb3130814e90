// The Little Printer renderer draws with sirius's fonts, whatever the machine
// has: "Sunday 29 November", bold 30 px, is 357 px wide in DejaVu Sans and
// 305 px in the Liberation Sans Chromium picks on Debian. In a box 340 px wide
// it takes two lines in PhantomJS, as on sirius, where Chromium keeps it on
// one; and naming Liberation Sans, which this machine has and sirius has not,
// draws what a family no one has draws.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PhantomRenderer } from "../../scripts/preview/phantom.ts";
import { printDots } from "../../scripts/preview/print-image.ts";
import { PaperRenderer } from "../../scripts/preview/render.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { PAGE_MS } from "../helpers/page-time.ts";

const header = { at: new Date("2026-11-29T06:00:00Z"), from: "Fonts", timeZone: "UTC" };
const heading = (family: string) =>
  `<div style="width: 340px; font: bold 30px ${family}; line-height: 40px; margin-top: 40px">Sunday 29 November</div>`;

let browser: Browser;
let phantom: PhantomRenderer;
beforeAll(async () => {
  browser = await workerBrowser();
  phantom = await PhantomRenderer.open();
}, 60_000);
afterAll(() => phantom.close());

/** Bands of rows with ink, top to bottom: the header's line, then each line of the heading. */
async function inkBands(png: Buffer): Promise<number> {
  const dots = await printDots(png);
  let bands = 0;
  let inBand = false;
  for (let y = 0; y < dots.height; y++) {
    const row = dots.data.subarray(y * dots.width, (y + 1) * dots.width);
    const ink = row.includes(0);
    if (ink && !inBand) bands++;
    inBand = ink;
  }
  return bands;
}

describe("sirius's fonts in PhantomJS", () => {
  it("wraps a bold 30 px heading that Chromium keeps on one line: the font is DejaVu Sans, wider", async () => {
    const chromium = await PaperRenderer.open(browser, undefined, PAGE_MS);
    try {
      const wide = await phantom.renderHtml(heading("Helvetica, Arial, sans-serif"), header);
      const narrow = await chromium.renderHtml(heading("Helvetica, Arial, sans-serif"), header);
      expect(await inkBands(wide.png)).toBe(1 + 2);
      expect(await inkBands(narrow.png)).toBe(1 + 1);
      expect(wide.heightPx).toBeGreaterThanOrEqual(narrow.heightPx + 40);
    } finally {
      await chromium.close();
    }
  }, 60_000);

  it("draws a font the machine has, but sirius has not, as a font no one has", async () => {
    // Without our fontconfig file PhantomJS would find this machine's Liberation Sans (305 px, bold); QtWebKit
    // draws a family it cannot find in its standard font, Times, which is DejaVu Serif on sirius (358 px, bold).
    const named = await phantom.renderHtml(heading("'Liberation Sans'"), header);
    const unknown = await phantom.renderHtml(heading("'No Such Font'"), header);
    expect(await inkBands(named.png)).toBe(1 + 2);
    expect((await printDots(named.png)).data).toEqual((await printDots(unknown.png)).data);
  }, 60_000);

  it("prints a character no DejaVu font has as nothing, where Chromium draws something", async () => {
    const blank = await phantom.renderHtml('<p style="font-size: 60px">日</p>', header);
    const space = await phantom.renderHtml('<p style="font-size: 60px">&nbsp;</p>', header);
    expect((await printDots(blank.png)).data).toEqual((await printDots(space.png)).data);
  }, 60_000);
});
