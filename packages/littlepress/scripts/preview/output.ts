// Writes a publication's preview folder: one PNG per edition, the contact
// sheet and index.json; then puts a copy into the built site, where the local
// server shows it at once.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { swapIn } from "../../lib/build/swap-in.ts";
import type { EditionKey } from "../../lib/model/edition-key.ts";
import { contactSheet, type Strip } from "./contact-sheet.ts";
import {
  CONTACT_SHEET,
  indexEdition,
  VARIANTS_DIR,
  type IndexEdition,
  type IndexVariants,
  type PreviewIndex,
} from "./summary.ts";

/** One edition rendered in this run, already black and white. */
export interface Rendered {
  key: EditionKey;
  png: Buffer;
  heightPx: number;
}

export const pngName = (key: EditionKey) => `${key}.png`;

/** An edition whose subscribers' settings give different pages: one strip per page, labelled with its settings. */
export interface VariantSheet {
  key: EditionKey;
  strips: Strip[];
  /** Its image (contactSheet of the strips), made as soon as they were printed; none without strips. */
  png?: Buffer;
}

const variantSheetName = (key: EditionKey) => `${VARIANTS_DIR}/${key}.png`;

/**
 * Writes `rendered` into `dir`. With `partial` (only some editions were
 * rendered) the editions already there stay in index.json and on the sheet;
 * otherwise the folder is made to hold exactly this run's editions.
 * `order` is every key of the publication, in order.
 */
export async function writePublicationPreview(
  dir: string,
  rendered: Rendered[],
  order: EditionKey[],
  partial: boolean,
  sheets: VariantSheet[] = [],
): Promise<PreviewIndex | undefined> {
  await mkdir(dir, { recursive: true });
  await Promise.all(rendered.map((r) => writeFile(path.join(dir, pngName(r.key)), r.png)));
  const fresh = new Map(rendered.map((r) => [r.key, indexEdition(r.key, pngName(r.key), r.heightPx)]));
  const kept = partial ? await keptEditions(dir, order, fresh) : [];
  const editions = [...kept, ...fresh.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  if (!partial) await removeStale(dir, new Set(editions.map((e) => e.file)));
  if (editions.length === 0) return undefined;
  const strips = await Promise.all(
    editions.map(async (e) => {
      const png = await readFile(path.join(dir, e.file));
      return { key: e.key, png, height: (await sharp(png).metadata()).height ?? 1 };
    }),
  );
  await writeFile(path.join(dir, CONTACT_SHEET), await contactSheet(strips));
  const variants = await writeVariantSheets(dir, sheets, order, partial);
  const index: PreviewIndex = { editions, contactSheet: CONTACT_SHEET, ...(variants.length ? { variants } : {}) };
  await writeFile(path.join(dir, "index.json"), JSON.stringify(index, null, 2) + "\n");
  return index;
}

/**
 * Writes preview/<slug>/variants/<key>.png, the pages of each edition's
 * settings side by side; with `partial`, keeps the earlier sheets of the
 * editions not rendered this time.
 */
async function writeVariantSheets(
  dir: string,
  sheets: VariantSheet[],
  order: EditionKey[],
  partial: boolean,
): Promise<IndexVariants[]> {
  const folder = path.join(dir, VARIANTS_DIR);
  const fresh = new Map<EditionKey, IndexVariants>();
  let kept: IndexVariants[] = [];
  if (partial) {
    const earlier = await readFile(path.join(dir, "index.json"), "utf8").then(
      (text) => (JSON.parse(text) as PreviewIndex).variants ?? [],
      () => [],
    );
    for (const v of Array.isArray(earlier) ? earlier : []) {
      const current = order.includes(v.key) && !sheets.some((s) => s.key === v.key);
      if (current && v.file === variantSheetName(v.key) && (await stat(path.join(dir, v.file)).catch(() => undefined)))
        kept.push(v);
    }
  } else await rm(folder, { recursive: true, force: true });
  for (const sheet of sheets) {
    if (!sheet.png) continue;
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(dir, variantSheetName(sheet.key)), sheet.png);
    fresh.set(sheet.key, {
      key: sheet.key,
      file: variantSheetName(sheet.key),
      settings: sheet.strips.map((s) => s.key),
    });
  }
  kept = kept.filter((v) => !fresh.has(v.key));
  return [...kept, ...fresh.values()].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}

/** Editions of an earlier run that are still editions of the publication and still have their PNG. */
async function keptEditions(
  dir: string,
  order: EditionKey[],
  fresh: Map<EditionKey, IndexEdition>,
): Promise<IndexEdition[]> {
  let earlier: PreviewIndex;
  try {
    earlier = JSON.parse(await readFile(path.join(dir, "index.json"), "utf8")) as PreviewIndex;
  } catch {
    return [];
  }
  const kept: IndexEdition[] = [];
  for (const e of Array.isArray(earlier.editions) ? earlier.editions : []) {
    if (fresh.has(e.key) || !order.includes(e.key) || e.file !== pngName(e.key)) continue;
    if (await stat(path.join(dir, e.file)).catch(() => undefined)) kept.push(indexEdition(e.key, e.file, e.heightPx));
  }
  return kept;
}

/** Deletes PNGs of editions that are gone (renamed, removed, or failed this time). */
async function removeStale(dir: string, keep: Set<string>): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.endsWith(".png") && name !== CONTACT_SHEET && !keep.has(name))
      await rm(path.join(dir, name), { force: true });
  }
}

/** Copies the preview folder to <site>/<slug>/preview/ when the site has that publication's folder. */
export async function copyIntoSite(dir: string, site: string, slug: string): Promise<string | undefined> {
  const pubDir = path.join(site, slug);
  if (!(await stat(pubDir).catch(() => undefined))?.isDirectory()) return undefined;
  const target = path.join(pubDir, "preview");
  // Copied beside it, then swapped in whole: a server reading the site, or another preview of it at the same
  // time, never meets half a folder (two at once removed each other's files as they copied them).
  const next = await mkdtemp(path.join(pubDir, ".preview-"));
  try {
    await cp(dir, next, { recursive: true });
    await swapIn(next, target, `${next}.old`);
  } finally {
    await rm(next, { recursive: true, force: true });
  }
  return target;
}
