// Writes a publication's preview folder: one PNG per edition, the contact
// sheet and index.json; then puts a copy into the built site, where the local
// server shows it at once.
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { EditionKey } from "../../lib/model/edition-key.ts";
import { contactSheet } from "./contact-sheet.ts";
import { CONTACT_SHEET, indexEdition, type IndexEdition, type PreviewIndex } from "./summary.ts";

/** One edition rendered in this run, already black and white. */
export interface Rendered {
  key: EditionKey;
  png: Buffer;
  heightPx: number;
}

export const pngName = (key: EditionKey) => `${key}.png`;

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
  const index: PreviewIndex = { editions, contactSheet: CONTACT_SHEET };
  await writeFile(path.join(dir, "index.json"), JSON.stringify(index, null, 2) + "\n");
  return index;
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
  await rm(target, { recursive: true, force: true });
  await cp(dir, target, { recursive: true });
  return target;
}
