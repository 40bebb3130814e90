// Reads a PNG's width and height from its IHDR chunk. No image library: the
// header is enough, and it must be the first chunk (PNG spec, section 5.6).
// Whether it is blank or grey needs the pixels: sharp decodes them (any PNG,
// any depth, interlaced or not), flattened onto white as the listing shows it.
import sharp from "sharp";

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

/** How an icon's pixels spread over the greys, flattened onto white as the listing shows it. */
export interface Tones {
  /** The share of dark pixels (below mid-grey), 0 to 1. */
  dark: number;
  /** The darkest and lightest grey (0 to 255), leaving out the extreme `tail` share of pixels at each end. */
  darkest: number;
  lightest: number;
}

/** The icon's tones, or why its pixels could not be read. `tail` keeps a few stray pixels from counting as contrast. */
export async function readTones(bytes: Uint8Array, tail: number): Promise<Tones | { error: string }> {
  let grey: { data: Buffer; info: sharp.OutputInfo };
  try {
    grey = await sharp(bytes)
      .flatten({ background: "#ffffff" })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    return { error: `its pixels could not be read (${(error as Error).message})` };
  }
  const { data, info } = grey;
  const counts = new Array<number>(256).fill(0);
  for (let i = 0; i < data.length; i += info.channels) counts[data[i]!]!++;
  const pixels = info.width * info.height;
  if (pixels === 0) return { dark: 0, darkest: 255, lightest: 255 };
  const skip = Math.floor(pixels * tail);
  const nth = (n: number) => {
    // The grey of the n-th darkest pixel (0-based).
    let seen = 0;
    for (let g = 0; g < 256; g++) if ((seen += counts[g]!) > n) return g;
    return 255;
  };
  const dark = counts.slice(0, 128).reduce((a, b) => a + b, 0) / pixels;
  return { dark, darkest: nth(skip), lightest: nth(pixels - 1 - skip) };
}
