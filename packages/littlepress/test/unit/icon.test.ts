import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ContentError } from "../../lib/model/content-error.ts";
import { DEFAULT_ICON_SVG, drawIcon, ICON_SIZE, makeIcon } from "../../lib/build/icon.ts";

// Light blue sky with a yellow sun: both light, nearly the same grey.
const SKY = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">
  <rect width="200" height="200" fill="#add8e6"/><circle cx="100" cy="100" r="45" fill="#ffdd00"/></svg>`);

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, info, black: data.filter((v) => v === 0).length / data.length };
}

describe("makeIcon", () => {
  it("makes a pale image a visible 55x55 black-and-white icon, the sun lighter than the sky", async () => {
    const { data, info, black } = await pixels(
      await makeIcon({ file: "sky.png", bytes: await sharp(SKY).png().toBuffer() }),
    );
    expect([info.width, info.height]).toEqual([ICON_SIZE, ICON_SIZE]);
    expect(new Set(data)).toEqual(new Set([0, 255]));
    expect(black).toBeGreaterThan(0.1);
    expect(black).toBeLessThan(0.9);
    const share = (x0: number, y0: number) => {
      let n = 0;
      for (let y = y0; y < y0 + 10; y++) for (let x = x0; x < x0 + 10; x++) n += data[y * ICON_SIZE + x] === 0 ? 1 : 0;
      return n / 100;
    };
    expect(share(22, 22)).toBeLessThan(share(0, 0)); // the sun's middle against the sky's corner
  });

  it("makes the default icon when there is no image: the one drawn from its SVG, pixel for pixel", async () => {
    const { data, info, black } = await pixels(await makeIcon());
    expect([info.width, info.height]).toEqual([ICON_SIZE, ICON_SIZE]);
    expect(black).toBeGreaterThan(0.05);
    const drawn = await pixels(await drawIcon({ file: "the default icon", bytes: Buffer.from(DEFAULT_ICON_SVG) }));
    expect(drawn.data.equals(data)).toBe(true);
  });

  it("refuses an image that comes out blank, naming its file", async () => {
    const white = await sharp({ create: { width: 80, height: 40, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const error = await makeIcon({ file: "content/p/icon.png", bytes: white }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).problems).toEqual([
      expect.objectContaining({
        file: "content/p/icon.png",
        field: "icon",
        problem: expect.stringMatching(/0\.0% black: an all-white square/),
      }),
    ]);
  });

  it("refuses a file that is not an image, naming it", async () => {
    const error = await makeIcon({ file: "content/p/icon.png", bytes: Buffer.from("not an image") }).catch(
      (e: unknown) => e,
    );
    expect((error as ContentError).problems[0]).toMatchObject({
      file: "content/p/icon.png",
      problem: expect.stringMatching(/cannot be read as an image/),
    });
  });
});
