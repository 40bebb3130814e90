// Another checkout's own function bundler (the bench's --before tree): imports
// <tree>/scripts/bundle-size.ts by absolute path and prints the zip of each
// function its bundleFunctions() makes, as one JSON line.
// Usage, in <tree>: node --import tsx <this file> <tree> <site, relative to tree>
import path from "node:path";
import { pathToFileURL } from "node:url";

const [tree, site] = process.argv.slice(2);
if (!tree || !site) throw new Error("usage: bundle-child.ts <tree> <site>");
const { bundleFunctions } = (await import(pathToFileURL(path.join(tree, "scripts", "bundle-size.ts")).href)) as {
  bundleFunctions: (root: string, site: string) => Promise<{ name: string; zipBytes: number }[]>;
};
const bundles = await bundleFunctions(path.resolve(tree), site);
process.stdout.write(JSON.stringify(bundles.map(({ name, zipBytes }) => ({ name, zipBytes }))) + "\n");
