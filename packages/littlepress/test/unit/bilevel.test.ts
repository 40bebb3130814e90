// The printer's reduction to black and white, on values worked out by hand
// from PIL's rules (test/preview/pil-parity.test.ts compares it with PIL itself).
import { describe, expect, it } from "vitest";
import { convertToDots, cropToPaper, floydSteinberg } from "../../lib/model/bilevel.ts";

describe("floydSteinberg", () => {
  it("keeps black and white, and dithers a mid grey to about half black", () => {
    expect([...floydSteinberg(Uint8Array.from([0, 255, 255, 0]), 2, 2)]).toEqual([0, 255, 255, 0]);
    const grey = floydSteinberg(new Uint8Array(40 * 40).fill(128), 40, 40);
    const black = grey.filter((v) => v === 0).length / grey.length;
    expect(black).toBeGreaterThan(0.45);
    expect(black).toBeLessThan(0.55);
  });

  it("prints 128 as ink and 129 as paper (only a level above 128 is white)", () => {
    expect([...floydSteinberg(Uint8Array.from([128]), 1, 1)]).toEqual([0]);
    expect([...floydSteinberg(Uint8Array.from([129]), 1, 1)]).toEqual([255]);
  });

  it("carries 7/16 of the error right, truncating towards zero", () => {
    // 100 -> ink, error 100; next: 100 + trunc(700/16 = 43.75) = 143 -> paper, error -112;
    // next: 120 + trunc(-784/16 = -49) = 71 -> ink.
    expect([...floydSteinberg(Uint8Array.from([100, 100, 120]), 3, 1)]).toEqual([0, 255, 0]);
    // A negative sum truncates up: 130 -> paper, error -125; next 183 + trunc(-875/16 = -54.69) = 129 -> paper
    // (flooring to -55 would give 128, ink).
    expect([...floydSteinberg(Uint8Array.from([130, 183]), 2, 1)]).toEqual([255, 255]);
  });
});

describe("convertToDots", () => {
  it("greys colour as floor((299 R + 587 G + 114 B) / 1000) and ignores alpha", () => {
    // (129, 129, 130) is 129.114 -> 129 -> paper; (128, 129, 129) is 128.701 -> 128 -> ink (rounding would give paper).
    const rgba = Uint8Array.from([129, 129, 130, 0, 128, 129, 129, 255]);
    expect([...convertToDots({ data: rgba, width: 1, height: 2, channels: 4 }).data]).toEqual([255, 0]);
  });

  it("thresholds palette images at 128 without dithering", () => {
    const rgb = Uint8Array.from([128, 128, 128, 127, 127, 127, 128, 128, 128]);
    expect([...convertToDots({ data: rgb, width: 3, height: 1, channels: 3, palette: true }).data]).toEqual([
      255, 0, 255,
    ]);
  });

  it("refuses pixels whose length does not match their size", () => {
    expect(() => convertToDots({ data: new Uint8Array(5), width: 2, height: 2, channels: 1 })).toThrow(
      "expected 2x2x1 bytes, got 5",
    );
  });
});

describe("cropToPaper", () => {
  it("keeps 384 columns and at most 10,000 rows, filling a narrow image's right side with black", () => {
    const narrow = cropToPaper({ data: new Uint8Array(2 * 3).fill(200), width: 2, height: 3, channels: 1 });
    expect([narrow.width, narrow.height]).toEqual([384, 3]);
    expect([...narrow.data.subarray(0, 3)]).toEqual([200, 200, 0]);
    const tall = cropToPaper({ data: new Uint8Array(385 * 10_001), width: 385, height: 10_001, channels: 1 });
    expect([tall.width, tall.height, tall.data.length]).toEqual([384, 10_000, 384 * 10_000]);
  });
});
