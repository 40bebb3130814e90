// Reads a PNG's width and height from its IHDR chunk. No image library: the
// header is enough, and it must be the first chunk (PNG spec, section 5.6).
//
// What the icon prints needs its pixels. sharp decodes them: it is already the
// kit's image library (the build makes icons with it), and libvips with libspng
// reads every kind of PNG (any colour type and depth, palettes with
// transparency, Adam7 interlacing) where a decoder of our own would have to
// grow each case. sharp only decodes here; the rest is done by hand, as the
// printer's side does it (see greyOnWhite), because sharp's own flatten and
// greyscale are not that: its grey is libvips' (pure red reads 127, PIL prints
// it as 76), and a 16-bit image with alpha flattens to 254, not white.
import sharp from "sharp";
import { printedGrey } from "../../lib/model/bilevel.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export type PngSize = { width: number; height: number } | { error: string };

export function readPngSize(bytes: Uint8Array): PngSize {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b))
    return { error: "not a PNG file (no PNG signature)" };
  // signature (8) + chunk length (4) + chunk type (4) + width (4) + height (4)
  if (bytes.length < 24) return { error: "a truncated PNG (no room for the IHDR header)" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (type !== "IHDR") return { error: `a broken PNG (first chunk is "${type}", not IHDR)` };
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** An image in greys, one byte a pixel, 0 black to 255 white. */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The image as the printer's software sees it once it is on a page: every
 * pixel laid over white paper by its alpha, as the browser that renders the
 * page does (a transparent pixel is paper, whatever colour it stores), then
 * turned grey as PIL does on the way to 1 bit (printedGrey, lib/model/bilevel.ts). Or why its pixels could not be read.
 */
export async function greyOnWhite(bytes: Uint8Array): Promise<Grey | { error: string }> {
  let rgba: { data: Buffer; info: sharp.OutputInfo };
  try {
    // Any PNG to 8-bit sRGB with alpha: grey becomes R = G = B, a palette its
    // colours, 16 bits 8 (scaled, not clipped), no alpha fully opaque.
    rgba = await sharp(bytes).toColourspace("srgb").ensureAlpha().raw({ depth: "uchar" }).toBuffer({
      resolveWithObject: true,
    });
  } catch (error) {
    return { error: `its pixels could not be read (${(error as Error).message})` };
  }
  const { data, info } = rgba;
  const { width, height } = info;
  if (info.channels !== 4 || data.length !== width * height * 4)
    return { error: `its pixels could not be read (decoded to ${info.channels} channels, not 4)` };
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    const alpha = data[p + 3]!;
    // over white: c * a + 255 * (1 - a), rounded, each channel in 0..255
    const over = (c: number) => Math.round((c * alpha + 255 * (255 - alpha)) / 255);
    grey[i] = printedGrey(over(data[p]!), over(data[p + 1]!), over(data[p + 2]!));
  }
  return { data: grey, width, height };
}
