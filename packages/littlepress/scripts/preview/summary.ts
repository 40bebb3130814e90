// Lengths on paper: the index.json the desk page reads, and the table printed
// at the end of a run.
import type { EditionKey } from "../../lib/model/edition-key.ts";
import { MAX_HEIGHT } from "./render.ts";
import { plural } from "../../lib/model/words.ts";

/** The printer prints 8 dots per millimetre. */
export const DOTS_PER_MM = 8;
/** The platform advised editions of about this length. */
export const ADVISED_PX = 800;
export const ADVISED_TEXT = `longer than the advised ${ADVISED_PX} px (${ADVISED_PX / DOTS_PER_MM} mm)`;

/** One edition in index.json. */
export interface IndexEdition {
  key: EditionKey;
  file: string;
  heightPx: number;
  heightMm: number;
  tooLong: boolean;
}

/** An edition whose subscribers' settings give different pages, and the sheet that shows them side by side. */
export interface IndexVariants {
  key: EditionKey;
  /** variants/<key>.png */
  file: string;
  /** The settings of each page on the sheet, left to right ("lang=fr, name=<40 characters>"). */
  settings: string[];
}

/** preview/<slug>/index.json, read by the desk page. */
export interface PreviewIndex {
  editions: IndexEdition[];
  contactSheet: string;
  /** Only when some edition's settings give more than one page. */
  variants?: IndexVariants[];
}

/** The folder of the variant sheets inside preview/<slug>/. */
export const VARIANTS_DIR = "variants";

export const CONTACT_SHEET = "contact-sheet.png";

export function indexEdition(key: EditionKey, file: string, heightPx: number): IndexEdition {
  return { key, file, heightPx, heightMm: heightPx / DOTS_PER_MM, tooLong: heightPx > ADVISED_PX };
}

/** One row of the table: a rendered edition, or one that failed. */
export interface SummaryRow {
  slug: string;
  key: EditionKey;
  /** A publication with settings: those that give this page, the first of them ("lang=fr, name=<40 characters>"). */
  settings?: string;
  /** How many other settings give the same page. */
  others?: number;
  heightPx?: number;
  wider?: boolean;
  /** Requests to other hosts that were not made. */
  blocked?: string[];
  /** Relative URLs, which load nothing on the printer. */
  relative?: string[];
  /** Where the edition is written (its Markdown file or data row), when known. */
  file?: string;
  /** What the page uses that sirius's browser lacks, one sentence each with what to do (qtwebkit.ts). */
  lacks?: string[];
  error?: string;
}

/** A plain-text table: publication, edition, length in px and mm, and a mark for each problem. */
export function formatSummary(rows: SummaryRow[]): string {
  const cells = rows.map((r) => {
    if (r.error !== undefined) return [r.slug, r.key, "-", "-", `✗ ${r.error}`];
    const px = r.heightPx ?? 0;
    const notes = [];
    if (px > ADVISED_PX) notes.push(`⚠ ${ADVISED_TEXT}`);
    if (px > MAX_HEIGHT) notes.push(`⚠ ${cutText(px)}`);
    if (r.wider) notes.push("wider than the paper: the right side is cut");
    if (r.blocked?.length)
      notes.push(
        `not loaded (the preview loads only the edition's own images, styles and fonts): ${r.blocked.join(", ")}`,
      );
    if (r.relative?.length) notes.push(`⚠ ${RELATIVE_TEXT}: ${r.relative.join(", ")}`);
    for (const lack of r.lacks ?? []) notes.push(`⚠ ${lack}`);
    return [r.slug, r.key, `${px} px`, `${formatMm(px / DOTS_PER_MM)} mm`, notes.join("; ")];
  });
  const head = ["publication", "edition", "px", "mm", ""];
  let right = new Set([2, 3]);
  // A publication with settings: which settings give each page, in a column of its own.
  if (rows.some((r) => r.settings !== undefined)) {
    head.splice(2, 0, "settings");
    rows.forEach((r, i) => cells[i]!.splice(2, 0, settingsText(r)));
    right = new Set([3, 4]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((text, i) => (right.has(i) ? text.padStart(widths[i]!) : text.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), ...cells.map(line)].join("\n") + "\n";
}

const formatMm = (mm: number) => (Number.isInteger(mm) ? String(mm) : mm.toFixed(1));

/** Why a page is too long for sirius, with its length on paper. */
export function cutText(heightPx: number): string {
  return (
    `${heightPx} px (${formatMm(heightPx / DOTS_PER_MM)} mm) long: the printer cuts it at ` +
    `${MAX_HEIGHT} px (${formatMm(MAX_HEIGHT / DOTS_PER_MM)} mm)`
  );
}

const RELATIVE_TEXT = "relative URLs load nothing on the printer (it opens the page from a file)";

/**
 * What will not print as it shows, one sentence per edition and problem: a
 * page longer than the printer prints, relative URLs. (`--strict` fails on
 * these; the advised 800 px is advice, not one of them.)
 */
export function printWarnings(rows: SummaryRow[]): string[] {
  const warnings = [];
  for (const r of rows) {
    const edition = editionName(r);
    if (r.heightPx !== undefined && r.heightPx > MAX_HEIGHT)
      warnings.push(`${edition} is ${cutText(r.heightPx)}; the rest is never printed`);
    if (r.relative?.length)
      warnings.push(`${edition}: ${RELATIVE_TEXT}: ${r.relative.join(", ")}; link them by absolute URL`);
  }
  return warnings;
}

/**
 * What a page uses that sirius's browser lacks, one sentence per edition and problem. A warning, not a
 * failure: the page prints, though not as its author wrote it.
 */
export function browserWarnings(rows: SummaryRow[]): string[] {
  return rows.flatMap((r) =>
    (r.lacks ?? []).map((lack) => `${r.file ? `${r.file} (${editionName(r)})` : editionName(r)}: ${lack}`),
  );
}

/** The settings that give a row's page, to reproduce it: "lang=fr, name=<80 characters> (and 2 other settings)". */
export function settingsText(r: Pick<SummaryRow, "settings" | "others">): string {
  if (r.settings === undefined) return "";
  return r.others ? `${r.settings} (and ${plural(r.others, "other setting")})` : r.settings;
}

/** "scroll edition 3", or with settings "scroll edition 3 with lang=fr, name=<80 characters>". */
export function editionName(r: Pick<SummaryRow, "slug" | "key" | "settings" | "others">): string {
  return `${r.slug} edition ${r.key}${r.settings !== undefined ? ` with ${settingsText(r)}` : ""}`;
}
