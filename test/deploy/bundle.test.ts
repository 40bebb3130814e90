// The function bundles, made by Netlify's own bundler from netlify.toml: each
// carries what its function reads and nothing else, well within the limit.
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { bundleFunctions, NETLIFY_ZIP_LIMIT } from "../../scripts/bundle-size.ts";
import { builtSite } from "../helpers/sites.ts";

// The site files in each zip, whether netlify.toml names them or Netlify's tracer finds them in the code.
it("bundles the indexes and edition shards with the edition functions, only the indexes with the validator, and nothing else of the site", async () => {
  const site = builtSite("examples");
  const data = path.resolve(site, "_littlepress");
  const all = readdirSync(data, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  const bundles = Object.fromEntries((await bundleFunctions(process.cwd(), site)).map((b) => [b.name, b]));
  expect(Object.keys(bundles).sort()).toEqual(["edition", "sample", "validate_config"]);
  expect([...bundles.edition!.siteFiles].sort()).toEqual(all);
  expect([...bundles.sample!.siteFiles].sort()).toEqual(all);
  expect([...bundles.validate_config!.siteFiles].sort()).toEqual(all.filter((f) => !f.includes(`${path.sep}shards${path.sep}`)));
  expect(all.filter((f) => f.includes(`${path.sep}shards${path.sep}`)).length).toBeGreaterThanOrEqual(3);
  for (const b of Object.values(bundles)) {
    expect(b.strayFiles, b.name).toEqual([]);
    expect(b.zipBytes).toBeGreaterThan(0);
    expect(b.zipBytes).toBeLessThan(NETLIFY_ZIP_LIMIT);
  }
}, 60_000);
