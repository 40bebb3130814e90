import sharp from "sharp";
import { ContentError } from "../model/content-error.ts";
import { floydSteinberg } from "../model/bilevel.ts";

/** The platform shows a 55x55 black-and-white PNG next to the publication's name. */
export const ICON_SIZE = 55;

// A plain default: a receipt with a torn edge and a few printed lines.
const TORN_RECEIPT = "M14 4h27v43l-4.5-4-4.5 4-4.5-4-4.5 4-4.5-4-4.5 4z";
const DEFAULT_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="55" height="55" viewBox="0 0 55 55">
  <rect width="55" height="55" fill="#fff"/>
  <path d="${TORN_RECEIPT}" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round"/>
  <path d="M19 13h17M19 20h17M19 27h11" stroke="#000" stroke-width="3"/>
</svg>`;

/** Below this share of black pixels, or above its complement, an icon shows nothing on the platform's list. */
export const MIN_ICON_INK = 0.01;

/** The author's image for the icon: its bytes, and its file (named when it cannot be used). */
export interface IconSource {
  file: string;
  bytes: Buffer;
}

/**
 * Makes the publication's icon from the author's image (any size, any
 * colours), or the default when there is none: fitted into 55x55 on white,
 * its contrast stretched (a pale image would otherwise all fall on one side of
 * a threshold), then dithered to black and white as the printer's own software
 * does (PIL's convert("1"), Floyd–Steinberg). An image that comes out (nearly)
 * all white or all black is a ContentError naming its file.
 */
export async function makeIcon(source?: IconSource): Promise<Buffer> {
  let grey: Buffer;
  try {
    grey = await sharp(source?.bytes ?? Buffer.from(DEFAULT_ICON))
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

function iconError(source: IconSource | undefined, problem: string, fix: string): ContentError {
  return new ContentError([{ file: source?.file ?? "the default icon", field: "icon", problem, fix }]);
}
