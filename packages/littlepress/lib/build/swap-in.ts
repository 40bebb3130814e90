// Replacing a built folder as a whole: the site by `littlepress build`, the
// functions' data by the plugin after every build, whatever ran Eleventy.
import { rename, rm } from "node:fs/promises";

/** Replaces `folder` with `next` (renames, then removes the old one); a missing `folder` is simply made. */
export async function swapIn(next: string, folder: string): Promise<void> {
  await rm(`${folder}.old`, { recursive: true, force: true });
  await rename(folder, `${folder}.old`).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== "ENOENT") throw e;
  });
  await rename(next, folder);
  await rm(`${folder}.old`, { recursive: true, force: true });
}
