// The icon's size is read from the PNG header by hand.
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { readPngSize, readTones } from "../../scripts/check/png.ts";
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

describe("readTones", () => {
  it("reads the share of dark pixels and the spread of greys, transparency flattened onto white", async () => {
    expect(await readTones(makePng(55, 55, "black"), 0.01)).toEqual({ dark: 1, darkest: 0, lightest: 0 });
    expect(await readTones(makePng(55, 55, "white"), 0.01)).toEqual({ dark: 0, darkest: 255, lightest: 255 });
    expect(await readTones(makePng(56, 56), 0.01)).toEqual({ dark: 0.5, darkest: 0, lightest: 255 });
    expect(await readTones(makePng(56, 56, "grey stripes"), 0.01)).toEqual({ dark: 0.5, darkest: 110, lightest: 160 });
    const clear = await sharp({
      create: { width: 55, height: 55, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    expect(await readTones(clear, 0.01)).toEqual({ dark: 0, darkest: 255, lightest: 255 });
  });

  it("leaves out the given share of stray pixels at each end", async () => {
    // 100 pixels: 2 black, the rest white. A tail of 1% skips one of them, 2% both.
    const raw = Buffer.alloc(100, 255);
    raw[0] = raw[1] = 0;
    const png = await sharp(raw, { raw: { width: 10, height: 10, channels: 1 } })
      .png()
      .toBuffer();
    expect(await readTones(png, 0.01)).toMatchObject({ darkest: 0, lightest: 255 });
    expect(await readTones(png, 0.02)).toMatchObject({ darkest: 255, lightest: 255 });
  });

  it("says when the pixels cannot be read", async () => {
    const header = makePng(55, 55).subarray(0, 33);
    expect(await readTones(header, 0.01)).toMatchObject({ error: expect.stringMatching(/could not be read/) });
  });
});
