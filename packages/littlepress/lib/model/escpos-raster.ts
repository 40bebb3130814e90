// The printed picture as ESC/POS bytes, for ordinary receipt printers (Epson's
// command set, which most cheap thermal printers follow). A job is:
//   ESC @                      reset (1B 40)
//   GS v 0 m xL xH yL yH d…    one band of the raster (1D 76 30 00 …), as many as it takes
//   ESC d n                    feed n lines, so the last dots clear the tear bar (1B 64 n)
//   GS V 1                     partial cut (1D 56 01), where the printer has a cutter
// A raster row is width / 8 bytes, the most significant bit leftmost, 1 a black dot.
//
// Bands: a printer takes a GS v 0 image whole into its buffer before it prints
// it, and cheap printers have small ones (4 to 16 KiB is common; some print
// garbage on a GS v 0 taller than 255 rows). BAND_ROWS = 128 keeps a band at
// 6 KiB on 58 mm paper (48 bytes a row) and 9 KiB on 80 mm (72 bytes a row),
// and a page of 10,000 rows in 79 bands; each band prints and stops, so bands
// join without a seam. A printer that wants less is given `bandRows` (24 to 255:
// never taller than 255 rows, which some printers misprint).
//
// Written here rather than taken from npm: @point-of-sale/receipt-printer-encoder
// (4.0.1, the best kept of the three candidates) does give back a 1-bit bitmap
// dot for dot with its "threshold" algorithm, but it pads every image to a
// multiple of 8 rows (white paper added), fixes its bands at 255 rows, sends
// commands of its own around the image (FS ., ESC M), wants RGBA in (4 bytes a
// dot), took 95 ms for 384 x 1001 dots, and brings 2 MB of dependencies
// (codepage tables, canvas dithering). This file is the part of it we need.
import type { Dots } from "./bilevel.ts";

/** Rows per GS v 0 band unless a printer asks for others (see above). */
export const BAND_ROWS = 128;
export const MIN_BAND_ROWS = 24;
/** Some printers misprint a GS v 0 image taller than 255 rows (yH > 0), so no band is. */
export const MAX_BAND_ROWS = 255;
/** Lines fed after the picture, before the cut: the cutter sits above the print head. */
export const FEED_LINES = 4;
/** The widths of ordinary receipt paper at 203 dpi: 58 mm and 80 mm. */
export const PRINTER_WIDTHS = [384, 576] as const;

export const ESC_INIT = Uint8Array.of(0x1b, 0x40);
export const GS_V0 = Uint8Array.of(0x1d, 0x76, 0x30, 0x00);
export const ESC_FEED = (lines: number) => Uint8Array.of(0x1b, 0x64, lines);
export const GS_CUT_PARTIAL = Uint8Array.of(0x1d, 0x56, 0x01);

export interface JobOptions {
  /** Rows per band (default BAND_ROWS). */
  bandRows?: number;
  /** Cut the paper after the feed (default true). */
  cut?: boolean;
  /** Lines fed after the picture (default FEED_LINES). */
  feedLines?: number;
}

/** One printing job's bytes, and where its bands are in them. */
export interface EscPosJob {
  bytes: Uint8Array;
  /** The byte offset at which each band ends (a printer that got this far printed that band). */
  bandEnds: number[];
  /** The most bytes of one band (its command included): what fills a band a dropped job left half-received. */
  bandBytes: number;
}

/** What is wrong with a band height, or undefined. */
export function bandRowsProblem(rows: number): string | undefined {
  return Number.isInteger(rows) && rows >= MIN_BAND_ROWS && rows <= MAX_BAND_ROWS
    ? undefined
    : rows > MAX_BAND_ROWS && Number.isInteger(rows)
      ? `${rows} rows is too tall a band: some printers print an image taller than ${MAX_BAND_ROWS} rows as garbage; ` +
        `give ${MIN_BAND_ROWS} to ${MAX_BAND_ROWS}`
      : `band rows are a whole number from ${MIN_BAND_ROWS} to ${MAX_BAND_ROWS}, not ${rows}`;
}

/** The dots packed into raster rows: width / 8 bytes a row, most significant bit leftmost, 1 for a black dot. */
export function packRows(dots: Dots): Uint8Array {
  const { width, height, data } = dots;
  if (width % 8 !== 0) throw new RangeError(`a raster is a whole number of bytes wide; ${width} dots is not`);
  const rowBytes = width / 8;
  const packed = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++)
    for (let b = 0; b < rowBytes; b++) {
      let byte = 0;
      const from = y * width + b * 8;
      for (let bit = 0; bit < 8; bit++) if (data[from + bit] === 0) byte |= 0x80 >> bit;
      packed[y * rowBytes + b] = byte;
    }
  return packed;
}

/** A whole job for `dots`: reset, the raster in bands, a feed and (unless told not to) a cut. */
export function encodeJob(dots: Dots, options: JobOptions = {}): EscPosJob {
  const bandRows = options.bandRows ?? BAND_ROWS;
  const problem = bandRowsProblem(bandRows);
  if (problem) throw new RangeError(problem);
  const rows = packRows(dots);
  const rowBytes = dots.width / 8;
  const feed = ESC_FEED(options.feedLines ?? FEED_LINES);
  const cut = options.cut === false ? new Uint8Array(0) : GS_CUT_PARTIAL;
  const bands = Math.ceil(dots.height / bandRows);
  const bytes = new Uint8Array(ESC_INIT.length + bands * 8 + rows.length + feed.length + cut.length);
  const bandEnds: number[] = [];
  bytes.set(ESC_INIT, 0);
  let at = ESC_INIT.length;
  for (let start = 0; start < dots.height; start += bandRows) {
    const h = Math.min(bandRows, dots.height - start);
    bytes.set(GS_V0, at);
    bytes.set([rowBytes & 0xff, rowBytes >> 8, h & 0xff, h >> 8], at + 4);
    bytes.set(rows.subarray(start * rowBytes, (start + h) * rowBytes), at + 8);
    at += 8 + h * rowBytes;
    bandEnds.push(at);
  }
  bytes.set(feed, at);
  bytes.set(cut, at + feed.length);
  return { bytes, bandEnds, bandBytes: 8 + Math.min(bandRows, dots.height) * rowBytes };
}

/** How many bands of `job` lie wholly within its first `sent` bytes. */
export function bandsWithin(job: EscPosJob, sent: number): number {
  return job.bandEnds.filter((end) => end <= sent).length;
}

/**
 * What a job sent again after a dropped connection starts with: a band's worth
 * of NUL bytes. A printer left inside a band (waiting for the rest of its
 * rows) takes as many as it lacks as blank rows and so finishes that band
 * white; a printer that was between commands ignores NUL. Then the job's own
 * ESC @ starts it afresh.
 */
export function resendPrefix(job: EscPosJob): Uint8Array {
  return new Uint8Array(job.bandBytes);
}
