// The icon's size is read from the PNG header by hand.
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { darkShare, readPngSize } from "../../scripts/check/png.ts";
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

describe("darkShare", () => {
  it("counts dark pixels in any PNG, transparency flattened onto white", async () => {
    expect(await darkShare(makePng(55, 55, "black"))).toBe(1);
    expect(await darkShare(makePng(55, 55, "white"))).toBe(0);
    expect(await darkShare(makePng(56, 56))).toBe(0.5);
    const clear = await sharp({
      create: { width: 55, height: 55, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    expect(await darkShare(clear)).toBe(0);
  });

  it("says when the pixels cannot be read", async () => {
    const header = makePng(55, 55).subarray(0, 33);
    expect(await darkShare(header)).toMatchObject({ error: expect.stringMatching(/could not be read/) });
  });
});
