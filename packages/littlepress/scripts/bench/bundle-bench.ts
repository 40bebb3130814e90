// Function bundle size against the site's size, with Netlify's own bundler
// (zip-it-and-ship-it through scripts/bundle-size.ts), as a deploy does; and
// each function's zip before (the --before tree's own scripts/bundle-size.ts)
// and after, with the same site.
import path from "node:path";
import { PUBLIC_SHARDS_DIR } from "../../lib/model/site-paths.ts";
import { functionDataSize } from "../../lib/build/build.ts";
import { bundleFunctions, NETLIFY_ZIP_LIMIT } from "../bundle-size.ts";
import { treeBundles, type CheckedOutTree } from "./tree.ts";
import { progress, ROOT } from "./util.ts";

export interface BundleRow {
  editions: number;
  functions: { name: string; zipBytes: number; files: number }[];
  /** The largest zip against Netlify's limit, 0..1. */
  largestShare: number;
  /** Shards past the bundle's budget, published as static files (lib/build/shard-placement.ts). */
  published: { files: number; bytes: number };
  seconds: number;
}

export async function benchBundle(siteDir: string, editions: number): Promise<BundleRow> {
  progress(`bundle the functions with the ${editions}-edition site`);
  const t0 = performance.now();
  // bundleFunctions takes the site relative to the project, as netlify.toml names it.
  const bundles = await bundleFunctions(ROOT, path.relative(ROOT, path.resolve(siteDir)));
  // Only name and zipBytes are relied on; the list of bundled site files is counted
  // under whichever name bundle-size.ts gives it.
  const siteFiles = (b: object) => {
    const { siteFiles, includedFiles } = b as { siteFiles?: unknown; includedFiles?: unknown };
    const list = Array.isArray(siteFiles) ? siteFiles : Array.isArray(includedFiles) ? includedFiles : [];
    return list.length;
  };
  const functions = bundles.map((b) => ({ name: b.name, zipBytes: b.zipBytes, files: siteFiles(b) }));
  const largest = Math.max(...functions.map((f) => f.zipBytes));
  const published = await functionDataSize(siteDir, PUBLIC_SHARDS_DIR);
  return {
    editions,
    functions,
    largestShare: largest / NETLIFY_ZIP_LIMIT,
    published,
    seconds: (performance.now() - t0) / 1000,
  };
}

/** Each function's zip before (the --before tree's own bundler) and after (this tree's), with the same site. */
export interface BundleComparison {
  editions: number;
  before: { name: string; zipBytes: number }[];
  after: { name: string; zipBytes: number }[];
}

/** The --before tree's bundles beside this tree's row for the same site. */
export async function compareBundles(
  tree: CheckedOutTree,
  siteDir: string,
  after: BundleRow,
): Promise<BundleComparison> {
  progress(`bundle the functions of ${tree.ref} with the ${after.editions}-edition site`);
  const before = await treeBundles(tree, siteDir);
  return {
    editions: after.editions,
    before,
    after: after.functions.map(({ name, zipBytes }) => ({ name, zipBytes })),
  };
}
