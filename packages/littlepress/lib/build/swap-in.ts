// Replacing a built folder as a whole: the site by `littlepress build`, the
// functions' data by the plugin after every build, whatever ran Eleventy, and
// a publication's print previews in a site (`littlepress preview`).
import { copyFile, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { siteDataDir } from "../model/site-paths.ts";

/** Swaps before giving up on a folder that others keep putting in place: far more than two at once ever need. */
const ATTEMPTS = 10;

/**
 * Replaces `folder` with `next` (renames, then removes the old one, set aside
 * at `old`); a missing `folder` is simply made. Where another process swaps a
 * folder in at the same time (two previews of one site), the last one in stays:
 * a folder put there between this swap's two renames is set aside in turn.
 */
export async function swapIn(next: string, folder: string, old = `${folder}.old`): Promise<void> {
  const { removed } = await placeIn(next, folder, old);
  await removed;
}

/**
 * As swapIn, but resolves as soon as `next` is in place, the old folder's
 * removal under way (`removed`): `npm start` serves a save before that ends.
 */
export async function placeIn(
  next: string,
  folder: string,
  old = `${folder}.old`,
): Promise<{ removed: Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    await rm(old, { recursive: true, force: true });
    await rename(folder, old).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "ENOENT") throw e;
    });
    try {
      await rename(next, folder);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= ATTEMPTS || (code !== "ENOTEMPTY" && code !== "EEXIST")) throw error;
    }
  }
  return { removed: rm(old, { recursive: true, force: true }) };
}

/**
 * Swaps a build's site (`<live>.next`) and its functions' data in. With
 * `later` (npm start's memory), resolves once both are in place and leaves the
 * old folders' removal in `later.oldBuild`: the save is served while they go
 * (a failure to remove them shows at the next swap, which removes them first).
 * Else, as a build command needs, once they are gone.
 */
export async function swapBuildIn(live: string, later?: { oldBuild: Promise<void> | undefined }): Promise<void> {
  const data = await placeIn(siteDataDir(`${live}.next`), siteDataDir(live));
  const site = await placeIn(`${live}.next`, live);
  const removed = Promise.all([data.removed, site.removed]).then(() => undefined);
  if (later) later.oldBuild = removed.catch(() => undefined);
  else await removed;
}

/**
 * Copies into `next` the files written into the live `folder` since `since` (ms) that `next` lacks: a
 * site's own steps that write into its output folder by name (`writeFileSync("dist/humans.txt")`) rather
 * than through Eleventy's folders, as they may under `npx @11ty/eleventy`. The swap then keeps them.
 */
export async function carryOwnWrites(folder: string, next: string, since: number): Promise<void> {
  // No live site yet (a first build): nothing was written into it.
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const target = path.join(next, path.relative(folder, file));
    if ((await stat(file)).mtimeMs < since || (await exists(target))) continue;
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(file, target);
  }
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
