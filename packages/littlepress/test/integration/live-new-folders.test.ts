// `npm start` builds every save in a publication folder made while it runs, as
// the README's first tutorial makes one: `mkdir -p content/<slug>/editions`, then
// publication.json and editions/0.md, then an edit of that edition. The folders
// and files come faster than a watch of the new folder can begin (parcel's began
// only once it heard of the folder, and never on `editions`, made inside it
// first): each new publication must be served all the same, and its edit too.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { FIXTURES } from "../helpers/sites.ts";
import { withStart } from "../helpers/start.ts";

const server = withStart("live-new-folders", ["basic/serial"]);
/** Publications made one after another while the server runs. */
const FOLDERS = 20;
/**
 * How long one save may take to show before it counts as missed: the test judges whether each save is built, not how
 * fast (the bench's save-to-visible does). Under 1 s alone; the whole test took 42 s in a loaded CI run.
 */
const WAIT_MS = 30_000;
const PUBLICATION = readFileSync(path.join(FIXTURES, "basic", "open-serial", "publication.json"));

/** Asks for `url` until its body holds `words`, for WAIT_MS at most: whether it did. */
async function served(url: string, words: string): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const res = await fetch(server.url + url, { signal: AbortSignal.timeout(5_000) });
    if ((await res.text()).includes(words)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

it(`builds ${FOLDERS} publications made while it runs, and an edit of each`, { timeout: 300_000 }, async () => {
  const missed: string[] = [];
  for (let i = 0; i < FOLDERS; i++) {
    const slug = `hello${i}`;
    const editions = path.join(server.content, slug, "editions");
    mkdirSync(editions, { recursive: true });
    writeFileSync(path.join(server.content, slug, "publication.json"), PUBLICATION);
    writeFileSync(path.join(editions, "0.md"), `---\nnumber: 0\n---\nFirst words of ${slug}.\n`);
    const url = `/${slug}/edition/?delivery_count=0`;
    if (!(await served(url, `First words of ${slug}.`))) {
      missed.push(`${slug}: never served`);
      continue;
    }
    writeFileSync(path.join(editions, "0.md"), `---\nnumber: 0\n---\nEdited words of ${slug}.\n`);
    if (!(await served(url, `Edited words of ${slug}.`))) missed.push(`${slug}: its edit never served`);
  }
  expect(missed, server.log).toEqual([]);
});
