import { ContentError } from "../model/content-error.ts";
import { floydSteinberg } from "../model/bilevel.ts";

/** The platform shows a 55x55 black-and-white PNG next to the publication's name. */
export const ICON_SIZE = 55;

// A plain default: a receipt with a torn edge and a few printed lines.
const TORN_RECEIPT = "M14 4h27v43l-4.5-4-4.5 4-4.5-4-4.5 4-4.5-4-4.5 4z";
export const DEFAULT_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="55" height="55" viewBox="0 0 55 55">
  <rect width="55" height="55" fill="#fff"/>
  <path d="${TORN_RECEIPT}" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round"/>
  <path d="M19 13h17M19 20h17M19 27h11" stroke="#000" stroke-width="3"/>
</svg>`;

/**
 * The default icon, as drawIcon draws it from DEFAULT_ICON_SVG (test/unit/icon.test.ts draws it again and compares
 * the two): the build of a site whose publications have no icon of their own never loads the image library.
 */
const DEFAULT_ICON_PNG = [
  "iVBORw0KGgoAAAANSUhEUgAAADcAAAA3AQMAAACSFUAFAAAABlBMVEX///8AAABVwtN+AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAA",
  "pElEQVR4nGNgQAdMq1atamBgYGD/////AQYGBv7///8/APFDQ0NBfD4GBkYwn4GBAS9fbOsCMF/+/0cQn1/+/wcQn000NBDMZ4Co",
  "Z4Oqh/H5oPLsUPUw/eyioQHI5vOj6xcNgfDl/0D48n+g5oUQ5V5c7kHiM0LVM0D1o/IVBDjB/IIKW7D6H3X2ID77/3/g8OO///47",
  "mN9//DGYz858EMQnDwAAHslKtZClmmIAAAAASUVORK5CYII=",
].join("");

/** Below this share of black pixels, or above its complement, an icon shows nothing on the platform's list. */
export const MIN_ICON_INK = 0.01;

/** The author's image for the icon: its bytes, and its file (named when it cannot be used). */
export interface IconSource {
  file: string;
  bytes: Buffer;
}

/**
 * The publication's icon: made from the author's image (drawIcon), or the
 * default one when there is none.
 */
export async function makeIcon(source?: IconSource): Promise<Buffer> {
  return source ? drawIcon(source) : Buffer.from(DEFAULT_ICON_PNG, "base64");
}

/**
 * Makes an icon from an image (any size, any colours): fitted into 55x55 on
 * white, its contrast stretched (a pale image would otherwise all fall on one
 * side of a threshold), then dithered to black and white as the printer's own
 * software does (PIL's convert("1"), Floyd–Steinberg). An image that comes out
 * (nearly) all white or all black is a ContentError naming its file.
 */
export async function drawIcon(source: IconSource): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  let grey: Buffer;
  try {
    grey = await sharp(source.bytes)
      .resize(ICON_SIZE, ICON_SIZE, { fit: "contain", background: "#ffffff" })
      .flatten({ background: "#ffffff" })
      .greyscale()
      .normalise()
      .raw()
      .toBuffer();
  } catch (e) {
    const problem = `cannot be read as an image: ${(e as Error).message}`;
    throw iconError(source, problem, "use a PNG, JPEG, GIF, WebP or SVG image");
  }
  const bits = floydSteinberg(grey, ICON_SIZE, ICON_SIZE);
  const ink = bits.filter((v) => v === 0).length / bits.length;
  if (ink < MIN_ICON_INK || ink > 1 - MIN_ICON_INK) {
    const shade = ink < MIN_ICON_INK ? "white" : "black";
    const problem = `comes out ${(ink * 100).toFixed(1)}% black: an all-${shade} square once made black and white`;
    const fix = "use an image with clear dark and light parts (a dark shape on a light ground prints best)";
    throw iconError(source, problem, fix);
  }
  return sharp(bits, { raw: { width: ICON_SIZE, height: ICON_SIZE, channels: 1 } })
    .png({ palette: true, colours: 2 })
    .toBuffer();
}

function iconError(source: IconSource, problem: string, fix: string): ContentError {
  return new ContentError([{ file: source.file, field: "icon", problem, fix }]);
}
