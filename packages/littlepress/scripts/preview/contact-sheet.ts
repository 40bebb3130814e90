// A publication's editions side by side on one image, each under its key,
// scaled down to fit, so an author sees the whole run at a glance.
import sharp from "sharp";
import { PAPER_WIDTH_PX } from "../../lib/model/paper.ts";

export interface Strip {
  key: string;
  /** The edition's black-and-white PNG. */
  png: Buffer;
  height: number;
}

/** The sheet is scaled down until it fits in this box. */
export const SHEET_MAX = { width: 3840, height: 1600 };
const GAP = 16;
const LABEL = 30;
const BACKGROUND = { r: 217, g: 212, b: 199 }; // the desk colour around the paper

/** The contact sheet PNG: strips left to right in the given order, with small gaps, labels above. */
export async function contactSheet(strips: Strip[]): Promise<Buffer> {
  if (strips.length === 0) throw new Error("a contact sheet needs at least one strip");
  const fullWidth = strips.length * PAPER_WIDTH_PX + (strips.length + 1) * GAP;
  const fullHeight = LABEL + Math.max(...strips.map((s) => s.height)) + 2 * GAP;
  const scale = Math.min(1, SHEET_MAX.width / fullWidth, SHEET_MAX.height / fullHeight);
  const gap = Math.max(4, Math.round(GAP * scale));
  const label = Math.max(14, Math.round(LABEL * scale));
  // Gaps do not shrink below 4 px: the strips give up the difference.
  const stripWidth = Math.max(
    1,
    Math.min(
      Math.round(PAPER_WIDTH_PX * scale),
      Math.floor((SHEET_MAX.width - (strips.length + 1) * gap) / strips.length),
    ),
  );
  const heights = strips.map((s) => Math.max(1, Math.round((s.height * stripWidth) / PAPER_WIDTH_PX)));
  const width = strips.length * stripWidth + (strips.length + 1) * gap;
  const height = gap + label + Math.max(...heights) + gap;
  const layers: sharp.OverlayOptions[] = [];
  for (const [i, strip] of strips.entries()) {
    const left = gap + i * (stripWidth + gap);
    const input =
      stripWidth === PAPER_WIDTH_PX
        ? strip.png
        : await sharp(strip.png).resize({ width: stripWidth, height: heights[i]!, fit: "fill" }).png().toBuffer();
    layers.push({ input: labelSvg(strip.key, stripWidth, label), left, top: gap });
    layers.push({ input, left, top: gap + label });
  }
  return sharp({ create: { width, height, channels: 3, background: BACKGROUND } })
    .composite(layers)
    .png({ palette: true, compressionLevel: 9, effort: 1 })
    .toBuffer();
}

function labelSvg(key: string, width: number, height: number): Buffer {
  // As large as the label's height allows, smaller when a long key would not fit the strip's width.
  const size = Math.max(8, Math.round(Math.min(height * 0.6, width / (0.62 * Math.max(1, key.length)))));
  const text = key.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<text x="0" y="${Math.round(height * 0.72)}" font-family="DejaVu Sans, Arial, sans-serif" ` +
      `font-size="${size}" fill="#333">${text}</text></svg>`,
  );
}
