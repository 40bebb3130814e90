// Which Eleventy configuration file a project has, and what kind of project it
// is: `npm run build` without --content builds a site by its own config, the
// plugin's messages about its options name that file, and the commands that
// build for themselves (start, verify, preview) tell the starter from a blog.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** Eleventy's own names for its configuration file, in the order Eleventy looks for them. */
export const ELEVENTY_CONFIG_FILES = [
  ".eleventy.js",
  "eleventy.config.js",
  "eleventy.config.mjs",
  "eleventy.config.cjs",
];

/** The project's Eleventy configuration file (relative to `dir`, as named there), or undefined when it has none. */
export function eleventyConfigFile(dir = "."): string | undefined {
  return ELEVENTY_CONFIG_FILES.find((name) => existsSync(path.join(dir, name)));
}

/** Eleventy's output folder as a folder name (`./dist/`: `dist`), as `littlepress build` says it and writes it. */
export function outputFolder(directoriesOutput: string): string {
  return path.normalize(directoriesOutput).replace(/(.)[\\/]+$/, "$1");
}

/**
 * Where `littlepress build` writes the project's site when no folder is given: `_site` for the starter's
 * content/ and for a project without an Eleventy config, else the config's own output folder (`dir.output`),
 * read by loading the config (and the plugins it adds) as Eleventy does, without building. For the commands
 * that serve a build (start, serve), so that they serve what the build writes. A config that fails to load:
 * its error, for the command to say.
 */
export async function builtFolder(): Promise<{ output: string } | { error: unknown }> {
  const configPath = eleventyConfigFile();
  if (configPath === undefined || starterContent() !== undefined) return { output: "_site" };
  try {
    // Eleventy loads (most of a second) only for a site built by its own config.
    const { default: Eleventy } = await import("@11ty/eleventy");
    const eleventy = new Eleventy(undefined, undefined, { quietMode: true, configPath });
    await eleventy.initializeConfig();
    return { output: outputFolder(eleventy.directories.output) };
  } catch (error) {
    return { error };
  }
}

/** The starter's folder of publications, and its config file, which `--content` builds with. */
const STARTER_CONTENT = "content";
export const STARTER_CONFIG = ".eleventy.js";

/**
 * The folder of publications when the project is a starter site, for the
 * commands to build it with `--content` (and `npm start` to watch it): the
 * project's Eleventy config is the starter's `.eleventy.js` and content/ holds
 * publications (content/<slug>/publication.json). Anything else is built by
 * its own Eleventy config (undefined), whatever its folders are called: a blog
 * whose input is content/ (eleventy-base-blog's) is no starter.
 */
export function starterContent(dir = "."): string | undefined {
  if (eleventyConfigFile(dir) !== STARTER_CONFIG) return undefined;
  return hasPublicationFiles(path.join(dir, STARTER_CONTENT)) ? STARTER_CONTENT : undefined;
}

/** Whether `folder` has a publication in it: a <slug>/publication.json. */
export function hasPublicationFiles(folder: string): boolean {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    // No such folder (or none readable): it holds no publication files, which is all this asks.
    return false;
  }
  return entries.some((d) => d.isDirectory() && existsSync(path.join(folder, d.name, "publication.json")));
}

/**
 * What a command says when the project has nothing it can build (no starter
 * content and no Eleventy config file): where it looked, and what to do. Undefined
 * when there is something to build.
 */
export function nothingToBuild(dir = "."): string | undefined {
  if (starterContent(dir) !== undefined || eleventyConfigFile(dir) !== undefined) return undefined;
  const where = path.resolve(dir);
  return (
    `found no publications in ${where}: no ${STARTER_CONTENT}/<slug>/publication.json, and no Eleventy config ` +
    `file (${ELEVENTY_CONFIG_FILES.join(", ")}) to build the site by\n` +
    "  fix: run the command in your site's folder; add the littlepress plugin to the site's Eleventy config " +
    '(docs/eleventy-plugin.md: "Posts as a publication"), or give the folder of your publications with --content <dir>'
  );
}
