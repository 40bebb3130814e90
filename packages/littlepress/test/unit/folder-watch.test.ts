// Node's watch of each folder, the first word of a save under `npm start`
// (lib/build/folder-watch.ts): real files, real events.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { FolderWatch, MOST_FOLDERS } from "../../lib/build/folder-watch.ts";

mkdirSync(".test-work", { recursive: true });
const root = path.resolve(mkdtempSync(path.join(".test-work", "folder-watch-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The watch of `top`, each event passed back to it as live.ts does: what it
 * heard, and `hear(file)`, true once it names the file (false after `ms`).
 */
function watching(top: string, skip: (folder: string) => boolean = () => false) {
  const heard: string[] = [];
  let wake = () => {};
  const folders: FolderWatch = new FolderWatch(skip, (file) => {
    heard.push(file);
    folders.heard(file);
    wake();
  });
  folders.watch(top);
  const hear = async (wanted: string, ms = 2_000) => {
    const deadline = Date.now() + ms;
    while (!heard.includes(wanted) && Date.now() < deadline)
      await new Promise<void>((r) => ((wake = r), setTimeout(r, 50)));
    return heard.includes(wanted);
  };
  return { heard, hear, folders, close: () => folders.close() };
}

it("names a file written in a folder under the root, and one renamed over it (sed -i, an editor's save)", async () => {
  const top = path.join(root, "site");
  mkdirSync(path.join(top, "serial", "editions"), { recursive: true });
  writeFileSync(path.join(top, "serial", "editions", "1.md"), "one");
  const w = watching(top);
  try {
    const file = path.join(top, "serial", "editions", "1.md");
    writeFileSync(file, "one, saved");
    expect(await w.hear(file)).toBe(true);
    w.heard.length = 0;
    writeFileSync(path.join(top, "serial", "editions", "sedAb12Cd"), "one, by sed");
    renameSync(path.join(top, "serial", "editions", "sedAb12Cd"), file);
    expect(await w.hear(file)).toBe(true);
  } finally {
    w.close();
  }
});

it("leaves out the folders it is told to skip, and what is under them", async () => {
  const top = path.join(root, "blog");
  mkdirSync(path.join(top, "_site", "posts"), { recursive: true });
  mkdirSync(path.join(top, "posts"), { recursive: true });
  const skip = (folder: string) => path.basename(folder) === "_site";
  const w = watching(top, skip);
  try {
    expect(w.folders.size).toBe(2); // the project and posts/
    writeFileSync(path.join(top, "_site", "posts", "index.html"), "built");
    writeFileSync(path.join(top, "posts", "a.md"), "a post");
    expect(await w.hear(path.join(top, "posts", "a.md"))).toBe(true);
    expect(w.heard.filter((f) => f.includes("_site"))).toEqual([]);
  } finally {
    w.close();
  }
});

it(`watches ${MOST_FOLDERS} folders at most, and goes on when one is removed`, async () => {
  const top = path.join(root, "many");
  for (let i = 0; i < MOST_FOLDERS + 20; i++) mkdirSync(path.join(top, `f${i}`, "deep"), { recursive: true });
  const w = watching(top);
  try {
    expect(w.folders.size).toBe(MOST_FOLDERS);
    rmSync(path.join(top, "f3"), { recursive: true });
    const file = path.join(top, "f4", "saved.md");
    writeFileSync(file, "still heard");
    expect(await w.hear(file)).toBe(true);
  } finally {
    w.close();
  }
});

it("watches a folder made later, and one made inside it before its watch began, and names what they held", async () => {
  const top = path.join(root, "later");
  mkdirSync(top);
  const w = watching(top);
  try {
    // As `mkdir -p` and a quick editor make them: all written before an event of the first is read.
    const editions = path.join(top, "hello", "editions");
    mkdirSync(editions, { recursive: true });
    writeFileSync(path.join(top, "hello", "publication.json"), "{}");
    writeFileSync(path.join(editions, "0.md"), "first");
    expect(await w.hear(path.join(editions, "0.md"))).toBe(true);
    expect(w.folders.size).toBe(3);
    w.heard.length = 0;
    writeFileSync(path.join(editions, "0.md"), "edited");
    expect(await w.hear(path.join(editions, "0.md"))).toBe(true);
    // Removed and made again (ext4 gives the inode back): the new folder is watched, not the gone one.
    w.heard.length = 0;
    rmSync(path.join(top, "hello"), { recursive: true });
    mkdirSync(editions, { recursive: true });
    expect(await w.hear(path.join(top, "hello"))).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    w.heard.length = 0;
    writeFileSync(path.join(editions, "1.md"), "again");
    expect(await w.hear(path.join(editions, "1.md"))).toBe(true);
  } finally {
    w.close();
  }
});
