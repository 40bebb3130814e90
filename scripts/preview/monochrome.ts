// Reduces a render to the printer's two colours: photos and greys (the boxes
// of <img> and class="dither" elements) are dithered, everything else is
// thresholded at mid-grey, as the platform did before printing.
//
// All pixel work is libvips through sharp. The dither is an ordered (8x8
// Bayer) dither made of two library operations: add a tiled threshold map,
// then threshold. It was measured against libimagequant's Floyd–Steinberg
// (sharp's `png({ palette: true, colours: 2, dither: 1 })`), which clamps its
// error diffusion at two colours: flat greys come out as solid black or white
// and the ends of a gradient are crushed. The ordered dither keeps every
// grey's tone (a flat 25% grey prints a quarter of its dots).
import sharp from "sharp";

/** A rectangle on the page, in CSS pixels (= image pixels at deviceScaleFactor 1). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Pixels at or above this grey print white when not dithered. */
export const THRESHOLD = 128;

/** The 8x8 Bayer index matrix (0..63), built from the 2x2 one. */
function bayer(size: number): number[][] {
  const base = [
    [0, 2],
    [3, 1],
  ];
  if (size === 2) return base;
  const half = bayer(size / 2);
  return Array.from({ length: size }, (_, y) =>
    Array.from(
      { length: size },
      (_, x) =>
        4 * half[y % (size / 2)]![x % (size / 2)]! + base[Math.floor(y / (size / 2))]![Math.floor(x / (size / 2))]!,
    ),
  );
}

/**
 * 255 minus each threshold: added to a grey (saturating), a pixel reaches 255
 * exactly when the grey is at or above its threshold. Thresholds are spread
 * evenly over 0..255, so a flat grey g lights about g/255 of the dots.
 */
const TILE = Buffer.from(
  bayer(8)
    .flat()
    .map((k) => 255 - Math.round(((k + 0.5) * 255) / 64)),
);

/** Greyscale raw pixels of any image, transparency flattened onto white paper. */
async function grey(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image)
    .flatten({ background: "#fff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one grey channel, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

const raw1 = (width: number, height: number) => ({ raw: { width, height, channels: 1 as const } });

/** A pipeline's result as 1-channel raw grey (composite adds an alpha channel, which is dropped). */
async function greyChannel(image: sharp.Sharp): Promise<Buffer> {
  const { data, info } = await image.greyscale().raw().toBuffer({ resolveWithObject: true });
  if (info.channels === 1) return data;
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extractChannel(0)
    .raw()
    .toBuffer();
}

/** The whole image dithered (ordered dither aligned with the image's origin): raw 1-channel 0/255. */
async function ditherAll(g: { data: Buffer; width: number; height: number }): Promise<Buffer> {
  const summed = await greyChannel(
    sharp(g.data, raw1(g.width, g.height)).composite([{ input: TILE, ...raw1(8, 8), tile: true, blend: "add" }]),
  );
  return greyChannel(sharp(summed, raw1(g.width, g.height)).threshold(255));
}

/** Whole-pixel boxes inside the image (rounded outwards); empty ones are dropped. */
export function clipBoxes(
  boxes: Box[],
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number }[] {
  const out = [];
  for (const b of boxes) {
    const left = Math.max(0, Math.floor(b.x));
    const top = Math.max(0, Math.floor(b.y));
    const right = Math.min(width, Math.ceil(b.x + b.width));
    const bottom = Math.min(height, Math.ceil(b.y + b.height));
    if (right > left && bottom > top) out.push({ left, top, width: right - left, height: bottom - top });
  }
  return out;
}

/**
 * The image as the printer prints it: a 1-bit PNG (two-colour palette, pure
 * black 0 and white 255), dithered inside `ditherBoxes`, thresholded elsewhere.
 */
export async function toMonochrome(image: Buffer, ditherBoxes: Box[]): Promise<Buffer> {
  const g = await grey(image);
  const boxes = clipBoxes(ditherBoxes, g.width, g.height);
  const thresholded = await greyChannel(sharp(g.data, raw1(g.width, g.height)).threshold(THRESHOLD));
  let result = sharp(thresholded, raw1(g.width, g.height));
  if (boxes.length) {
    const dithered = await ditherAll(g);
    const patches = await Promise.all(
      boxes.map(async (box) => ({
        input: await greyChannel(sharp(dithered, raw1(g.width, g.height)).extract(box)),
        ...raw1(box.width, box.height),
        left: box.left,
        top: box.top,
      })),
    );
    result = sharp(await greyChannel(result.composite(patches)), raw1(g.width, g.height));
  }
  return toOneBitPng(result);
}

/** Writes black-and-white pixels as a 1-bit PNG; only exact 0 and 255 are present, so nothing is requantised. */
async function toOneBitPng(image: sharp.Sharp): Promise<Buffer> {
  return image
    .greyscale()
    .threshold(THRESHOLD)
    .png({ palette: true, colours: 2, dither: 0, compressionLevel: 9 })
    .toBuffer();
}
