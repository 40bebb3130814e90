// Replacing a folder as a whole (lib/build/swap-in.ts), and a preview's copy
// into a site (scripts/preview/output.ts's copyIntoSite), also when several
// run at once on the same folder, as two `littlepress preview` runs of one
// site do: every one ends well, and the folder left is one of them whole.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { swapBuildIn, swapIn } from "../../lib/build/swap-in.ts";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { copyIntoSite } from "../../scripts/preview/output.ts";

const root = mkdtempSync(path.join(tmpdir(), "littlepress-swap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder of `files` files, each saying which folder it belongs to. */
function folder(dir: string, name: string, files = 30): string {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < files; i++) writeFileSync(path.join(dir, `${i}.png`), name);
  return dir;
}

/** The one folder name all of `dir`'s files say, or a list of several (a mixed or half folder). */
function whose(dir: string): string[] {
  const names = readdirSync(dir).map((f) => readFileSync(path.join(dir, f), "utf8"));
  expect(names).toHaveLength(30);
  return [...new Set(names)];
}

it("puts the new folder in place of the old one, and of none", async () => {
  const target = path.join(root, "single", "site");
  await swapIn(folder(path.join(root, "single", "a"), "a"), target);
  expect(whose(target)).toEqual(["a"]);
  await swapIn(folder(path.join(root, "single", "b"), "b"), target);
  expect(whose(target)).toEqual(["b"]);
  expect(readdirSync(path.join(root, "single")).sort()).toEqual(["site"]);
});

it("leaves one of several folders swapped in at once, whole, and nothing beside it", async () => {
  const dir = path.join(root, "many");
  const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
  const target = path.join(dir, "site");
  await swapIn(folder(path.join(dir, "first"), "first"), target);
  await Promise.all(names.map((n) => swapIn(folder(path.join(dir, n), n), target, path.join(dir, `${n}.old`))));
  const left = whose(target);
  expect(left).toHaveLength(1);
  expect(names).toContain(left[0]);
  expect(readdirSync(dir)).toEqual(["site"]);
});

it("swaps a build and its data in: a build command ends with the old ones gone, npm start a moment after", async () => {
  const dir = path.join(root, "build");
  const site = path.join(dir, "_site");
  const built = (name: string) => (folder(`${site}.next`, name), folder(siteDataDir(`${site}.next`), `${name} data`));
  built("first");
  await swapBuildIn(site);
  built("second");
  await swapBuildIn(site);
  expect([whose(site), whose(siteDataDir(site))]).toEqual([["second"], ["second data"]]);
  expect(readdirSync(dir).sort()).toEqual(["_site", "_site_data"]);
  // Under npm start the call returns with the new folders in place, and says when the old ones are gone.
  const later: { oldBuild: Promise<void> | undefined } = { oldBuild: undefined };
  built("third");
  await swapBuildIn(site, later);
  expect([whose(site), whose(siteDataDir(site))]).toEqual([["third"], ["third data"]]);
  expect(later.oldBuild).toBeInstanceOf(Promise);
  await later.oldBuild;
  expect(readdirSync(dir).sort()).toEqual(["_site", "_site_data"]);
});

it("copies several previews into one site at once: each ends well, one is left whole, no copy beside it", async () => {
  const site = path.join(root, "site");
  mkdirSync(path.join(site, "daily"), { recursive: true });
  const names = Array.from({ length: 6 }, (_, i) => `preview-${i}`);
  const copies = await Promise.all(
    names.map((n) => copyIntoSite(folder(path.join(root, "previews", n), n), site, "daily")),
  );
  const target = path.join(site, "daily", "preview");
  expect(copies).toEqual(names.map(() => target));
  const left = whose(target);
  expect(left).toHaveLength(1);
  expect(names).toContain(left[0]);
  expect(readdirSync(path.join(site, "daily"))).toEqual(["preview"]);
});

it("copies nothing into a site without the publication's folder", async () => {
  const site = path.join(root, "other-site");
  mkdirSync(site, { recursive: true });
  expect(await copyIntoSite(folder(path.join(root, "lonely"), "lonely"), site, "daily")).toBeUndefined();
  expect(existsSync(path.join(site, "daily"))).toBe(false);
});
