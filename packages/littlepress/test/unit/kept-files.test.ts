// npm start's writes of a build's files (lib/build/kept-files.ts): a file with
// the bytes the last good build wrote is linked from the live site, the
// functions' data beside it; any other is written; nothing is linked from a
// build that failed, or from a file that is gone.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KeptFiles } from "../../lib/build/kept-files.ts";
import { DATA_DIR, siteDataDir } from "../../lib/model/site-paths.ts";

mkdirSync(".test-work", { recursive: true });
const root = mkdtempSync(path.join(".test-work", "kept-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const site = path.join(root, "_site");
const next = path.join(root, "_site.next");
const shard = `${DATA_DIR}/serial/shards/00001.shard`;
const meta = "serial/meta.json";

/** A build into _site.next of these files, swapped in as build.ts does (the data beside the site). */
async function build(kept: KeptFiles, files: Record<string, string>, succeeds = true) {
  rmSync(next, { recursive: true, force: true });
  kept.begin();
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(next, file)), { recursive: true });
    await kept.put(next, file, Buffer.from(text));
  }
  if (!succeeds) return;
  for (const folder of [site, siteDataDir(site)]) rmSync(folder, { recursive: true, force: true });
  if (existsSync(path.join(next, DATA_DIR))) renameSync(path.join(next, DATA_DIR), siteDataDir(site));
  renameSync(next, site);
  kept.settled(site);
}

const inode = (file: string) => statSync(file).ino;

it("links a file of the same bytes from the last good build, and writes a changed one", async () => {
  const kept = new KeptFiles();
  await build(kept, { [shard]: "shard one", [meta]: "{}" });
  const before = { shard: inode(path.join(siteDataDir(site), "serial/shards/00001.shard")) };
  await build(kept, { [shard]: "shard one", [meta]: '{"name":"new"}' });
  expect(inode(path.join(siteDataDir(site), "serial/shards/00001.shard"))).toBe(before.shard);
  expect(readFileSync(path.join(site, meta), "utf8")).toBe('{"name":"new"}');
});

it("links nothing from a build that failed, and writes a file that is gone from the site", async () => {
  const kept = new KeptFiles();
  await build(kept, { [meta]: "first" });
  await build(kept, { [meta]: "failed" }, false); // never swapped in: the site still has "first"
  await build(kept, { [meta]: "failed" }); // the same bytes as the failed build's: written, not the site's linked
  expect(readFileSync(path.join(site, meta), "utf8")).toBe("failed");
  rmSync(path.join(site, meta));
  await build(kept, { [meta]: "failed" });
  expect(existsSync(path.join(site, meta))).toBe(true);
  expect(readFileSync(path.join(site, meta), "utf8")).toBe("failed");
});
