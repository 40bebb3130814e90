// Reads a PNG's width and height from its IHDR chunk. No image library: the
// header is enough, and it must be the first chunk (PNG spec, section 5.6).
// Whether it is blank needs the pixels: sharp decodes them (any PNG, any
// depth, interlaced or not), flattened onto white as the listing shows it.
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

/** The share of dark pixels (below mid-grey once flattened onto white), 0 to 1; or why it could not be read. */
export async function darkShare(bytes: Uint8Array): Promise<number | { error: string }> {
  try {
    const { data, info } = await sharp(bytes)
      .flatten({ background: "#ffffff" })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = info.width * info.height;
    let dark = 0;
    for (let i = 0; i < data.length; i += info.channels) if (data[i]! < 128) dark++;
    return pixels === 0 ? 0 : dark / pixels;
  } catch (error) {
    return { error: `its pixels could not be read (${(error as Error).message})` };
  }
}
