// Which characters sirius's fonts can draw. A character none of them has
// prints as nothing on a Little Printer (QtWebKit draws no box), so verify
// names it. Read from the fonts' own character maps (the TrueType cmap table:
// format 12, or format 4 for fonts with only the Basic Multilingual Plane).
import { readFileSync } from "node:fs";
import path from "node:path";
import { dejavuFolder, SIRIUS_FONTS } from "./phantom-fonts.ts";

/** Ranges of code points, first and last included. */
type Ranges = [number, number][];

/** The code points a TrueType font maps to glyphs. */
export function fontRanges(font: Buffer): Ranges {
  const cmap = tableOffset(font, "cmap");
  if (cmap === undefined) return [];
  const count = font.readUInt16BE(cmap + 2);
  let format4: number | undefined;
  for (let i = 0; i < count; i++) {
    const platform = font.readUInt16BE(cmap + 4 + i * 8);
    const encoding = font.readUInt16BE(cmap + 6 + i * 8);
    const at = cmap + font.readUInt32BE(cmap + 8 + i * 8);
    if (platform === 3 && encoding === 10 && font.readUInt16BE(at) === 12) return format12(font, at);
    if (platform === 3 && encoding === 1 && font.readUInt16BE(at) === 4) format4 = at;
  }
  return format4 === undefined ? [] : format4Ranges(font, format4);
}

function tableOffset(font: Buffer, tag: string): number | undefined {
  const tables = font.readUInt16BE(4);
  for (let i = 0; i < tables; i++)
    if (font.toString("latin1", 12 + i * 16, 16 + i * 16) === tag) return font.readUInt32BE(20 + i * 16);
  return undefined;
}

function format12(font: Buffer, at: number): Ranges {
  const groups = font.readUInt32BE(at + 12);
  const ranges: Ranges = [];
  for (let i = 0; i < groups; i++)
    ranges.push([font.readUInt32BE(at + 16 + i * 12), font.readUInt32BE(at + 20 + i * 12)]);
  return ranges;
}

/** Format 4's segments; a segment whose glyphs are all 0 (.notdef) is no coverage, as for the final 0xFFFF. */
function format4Ranges(font: Buffer, at: number): Ranges {
  const segments = font.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const ranges: Ranges = [];
  for (let i = 0; i < segments; i++) {
    const first = font.readUInt16BE(starts + i * 2);
    const last = font.readUInt16BE(ends + i * 2);
    if (first !== 0xffff) ranges.push([first, last]);
  }
  return ranges;
}

let covered: Ranges | undefined;

/** Whether any of sirius's fonts has the character `codePoint`. */
export function siriusHas(codePoint: number): boolean {
  covered ??= SIRIUS_FONTS.flatMap((file) => fontRanges(readFileSync(path.join(dejavuFolder(), file))));
  return covered.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** Characters that print as something or nothing on purpose: spaces, controls, joiners, variation selectors. */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Zs}\uFE00-\uFE0F]/u;

/** The distinct characters of `text` that no font of sirius's has, in the order they come. */
export function missingGlyphs(text: string): string[] {
  const missing = new Set<string>();
  for (const char of text) if (!INVISIBLE.test(char) && !siriusHas(char.codePointAt(0)!)) missing.add(char);
  return [...missing];
}
