// npm run bundle: zips the functions with Netlify's own bundler
// (zip-it-and-ship-it, as a deploy does), with the included_files netlify.toml
// names, and prints what each bundle carries against Netlify's limit.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { zipFunctions } from "@netlify/zip-it-and-ship-it";
import { parse } from "smol-toml";

/** Netlify refuses a function whose zip is larger than this. */
export const NETLIFY_ZIP_LIMIT = 50 * 1024 * 1024;

export interface FunctionBundle {
  name: string;
  zipBytes: number;
  /** Absolute paths of the site files bundled with the function. */
  includedFiles: string[];
}

/** Bundles the functions of the project at `root`, reading the site from `site` (default: publish folder). */
export async function bundleFunctions(root = process.cwd(), site = "_site"): Promise<FunctionBundle[]> {
  const toml = parse(readFileSync(path.join(root, "netlify.toml"), "utf8")) as { functions: Record<string, { included_files?: string[] }> & { directory: string } };
  const config: Record<string, { nodeBundler: "esbuild"; includedFiles: string[] }> = {};
  for (const [name, settings] of Object.entries(toml.functions)) {
    if (typeof settings !== "object" || !settings.included_files) continue;
    config[name] = { nodeBundler: "esbuild", includedFiles: settings.included_files.map((f) => f.replace(/^_site\//, `${site}/`)) };
  }
  const out = await mkdtemp(path.join(tmpdir(), "littlepress-bundle-"));
  try {
    const zips = await zipFunctions([path.join(root, toml.functions.directory)], out, { basePath: root, repositoryRoot: root, config });
    return zips.map((z) => ({ name: z.name, zipBytes: z.size ?? 0, includedFiles: z.includedFiles ?? [] })).sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  bundleFunctions(process.cwd(), process.argv[2] ?? "_site").then((bundles) => {
    for (const b of bundles) {
      const share = ((100 * b.zipBytes) / NETLIFY_ZIP_LIMIT).toFixed(1);
      console.log(`${b.name.padEnd(16)} ${(b.zipBytes / 1024).toFixed(0).padStart(8)} KiB zipped, ${String(b.includedFiles.length).padStart(6)} site files (${share}% of Netlify's 50 MiB)`);
    }
  });
}
