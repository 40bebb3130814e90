// Replacing a built folder as a whole: the site by `littlepress build`, the
// functions' data by the plugin after every build, whatever ran Eleventy, and
// a publication's print previews in a site (`littlepress preview`).
import { rename, rm } from "node:fs/promises";

/** Swaps before giving up on a folder that others keep putting in place: far more than two at once ever need. */
const ATTEMPTS = 10;

/**
 * Replaces `folder` with `next` (renames, then removes the old one, set aside
 * at `old`); a missing `folder` is simply made. Where another process swaps a
 * folder in at the same time (two previews of one site), the last one in stays:
 * a folder put there between this swap's two renames is set aside in turn.
 */
export async function swapIn(next: string, folder: string, old = `${folder}.old`): Promise<void> {
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
  await rm(old, { recursive: true, force: true });
}
