// Under `npm start` a save changes a shard or two of a publication; the other
// shards have the very bytes the last good build wrote. Each of those is linked
// from the live site instead of written again into the next one: a link writes
// no bytes, and removing the old site afterwards frees none. (On a disk that
// discards what is freed, as these machines' do, creating and freeing files took
// 0.6 ms a file, most of a save's writing.)
import { link, writeFile } from "node:fs/promises";
import path from "node:path";
import { DATA_DIR, siteDataDir } from "../model/site-paths.ts";

export class KeptFiles {
  /** What the last good build wrote, by the file's path in the build's folder. */
  #last = new Map<string, Buffer>();
  /** What the build under way has written so far. */
  #next = new Map<string, Buffer>();
  /** Where the last good build's site is (its functions' data beside it). */
  #home: string | undefined;

  /** A build starts: what a failed one wrote is nowhere to link from. */
  begin(): void {
    this.#next = new Map();
  }

  /** Writes `bytes` at `file` in the build's `output`, or links the last good build's file of the same bytes. */
  async put(output: string, file: string, bytes: Buffer): Promise<void> {
    this.#next.set(file, bytes);
    const last = this.#last.get(file);
    if (this.#home !== undefined && last?.equals(bytes)) {
      const linked = await link(builtPath(this.#home, file), path.join(output, file)).then(
        () => true,
        // Removed by hand since, or a site on another disk: the bytes are written instead.
        () => false,
      );
      if (linked) return;
    }
    await writeFile(path.join(output, file), bytes);
  }

  /** The build succeeded, and its site is now at `home`: its files are the ones to link from. */
  settled(home: string): void {
    this.#last = this.#next;
    this.#next = new Map();
    this.#home = path.resolve(home);
  }
}

/** Where a file of the build's folder is once the build is swapped in: the functions' data is beside the site. */
function builtPath(home: string, file: string): string {
  const [top, ...rest] = file.split("/");
  return top === DATA_DIR ? path.join(siteDataDir(home), ...rest) : path.join(home, file);
}
