// npm run bundle: zips the functions with Netlify's own bundler
// (zip-it-and-ship-it, as a deploy does), with the included_files netlify.toml
// names, and prints what each bundle carries against Netlify's limit.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { siteDataDir } from "../lib/model/site-paths.ts";
import { projectNetlifyConfig } from "../lib/server/netlify-config.ts";
import { answerUsage, EXIT, parseToolArgs, processOutput, runTool } from "./cli.ts";

export const USAGE = `Usage: npm run bundle [-- <site>]

Zips the functions with Netlify's own bundler, as a deploy does, and prints
each zip's size and how many files of the built site it carries, against
Netlify's 50 MiB limit. Run npm run build first.

Arguments:
  <site>       the built site to bundle (default _site)
  -h, --help   show this text

Example:
  npm run build && npm run bundle`;

/** Netlify refuses a function whose zip is larger than this. */
export const NETLIFY_ZIP_LIMIT = 50 * 1024 * 1024;

export interface FunctionBundle {
  name: string;
  zipBytes: number;
  /**
   * Absolute paths of the built site's files in the bundle, its function data
   * (beside the site) or the site itself: named in netlify.toml or traced from the code.
   */
  siteFiles: string[];
  /** Anything else traced into the bundle that is neither code nor the site's function data (should be empty). */
  strayFiles: string[];
  /** Every file the bundler traced into the zip (absolute): the code and its packages among them. */
  inputs: string[];
}

/** Bundles the functions of the project at `root`, reading the site from `site` (default: publish folder). */
export async function bundleFunctions(root = process.cwd(), site = "_site"): Promise<FunctionBundle[]> {
  const netlify = projectNetlifyConfig(root);
  const config: Record<string, { nodeBundler: "esbuild"; includedFiles: string[] }> = {};
  // netlify.toml names the project's _site/ and _site_data/: here, `site` and its data folder.
  const folders: [string, string][] = [
    [`${siteDataDir(netlify.publish)}/`, `${siteDataDir(site)}/`],
    [`${netlify.publish}/`, `${site}/`],
  ];
  const local = (f: string) => {
    const folder = folders.find(([from]) => f.startsWith(from));
    return folder ? folder[1] + f.slice(folder[0].length) : f;
  };
  for (const [name, files] of Object.entries(netlify.includedFiles)) {
    config[name] = { nodeBundler: "esbuild", includedFiles: files.map(local) };
  }
  // The bundler loads (seconds) when it bundles: --help answers at once.
  const { zipFunctions } = await import("@netlify/zip-it-and-ship-it");
  const out = await mkdtemp(path.join(tmpdir(), "littlepress-bundle-"));
  try {
    const zips = await zipFunctions([path.join(root, netlify.functions)], out, {
      basePath: root,
      repositoryRoot: root,
      config,
    });
    const siteRoots = [site, siteDataDir(site)].map((dir) => path.resolve(root, dir) + path.sep);
    const inSite = (files: string[] = []) =>
      files.map((f) => path.resolve(root, f)).filter((f) => siteRoots.some((dir) => f.startsWith(dir)));
    return zips
      .map((z) => {
        const siteFiles = [...new Set([...inSite(z.includedFiles), ...inSite(z.inputs)])].sort();
        // A symlinked node_modules (a git worktree sharing another's) is listed as an input itself.
        const code = /[/\\](node_modules|functions|lib)([/\\]|$)/;
        const strayFiles = (z.inputs ?? [])
          .map((f) => path.resolve(root, f))
          .filter((f) => !code.test(path.relative(root, f).replace(/^/, "/")) && !siteFiles.includes(f));
        const inputs = (z.inputs ?? []).map((f) => path.resolve(root, f));
        return { name: z.name, zipBytes: z.size ?? 0, siteFiles, strayFiles, inputs };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The command line: one line per function. */
async function main(argv: string[]): Promise<number> {
  const parsed = parseToolArgs(argv, { help: { type: "boolean", short: "h" } }, true);
  const answered = answerUsage("bundle", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? EXIT.usage;
  if (parsed.positionals.length > 1) {
    const problem = `give one site folder, not ${parsed.positionals.length}`;
    return answerUsage("bundle", { error: problem }, USAGE, processOutput) ?? EXIT.usage;
  }
  const bundles = await bundleFunctions(process.cwd(), parsed.positionals[0] ?? "_site");
  // One column of names, as wide as the longest (deploy-succeeded-background is 27 characters).
  const width = Math.max(16, ...bundles.map((b) => b.name.length));
  for (const b of bundles) {
    const [kib, files] = [(b.zipBytes / 1024).toFixed(0).padStart(8), String(b.siteFiles.length).padStart(6)];
    const share = ((100 * b.zipBytes) / NETLIFY_ZIP_LIMIT).toFixed(1);
    console.log(`${b.name.padEnd(width)} ${kib} KiB zipped, ${files} site files (${share}% of Netlify's 50 MiB)`);
  }
  return EXIT.done;
}

runTool("bundle", import.meta.url, main);
