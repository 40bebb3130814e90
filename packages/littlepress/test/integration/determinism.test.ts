// Deterministic builds: the same content gives byte-identical editions and
// manifests whatever the day it is built on, the time zone, file order or
// modification times (so the daily scheduled rebuild of unchanged content
// changes no ETag, and nobody prints an edition twice); editing or adding one
// edition changes no other edition's ETag.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { forgetSite } from "../../lib/edge/site-folder.ts";
import { buildSite, type BuildProcess } from "../helpers/build-sites.ts";
import { EXAMPLES } from "../helpers/sites.ts";

const ROOT = ".test-work/determinism";

/** Copies the examples file by file, in the given order, stamping each with its own time. */
function copyContent(to: string, order: "forward" | "reverse", stamp: number) {
  const files = readdirSync(EXAMPLES, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(EXAMPLES, path.join(e.parentPath, e.name)));
  files.sort();
  if (order === "reverse") files.reverse();
  files.forEach((file, i) => {
    const target = path.join(to, file);
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(path.join(EXAMPLES, file), target);
    utimesSync(target, stamp + i * 3600, stamp + i * 3600);
  });
}

/** Every file of a built site's function data (beside it) and meta.json, by relative path. */
function tree(site: string): Map<string, Buffer> {
  const files = [site, siteDataDir(site)].flatMap((dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && (dir !== site || /(meta\.json|icon\.png|\/img\/)/.test(path.join(e.parentPath, e.name))),
    ),
  );
  return new Map(
    files.map((e) => [
      path.relative(site, path.join(e.parentPath, e.name)),
      readFileSync(path.join(e.parentPath, e.name)),
    ]),
  );
}

async function etags(site: string, slug: string): Promise<Record<string, string>> {
  const all: Record<string, string> = {};
  for await (const e of eachEdition((await openPublication(slug, path.resolve(site)))!))
    all[`${e.key} ${e.variant}`] = e.etag;
  return all;
}

const buildWith = (name: string, child: BuildProcess) =>
  buildSite(path.join(ROOT, name, "content"), path.join(ROOT, name, "_site"), undefined, child);

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  copyContent(path.join(ROOT, "a", "content"), "forward", 1_000_000_000);
  copyContent(path.join(ROOT, "b", "content"), "reverse", 1_700_000_000);
  // Two days' scheduled rebuilds, seven months apart, on machines in the first and the last time zone.
  await Promise.all([
    buildWith("a", { env: { TZ: "UTC" }, now: "2026-11-23T03:17:00Z" }),
    buildWith("b", { env: { TZ: "Pacific/Kiritimati" }, now: "2027-06-30T03:17:00Z" }),
  ]);
}, 120_000);

describe("building the same content twice", () => {
  it("gives byte-identical editions, manifests, meta.json, icons and images", () => {
    const a = tree(path.join(ROOT, "a", "_site"));
    const b = tree(path.join(ROOT, "b", "_site"));
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect([...a.keys()].filter((f) => f.includes("/shards/")).length).toBeGreaterThanOrEqual(3);
    for (const [file, bytes] of a) expect(bytes.equals(b.get(file)!), file).toBe(true);
  });

  it("gives every edition of every publication, in every variant, the same ETag", async () => {
    const slugs = readdirSync(EXAMPLES).filter((name) => !name.includes("."));
    expect(slugs.length).toBeGreaterThanOrEqual(4);
    for (const slug of slugs) {
      const a = await etags(path.join(ROOT, "a", "_site"), slug);
      expect(Object.keys(a).length, slug).toBeGreaterThan(0);
      expect(await etags(path.join(ROOT, "b", "_site"), slug), slug).toEqual(a);
    }
  });
});

describe("changing one edition", () => {
  it("changes the ETags of that edition only, and adding one leaves every other ETag as it was", async () => {
    const before = {
      lighthouse: await etags(path.join(ROOT, "a", "_site"), "lighthouse"),
      gm: await etags(path.join(ROOT, "a", "_site"), "good-morning"),
    };
    const dir = path.join(ROOT, "b", "content");
    const part = path.join(dir, "lighthouse", "editions", "part-3.md");
    writeFileSync(part, readFileSync(part, "utf8").replace("*To be continued.*", "*To be continued tomorrow.*"));
    const greeting = path.join(dir, "good-morning", "editions", "2026-11-20.md");
    writeFileSync(greeting, readFileSync(greeting, "utf8").replace("Bonjour", "Salut"));
    writeFileSync(
      path.join(dir, "good-morning", "editions", "2026-12-01.md"),
      "---\ndate: 2026-12-01\n---\nHello, {{ config.name }}!\n",
    );
    await buildWith("b", {});
    // As npm start does after a rebuild: read within a second of the last read, the site is not checked again.
    forgetSite(path.resolve(ROOT, "b", "_site"));
    const after = {
      lighthouse: await etags(path.join(ROOT, "b", "_site"), "lighthouse"),
      gm: await etags(path.join(ROOT, "b", "_site"), "good-morning"),
    };

    const changed = (x: Record<string, string>, y: Record<string, string>) =>
      Object.keys(x)
        .filter((k) => x[k] !== y[k])
        .sort();
    expect(changed(before.lighthouse, after.lighthouse)).toEqual(["3 "]);
    // Only the French copy of 20 November said "Bonjour".
    expect(changed(before.gm, after.gm)).toEqual(["2026-11-20 lang=fr"]);
    expect(
      Object.keys(after.gm)
        .filter((k) => !(k in before.gm))
        .sort(),
    ).toEqual(["2026-12-01 lang=en", "2026-12-01 lang=es", "2026-12-01 lang=fr"]);
  }, 120_000);
});

describe("the content folder named by an absolute path", () => {
  it("builds the same editions as the relative one", async () => {
    await buildSite(path.resolve(ROOT, "a", "content"), path.join(ROOT, "abs", "_site"));
    expect(await etags(path.join(ROOT, "abs", "_site"), "lighthouse")).toEqual(
      await etags(path.join(ROOT, "a", "_site"), "lighthouse"),
    );
  }, 120_000);
});
