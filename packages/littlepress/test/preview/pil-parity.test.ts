// The preview's black and white against the printer's own: every image here
// goes through our crop and conversion (lib/model/bilevel.ts via
// scripts/preview/print-image.ts) and through Debian's python3-pil doing what
// sirius does, and the two must agree on every pixel. Images: flat greys,
// gradients, colour noise, transparency, palette PNGs, odd sizes, and real
// Chromium screenshots of text, greys and a transparent page.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertToDots, cropToPaper } from "../../lib/model/bilevel.ts";
import { decodePng } from "../../scripts/preview/print-image.ts";
import { siriusPage } from "../../scripts/preview/sirius-page.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { pilConvert, pilVersion } from "../helpers/pil.ts";

const work = path.join(".test-work", `pil-parity-${process.pid}`);

/** A deterministic pseudo-random byte source (a linear congruential generator), so a failure can be replayed. */
function bytes(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state >>> 24;
  };
}

type Channels = 1 | 2 | 3 | 4;

/** A PNG whose pixel (x, y) has the channel values f(x, y). */
function png(
  width: number,
  height: number,
  channels: Channels,
  f: (x: number, y: number) => number[],
  palette = false,
) {
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(f(x, y), (y * width + x) * channels);
  return sharp(raw, { raw: { width, height, channels } })
    .png(palette ? { palette: true, colours: 16, dither: 0 } : {})
    .toBuffer();
}

/** Images that exercise the conversion alone (any size). */
async function convertCases(): Promise<Record<string, Buffer>> {
  const noise = bytes(17);
  const alpha = bytes(29);
  const cases: Record<string, Buffer> = {
    "flat greys, one column each": await png(256, 40, 1, (x) => [x]),
    "vertical gradient": await png(64, 256, 1, (_, y) => [y]),
    "diagonal gradient in colour": await png(300, 120, 3, (x, y) => [(x * 255) / 299, (y * 255) / 119, 128]),
    "colour noise": await png(97, 61, 3, () => [noise(), noise(), noise()]),
    "grey and alpha": await png(50, 50, 2, (x, y) => [x * 5, y * 5]),
    "RGBA, alpha varying": await png(64, 64, 4, (x, y) => [x * 4, y * 4, 200, alpha()]),
    "RGBA, fully transparent black and white": await png(40, 20, 4, (x) =>
      x < 20 ? [0, 0, 0, 0] : [255, 255, 255, 0],
    ),
    "palette (thresholded, not dithered)": await png(128, 16, 3, (x) => [x * 2, x * 2, 255 - x], true),
    "1x1 mid grey": await png(1, 1, 1, () => [128]),
    "1 px wide column": await png(1, 50, 1, (_, y) => [y * 5]),
    "7x3 odd size": await png(7, 3, 3, (x, y) => [x * 36, y * 120, 77]),
    "383 px wide": await png(383, 20, 1, (x) => [(x * 7) % 256]),
  };
  return cases;
}

/** Images that go through the whole print pipeline: crop, then convert. */
async function printCases(): Promise<Record<string, Buffer>> {
  return {
    "385 px wide (one column cropped)": await png(385, 30, 3, (x, y) => [x % 256, y * 8, 90]),
    "200 px wide (PIL fills the rest with black)": await png(200, 30, 1, () => [200]),
    "10,050 px tall (cut at 10,000)": await png(384, 10_050, 1, (x, y) => [(x + y) % 256]),
  };
}

/** Chromium screenshots of pages like editions, 384 px wide, full length. */
async function screenshots(): Promise<Record<string, Buffer>> {
  const pages: Record<string, { html: string; transparent?: boolean }> = {
    "text of several sizes in the sirius page": {
      html: siriusPage(
        "<h1>Skerry Rock</h1><p>The gale blew for three days.</p><p style='font-size:20px'>Small print, 20 px.</p>" +
          "<p style='font-size:14px;color:#666'>Grey text under the advised size.</p>",
        { at: new Date(Date.UTC(2026, 10, 23, 6)), from: "The Lighthouse Cat", timeZone: "UTC" },
      ),
    },
    "grey boxes and a CSS gradient": {
      html:
        "<body style='margin:0'>" +
        [16, 64, 128, 192, 240].map((g) => `<div style='height:30px;background:rgb(${g},${g},${g})'></div>`).join("") +
        "<div style='height:120px;background:linear-gradient(90deg,#000,#fff)'></div>" +
        "<div style='height:60px;background:linear-gradient(#c33,#39c)'></div></body>",
    },
    "a transparent page with text (alpha in the screenshot)": {
      html:
        "<body style='margin:0;background:transparent;font:30px sans-serif'>" +
        "<p>Through the glass</p><div style='height:40px;background:rgba(0,0,0,0.3)'></div></body>",
      transparent: true,
    },
  };
  const browser = await workerBrowser();
  const context = await browser.newContext({ viewport: { width: 384, height: 1 }, deviceScaleFactor: 1 });
  try {
    const shots: Record<string, Buffer> = {};
    for (const [name, page] of Object.entries(pages)) {
      const tab = await context.newPage();
      await tab.setContent(page.html);
      shots[name] = await tab.screenshot({ fullPage: true, omitBackground: page.transparent ?? false });
      await tab.close();
    }
    return shots;
  } finally {
    await context.close();
  }
}

/** Writes each image to a file, runs PIL on them all at once, and compares with our dots. */
async function compare(mode: "convert" | "print", cases: Record<string, Buffer>) {
  const dir = path.join(work, mode);
  await mkdir(dir, { recursive: true });
  const names = Object.keys(cases);
  const files = names.map((_, i) => path.join(dir, `${i}.png`));
  await Promise.all(names.map((name, i) => writeFile(files[i]!, cases[name]!)));
  const sizes = await pilConvert(mode, files);
  const results = [];
  for (const [i, name] of names.entries()) {
    const decoded = await decodePng(cases[name]!);
    const ours = convertToDots(mode === "print" ? cropToPaper(decoded) : decoded);
    const theirs = await readFile(`${files[i]}.pil`);
    let differ = 0;
    for (let p = 0; p < theirs.length; p++) if (ours.data[p] !== theirs[p]) differ++;
    results.push({
      name,
      size: `${ours.width}x${ours.height}`,
      pilSize: `${sizes[i]!.width}x${sizes[i]!.height}`,
      differ,
      ink: ours.data.filter((v) => v === 0).length / ours.data.length,
    });
  }
  return results;
}

beforeAll(() => mkdir(work, { recursive: true }));
afterAll(() => rm(work, { recursive: true, force: true }));

describe("the print conversion against python3-pil", () => {
  it("runs Debian's PIL under /usr/bin/python3", async () => {
    expect(await pilVersion()).toMatch(/^\d+\.\d+/);
  });

  it("matches Image.convert('1') pixel for pixel on greys, colours, alpha, palettes and odd sizes", async () => {
    const results = await compare("convert", await convertCases());
    for (const r of results) expect(r, r.name).toMatchObject({ size: r.pilSize, differ: 0 });
    // The cases are not trivial: each has both ink and paper, except where PIL's rules say otherwise.
    const mixed = results.filter((r) => r.ink > 0 && r.ink < 1).map((r) => r.name);
    expect(mixed).toEqual(
      expect.arrayContaining(["flat greys, one column each", "colour noise", "RGBA, alpha varying"]),
    );
    // Alpha is dropped, not composited: transparent black prints black, transparent white prints white.
    expect(results.find((r) => r.name.startsWith("RGBA, fully transparent"))!.ink).toBe(0.5);
  });

  it("matches sirius's crop to 384 x min(height, 10000) and convert('1')", async () => {
    const results = await compare("print", await printCases());
    for (const r of results) expect(r, r.name).toMatchObject({ size: r.pilSize, differ: 0 });
    expect(results.map((r) => r.size)).toEqual(["384x30", "384x30", "384x10000"]);
  }, 90_000);

  it("matches on Chromium screenshots of text, greys, gradients and a transparent page", async () => {
    const shots = await screenshots();
    const results = await compare("print", shots);
    for (const r of results) expect(r, r.name).toMatchObject({ size: r.pilSize, differ: 0 });
    for (const r of results) expect(r.ink, r.name).toBeGreaterThan(0);
    // The transparent page really has alpha, the case this guards.
    const transparent = await decodePng(shots["a transparent page with text (alpha in the screenshot)"]!);
    expect(transparent.channels).toBe(4);
  }, 90_000); // Chromium and python3 on a machine shared by others
});
