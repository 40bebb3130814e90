// The icon's size is read from the PNG header by hand; its pixels, decoded by
// sharp, are laid over white paper and turned grey as the printer's software does.
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { greyOnWhite, readPngSize } from "../../scripts/check/png.ts";
import { makePng } from "./broken-servers.ts";

describe("readPngSize", () => {
  it("reads width and height from IHDR", () => {
    expect(readPngSize(makePng(55, 55))).toEqual({ width: 55, height: 55 });
    expect(readPngSize(makePng(55, 54))).toEqual({ width: 55, height: 54 });
    expect(readPngSize(makePng(384, 1))).toEqual({ width: 384, height: 1 });
  });

  it("says what is wrong with something that is not a PNG", () => {
    expect(readPngSize(new TextEncoder().encode("GIF89a......................"))).toEqual({
      error: "not a PNG file (no PNG signature)",
    });
    expect(readPngSize(makePng(55, 55).subarray(0, 20))).toEqual({
      error: "a truncated PNG (no room for the IHDR header)",
    });
    const wrongChunk = makePng(55, 55);
    wrongChunk.set(new TextEncoder().encode("IDAT"), 12);
    expect(readPngSize(wrongChunk)).toEqual({ error: 'a broken PNG (first chunk is "IDAT", not IHDR)' });
  });
});

describe("greyOnWhite", () => {
  const raw = (pixels: number[][], channels: 1 | 2 | 3 | 4) =>
    sharp(Buffer.from(pixels.flat()), { raw: { width: pixels.length, height: 1, channels } })
      .png()
      .toBuffer();

  it("lays each pixel over white paper by its alpha, then takes PIL's grey of it", async () => {
    // transparent black is paper; half-transparent black is 127; opaque keeps its colour
    const rgba = await raw(
      [
        [0, 0, 0, 0],
        [0, 0, 0, 128],
        [0, 0, 0, 255],
        [255, 0, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 0],
      ],
      4,
    );
    expect(await greyOnWhite(rgba)).toEqual({ data: new Uint8Array([255, 127, 0, 76, 29, 255]), width: 6, height: 1 });
    const greyAlpha = await raw(
      [
        [0, 0],
        [100, 255],
        [0, 64],
      ],
      2,
    );
    expect(await greyOnWhite(greyAlpha)).toMatchObject({ data: new Uint8Array([255, 100, 191]) });
  });

  it("reads 1-bit, palette, 16-bit and interlaced PNGs", async () => {
    expect(await greyOnWhite(makePng(8, 1))).toEqual({
      data: new Uint8Array([0, 0, 0, 0, 255, 255, 255, 255]),
      width: 8,
      height: 1,
    });
    const pixels = [
      [0, 0, 0, 0],
      [0, 0, 0, 255],
      [255, 255, 255, 255],
    ];
    for (const png of [
      await sharp(Buffer.from(pixels.flat()), { raw: { width: 3, height: 1, channels: 4 } })
        .png({ palette: true })
        .toBuffer(),
      await sharp(Buffer.from(pixels.flat()), { raw: { width: 3, height: 1, channels: 4 } })
        .toColourspace("rgb16")
        .png()
        .toBuffer(),
      await sharp(Buffer.from(pixels.flat()), { raw: { width: 3, height: 1, channels: 4 } })
        .png({ progressive: true })
        .toBuffer(),
    ])
      expect(await greyOnWhite(png)).toMatchObject({ data: new Uint8Array([255, 0, 255]) });
  });

  it("says when the pixels cannot be read", async () => {
    const header = makePng(55, 55).subarray(0, 33);
    expect(await greyOnWhite(header)).toMatchObject({ error: expect.stringMatching(/could not be read/) });
  });
});
