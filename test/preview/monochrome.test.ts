// The black-and-white reduction on made-up images: a grey gradient and flat
// greys must come out as pure 0/255 pixels, dithered in the boxes (tones
// kept) and thresholded outside them.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { clipBoxes, toMonochrome } from "../../scripts/preview/monochrome.ts";

const W = 256;
const H = 64;

/** A PNG whose grey at column x is f(x). */
function greyImage(f: (x: number) => number, width = W, height = H): Promise<Buffer> {
  const raw = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw[y * width + x] = f(x);
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean grey of columns [x0, x1) and rows [y0, y1). */
function mean(p: { data: Buffer; width: number }, x0: number, x1: number, y0: number, y1: number): number {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += p.data[y * p.width + x]!;
  return sum / ((x1 - x0) * (y1 - y0));
}

describe("toMonochrome", () => {
  it("dithers a grey gradient into pure black and white that keeps its tones", async () => {
    const out = await pixels(await toMonochrome(await greyImage((x) => x), [{ x: 0, y: 0, width: W, height: H }]));
    expect([out.width, out.height]).toEqual([W, H]);
    expect(new Set(out.data)).toEqual(new Set([0, 255]));
    // Each 32-column band averages close to the band's grey (16, 48, ... 240).
    for (let band = 0; band < 8; band++)
      expect(Math.abs(mean(out, band * 32, band * 32 + 32, 0, H) - (band * 32 + 15.5))).toBeLessThan(6);
    // Mid-grey is a pattern, not a block: both colours in every 8x8 cell.
    const cell = mean(out, 128, 136, 0, 8);
    expect(cell).toBeGreaterThan(0);
    expect(cell).toBeLessThan(255);
  });

  it.each([32, 128, 220])("dithers a flat grey %i (no solid block)", async (g) => {
    const out = await pixels(await toMonochrome(await greyImage(() => g), [{ x: 0, y: 0, width: W, height: H }]));
    expect(new Set(out.data)).toEqual(new Set([0, 255]));
    expect(Math.abs(mean(out, 0, W, 0, H) - g)).toBeLessThan(4);
  });

  it("thresholds outside the boxes and dithers inside them", async () => {
    // Left half grey 100 (prints black when thresholded), right half grey 200 (white).
    const image = await greyImage((x) => (x < 128 ? 100 : 200));
    const out = await pixels(await toMonochrome(image, [{ x: 32.4, y: 16.6, width: 64, height: 32 }]));
    expect(new Set(out.data)).toEqual(new Set([0, 255]));
    expect(mean(out, 0, 32, 0, H)).toBe(0);
    expect(mean(out, 128, W, 0, H)).toBe(255);
    const inside = mean(out, 33, 96, 17, 48);
    expect(Math.abs(inside - 100)).toBeLessThan(8);
  });

  it("writes a 1-bit PNG and leaves an image without boxes thresholded", async () => {
    const png = await toMonochrome(await greyImage((x) => x), []);
    expect(png.readUInt8(24)).toBe(1); // IHDR bit depth
    const out = await pixels(png);
    expect(mean(out, 0, 127, 0, H)).toBe(0);
    expect(mean(out, 129, W, 0, H)).toBe(255);
  });

  it("clips boxes to the image, rounding outwards, and drops empty ones", () => {
    expect(
      clipBoxes(
        [
          { x: -5, y: 1.5, width: 20, height: 3 },
          { x: 300, y: 0, width: 10, height: 10 },
          { x: 5, y: 5, width: 0, height: 9 },
        ],
        100,
        4,
      ),
    ).toEqual([{ left: 0, top: 1, width: 15, height: 3 }]);
  });
});
