// How a page becomes the printer's dots today. Little Printers are served by
// sirius (nordprojects/sirius): it screenshots the page, crops the screenshot
// to the paper and hands it to PIL's Image.convert('1'). These are that crop
// and that conversion, written to give the same dots as Pillow's C code
// (libImaging/Convert.c, as in Pillow 9.4: tobilevel and p2bit; Image.py's
// retry of RGBA and LA through RGB and L), integer for integer, so that a
// preview is what prints. A differential test against Debian's python3-pil
// holds them to it (test/preview/pil-parity.test.ts).
import { PAPER_WIDTH_PX } from "./paper.ts";

/** sirius cuts every print at this many rows of dots. */
export const MAX_PRINT_HEIGHT_PX = 10_000;

/**
 * Decoded pixels, row after row, `channels` bytes a pixel, as a PNG decoder
 * gives them: 1 grey (PIL "L"), 2 grey and alpha ("LA"), 3 red, green, blue
 * ("RGB"), 4 with alpha ("RGBA"). `palette` marks pixels that came from a
 * palette PNG ("P"), which PIL thresholds instead of dithering.
 */
export interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  palette?: boolean;
}

/** A black-and-white image: one byte a pixel, 0 (a dot of ink) or 255 (paper). */
export interface Dots {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * sirius's crop: the box (0, 0, 384, min(height, 10000)). As in PIL, the part
 * of the box outside the image is filled with zeros, so a screenshot narrower
 * than the paper gets black on its right (a browser 384 px wide never makes one).
 * `width` is another paper's (576 dots for an 80 mm ESC/POS printer).
 */
export function cropToPaper(image: Pixels, width = PAPER_WIDTH_PX): Pixels {
  const height = Math.min(image.height, MAX_PRINT_HEIGHT_PX);
  if (image.width === width && image.height === height) return image;
  const stride = image.channels;
  const data = new Uint8Array(width * height * stride);
  const kept = Math.min(width, image.width) * stride;
  for (let y = 0; y < height; y++) {
    const from = y * image.width * stride;
    data.set(image.data.subarray(from, from + kept), y * width * stride);
  }
  return { ...image, data, width, height };
}

/**
 * PIL's grey for one colour on the way to 1 bit: floor((299 R + 587 G + 114 B) / 1000).
 * (PIL's "L" mode rounds instead, but its bilevel conversion truncates: this is the one that prints.)
 */
export const printedGrey = (r: number, g: number, b: number) => Math.floor((r * 299 + g * 587 + b * 114) / 1000);

/**
 * PIL's grey for each pixel on the way to 1 bit (printedGrey).
 * Alpha is ignored: PIL drops it (RGBA goes through RGB, LA through L) without
 * compositing, so a transparent pixel prints as the colour stored under it,
 * usually black (0, 0, 0, 0).
 */
function greyOf(image: Pixels): Uint8Array {
  const { data, channels } = image;
  const count = image.width * image.height;
  const grey = new Uint8Array(count);
  if (channels <= 2) {
    for (let i = 0; i < count; i++) grey[i] = data[i * channels]!;
    return grey;
  }
  for (let i = 0, p = 0; i < count; i++, p += channels) grey[i] = printedGrey(data[p]!, data[p + 1]!, data[p + 2]!);
  return grey;
}

/** Image.convert('1') with its defaults: Floyd–Steinberg for grey and colour, a plain threshold for palette images. */
export function convertToDots(image: Pixels): Dots {
  const { width, height } = image;
  if (image.data.length !== width * height * image.channels)
    throw new Error(`expected ${width}x${height}x${image.channels} bytes, got ${image.data.length}`);
  if (image.palette) return { width, height, data: thresholdPalette(image) };
  return { width, height, data: floydSteinberg(greyOf(image), width, height) };
}

/** PIL's palette path (p2bit): white where R*299 + G*587 + B*114 reaches 128000, no dither. */
function thresholdPalette(image: Pixels): Uint8Array {
  const { data, channels } = image;
  const out = new Uint8Array(image.width * image.height);
  for (let i = 0, p = 0; i < out.length; i++, p += channels)
    out[i] = data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114 >= 128_000 ? 255 : 0;
  return out;
}

/**
 * Floyd–Steinberg as PIL does it, in integers: each pixel takes its grey plus
 * the errors sent to it (7/16 from the left, 3/16, 5/16 and 1/16 from the row
 * above), summed in sixteenths and divided once, truncating towards zero as C
 * does; the level is clipped to 0..255, and only a level above 128 is paper.
 * The error sent on is the clipped level minus the dot. Every row starts
 * afresh from the left; nothing wraps around the edges.
 */
export function floydSteinberg(grey: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  let fromAbove = new Int32Array(width); // sixteenths sent down to each pixel of this row
  let toBelow = new Int32Array(width);
  for (let y = 0; y < height; y++) {
    toBelow.fill(0);
    let fromLeft = 0;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const level = Math.min(255, Math.max(0, grey[i]! + Math.trunc((fromLeft + fromAbove[x]!) / 16)));
      const dot = level > 128 ? 255 : 0;
      const error = level - dot;
      out[i] = dot;
      fromLeft = 7 * error;
      if (x > 0) toBelow[x - 1]! += 3 * error;
      toBelow[x]! += 5 * error;
      if (x + 1 < width) toBelow[x + 1]! += error;
    }
    [fromAbove, toBelow] = [toBelow, fromAbove];
  }
  return out;
}
