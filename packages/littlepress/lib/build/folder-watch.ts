// The first word of a save. @parcel/watcher gathers a folder's events for 50 ms
// before it reports them (an editor's write, rename and chmod as one batch):
// that was a quarter of the time from a save to its page. Node's own watch of
// each folder (inotify, one folder at a time, not recursive) tells at once.
// It also watches the folders made while `npm start` runs: parcel adds a new
// folder's watch only once it hears of the folder, so a folder made inside it
// before then (`mkdir -p content/hello/editions`) was never watched, and no save
// there was built. What both report is built once (live.ts drops a file
// already built as it is now).
import { readdirSync, statSync, watch, type FSWatcher, type Stats } from "node:fs";
import path from "node:path";

/** Folders watched this way at most (a blog watches its whole project); the rest wait for parcel. */
export const MOST_FOLDERS = 256;

/** Node's watch of each folder under some roots, and of each folder made under them later. */
export class FolderWatch {
  /** Each watched folder's watch, and which folder it is (folderId): one removed and made again is watched again. */
  private readonly watched = new Map<string, { watcher: FSWatcher; id: string }>();

  /**
   * `changed` gets each file or folder named by an event; `skip` names the
   * folders never watched (builds, installed packages).
   */
  constructor(
    private readonly skip: (folder: string) => boolean,
    private readonly changed: (file: string) => void,
  ) {}

  /** Watches `root` and the folders under it, nearest first. */
  watch(root: string): void {
    this.walk(root, false);
  }

  /**
   * A path an event named. A folder not watched yet (made since) is watched,
   * with every folder in it, and each file already in them is reported as
   * changed: it may have been written before the watch began.
   */
  heard(file: string): void {
    const facts = statSync(file, { throwIfNoEntry: false });
    if (!facts?.isDirectory() || this.watched.get(file)?.id === folderId(facts) || this.skip(file)) return;
    this.walk(file, true);
  }

  /** How many folders are watched. */
  get size(): number {
    return this.watched.size;
  }

  close(): void {
    for (const { watcher } of this.watched.values()) watcher.close();
    this.watched.clear();
  }

  /** Watches `root` and the folders under it (`announce`: and reports the files in them). */
  private walk(root: string, announce: boolean): void {
    const queue = [root];
    for (let next = 0; next < queue.length && this.watched.size < MOST_FOLDERS; next++) {
      const folder = queue[next]!;
      try {
        this.add(folder);
        // Listed once the watch is on: a file written before is in the list, one written after is an event.
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const inner = path.join(folder, entry.name);
          if (entry.isDirectory()) {
            if (!this.skip(inner)) queue.push(inner);
          } else if (announce) this.changed(inner);
        }
      } catch {
        // Gone, or not readable, since it was listed: parcel's watch reports what happens there.
      }
    }
  }

  /** Watches one folder, unless it is watched already. */
  private add(folder: string): void {
    const id = folderId(statSync(folder));
    const known = this.watched.get(folder);
    if (known?.id === id) return;
    known?.watcher.close(); // the folder of that name was removed: its watch reports nothing more
    const watcher = watch(folder, { persistent: false }, (_event, name) => {
      if (name) this.changed(path.join(folder, name));
    });
    watcher.on("error", () => {
      watcher.close();
      if (this.watched.get(folder)?.watcher === watcher) this.watched.delete(folder);
    });
    this.watched.set(folder, { watcher, id });
  }
}

/**
 * Which folder a path names: its inode, and when it was made. A folder removed
 * and made again at once often gets the inode back (ext4), but not its birth time.
 */
const folderId = (facts: Stats) => `${facts.ino}:${facts.birthtimeMs}`;
