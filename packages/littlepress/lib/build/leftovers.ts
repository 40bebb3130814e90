// What a failed build leaves behind. When one page fails, Eleventy's build
// rejects at once, while the pages still in its transforms (an image plugin's
// work can take a while) go on and are written after the build has removed its
// folder, making it again: a `_site.next/` of a few pages. The build removes
// its folders at once, and again when the process exits, after those writes.
// Its passthrough copies go on too; the build waits for them (followCopies).
import { rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import type Eleventy from "@11ty/eleventy";

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

/** The passthrough copies of one Eleventy build, followed by followCopies. */
export interface PassthroughCopies {
  /** Resolves once every copy started so far has ended, each as it may (a failure is the build's to report). */
  settled(): Promise<void>;
}

/**
 * Follows each passthrough copy of an initialised Eleventy's build. Eleventy 3.1 starts them before it renders,
 * and awaits them only once every template has rendered: when a template or a data file fails first, nothing
 * awaits them. A copy that then fails (its folder removed under it by the failed build) was an unhandled
 * rejection, which ended the process with Eleventy's stack trace instead of the build's own problem, and
 * ended `npm start`. Here each copy's failure is caught, and the build waits for them before removing the
 * folder they write into. (The manager is Eleventy's own instance; without one, nothing is followed.)
 */
export function followCopies(eleventy: Eleventy): PassthroughCopies {
  const manager = eleventy.passthroughManager;
  const copies: Promise<unknown>[] = [];
  if (manager) {
    const copy = manager.copyPassthrough.bind(manager);
    manager.copyPassthrough = (pass) => {
      const copying = copy(pass);
      copies.push(copying.catch(() => undefined));
      return copying;
    };
  }
  return { settled: async () => void (await Promise.all(copies)) };
}
