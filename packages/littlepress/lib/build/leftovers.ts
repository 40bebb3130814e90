// What a failed build leaves behind. When one page fails, Eleventy's build
// rejects at once, while the pages still in its transforms (an image plugin's
// work can take a while) go on and are written after the build has removed its
// folder, making it again: a `_site.next/` of a few pages. The build removes
// its folders at once, and again when the process exits, after those writes.
import { rmSync } from "node:fs";
import { rm } from "node:fs/promises";

const leftovers = new Set<string>();

/**
 * Removes a failed build's folders now, as far as Eleventy's late writes let
 * it, and again when the process exits. Never throws: the build's own error is
 * the one to report, not a removal that raced a late write.
 */
export async function removeFailedBuild(...folders: string[]): Promise<void> {
  removeAgainAtExit(...folders);
  for (const folder of folders) {
    // A late write can land in a folder while it is being removed (ENOTEMPTY, after the retries):
    // the removal at exit, once the writes are done, finishes what this one could not.
    await rm(folder, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 }).catch(() => {});
  }
}

/**
 * Removes each folder again when the process exits (by then Eleventy's late
 * writes are done). A build's staging folder never outlives its process: a
 * later build that succeeded has renamed it, one cut short left it half made.
 */
function removeAgainAtExit(...folders: string[]): void {
  if (!leftovers.size) process.once("exit", removeLeftovers);
  for (const folder of folders) leftovers.add(folder);
}

function removeLeftovers(): void {
  for (const folder of leftovers) rmSync(folder, { recursive: true, force: true });
}
