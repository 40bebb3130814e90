// The first word of a save. @parcel/watcher gathers a folder's events for 50 ms
// before it reports them (an editor's write, rename and chmod as one batch):
// that was a quarter of the time from a save to its page. Node's own watch of
// each folder (inotify, one folder at a time, not recursive) tells at once.
// Parcel still watches everything, folders made later included; what both
// report is built once (live.ts drops a file already built as it is now).
import { readdirSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";

/** Folders watched this way at most (a blog watches its whole project); the rest wait for parcel. */
export const MOST_FOLDERS = 256;

/**
 * Watches `root` and the folders under it, nearest first, leaving out those
 * `skip` names (builds, installed packages): `changed` gets each file or folder
 * named by an event. A folder removed later stops its watch quietly.
 */
export function watchFolders(
  root: string,
  skip: (folder: string) => boolean,
  changed: (file: string) => void,
): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  const queue = [root];
  for (let next = 0; next < queue.length && watchers.length < MOST_FOLDERS; next++) {
    const folder = queue[next]!;
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name) changed(path.join(folder, name));
      });
      watcher.on("error", () => watcher.close());
      watchers.push(watcher);
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const inner = path.join(folder, entry.name);
        if (entry.isDirectory() && !skip(inner)) queue.push(inner);
      }
    } catch {
      // Gone, or not readable, since it was listed: parcel's watch reports what happens there.
    }
  }
  return watchers;
}
