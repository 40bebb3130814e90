// The build: renders the site with Eleventy into a fresh folder and swaps it
// in only when the whole build succeeded, so a broken edition never replaces a
// good site. `npm run build` (scripts/build.ts) and `npm start` run it.
import { link, mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import Eleventy from "@11ty/eleventy";
import { existsSync } from "node:fs";
import { chainMessages, ContentError, findContentError } from "../model/content-error.ts";
import { siteDataDir } from "../model/site-paths.ts";
import { withoutUrlSecrets } from "../model/shown-url.ts";
import littlepress from "./eleventy-plugin.ts";
import { giveRunSettings, type RunSettings } from "./plugin-options.ts";
import { dataFileFailure } from "./data-file-errors.ts";
import type { Site } from "./site.ts";
import { eleventyConfigFile, ELEVENTY_CONFIG_FILES } from "./eleventy-config-file.ts";
import { followCopies, removeFailedBuild, type PassthroughCopies } from "./leftovers.ts";
import type { RenderMemory } from "./render-memory.ts";
import { swapIn } from "./swap-in.ts";

/** A build's options: the plugin's for one run (strict, memory, url, deploy, bundleBudget, today), and where. */
export interface BuildOptions extends RunSettings {
  /**
   * The publications' folder. Without it, the project is built by its own
   * Eleventy config file (.eleventy.js, eleventy.config.js …), from the input
   * that config gives: the starter's builds content/, a blog its posts.
   */
  content?: string;
  /** Where the site goes (default _site/). */
  output?: string;
}

/**
 * Builds `content` (or, without it, the project by its own Eleventy config) into
 * `output`; resolves to the publications built (what verify and the preview go through).
 */
export async function build(options: BuildOptions = {}): Promise<Site> {
  const { content, output = "_site", strict = false, memory, url, deploy, bundleBudget, today } = options;
  const run: RunSettings = {
    strict,
    ...(memory && { memory }),
    ...(url && { url }),
    ...(deploy && { deploy }),
    ...(bundleBudget !== undefined && { bundleBudget }),
    ...(today && { today }),
  };
  if (content === undefined) return buildByConfig(output, run);
  // Eleventy wants the input relative to the project.
  const input = path.relative(process.cwd(), path.resolve(content));
  if (!existsSync(content)) {
    const fix =
      "create the folder and add a publication in it, content/<slug>/publication.json " +
      '(docs/writing-publications.md: "Writing a publication")';
    throw new ContentError([{ file: input, field: "", problem: "does not exist", fix }]);
  }
  let site: Site | undefined;
  const given: RunSettings = { ...run, built: (read) => (site = read) };
  // The content folder is Eleventy's input; .eleventy.js reads it back (eleventyConfig.directories.input).
  await write(output, memory, input, (next) => {
    const eleventy = new Eleventy(input, next, {
      quietMode: true,
      // As on Eleventy's command line: the output given here wins over a config file's `dir.output`,
      // so a build writes only its fresh folder, never the live site.
      source: "cli",
      configPath: ".eleventy.js",
      // Registered before .eleventy.js registers it with its defaults: this content folder wins.
      config: (eleventyConfig) => {
        giveRunSettings(eleventyConfig, given);
        eleventyConfig.addPlugin(littlepress, { content: input });
      },
    });
    return { eleventy };
  });
  return site!;
}

/**
 * Builds the project by its own Eleventy config file and the input it gives
 * (a blog that adds the plugin for its posts): the plugin takes the run's
 * settings over the options the config gives it (giveRunSettings).
 */
async function buildByConfig(output: string, run: RunSettings): Promise<Site> {
  const configPath = eleventyConfigFile();
  const fix =
    "add the littlepress plugin with eleventyConfig.addPlugin in the site's Eleventy config " +
    '(docs/eleventy-plugin.md: "Posts as a publication"), ' +
    "or give the publications' folder with --content";
  if (!configPath) {
    const problem = `has no Eleventy config file (${ELEVENTY_CONFIG_FILES.join(", ")}) and no content/ was given`;
    throw new ContentError([{ file: process.cwd(), field: "", problem, fix }]);
  }
  // Set by the plugin with the run's options only: unset after a build, the config added no plugin they reached.
  let site: Site | undefined;
  await write(output, run.memory, ".", (next) => {
    const eleventy = new Eleventy(undefined, next, {
      quietMode: true,
      // As on Eleventy's command line: the output given here wins over a config file's `dir.output`,
      // so a build writes only its fresh folder, never the live site.
      source: "cli",
      configPath,
      config: (eleventyConfig) => {
        giveRunSettings(eleventyConfig, { ...run, built: (read) => (site = read) });
        // The input may be the project itself: earlier builds beside it are not its pages.
        const built = path.relative(process.cwd(), path.resolve(output));
        // (_site/, _site.next/, _site.old/, _site_data/ and the data's own .next and .old.)
        eleventyConfig.ignores.add(`${built}*/**`);
      },
    });
    const added = () => {
      if (!site)
        throw new ContentError([{ file: configPath, field: "", problem: "does not add the littlepress plugin", fix }]);
    };
    return { eleventy, added };
  });
  return site!;
}

/**
 * Runs Eleventy into a fresh folder beside `output` and swaps the site and the
 * functions' data in only when the whole build succeeded.
 */
async function write(
  output: string,
  memory: RenderMemory | undefined,
  input: string,
  make: (next: string) => { eleventy: Eleventy; added?: () => void },
): Promise<void> {
  const next = `${output}.next`;
  // The functions' data, which the plugin leaves beside the site it wrote, never in it.
  const data = siteDataDir(output);
  const nextData = siteDataDir(next);
  await rm(next, { recursive: true, force: true });
  await rm(nextData, { recursive: true, force: true });
  const { eleventy, added } = make(next);
  eleventy.disableLogger(); // errors are reported once, by describeBuildError
  let copies: PassthroughCopies | undefined;
  try {
    await eleventy.init();
    copies = followCopies(eleventy);
    await eleventy.write();
    added?.();
    // Images of the pages kept from the memory were written by an earlier build.
    if (memory) await keepImages(output, next);
  } catch (error) {
    // Its passthrough copies go on into `next` after Eleventy failed; pages still in its transforms too.
    await copies?.settled();
    await removeFailedBuild(next, nextData);
    // A data file's failure (a fetch, an import, an error it threw) is the author's problem, said as one.
    throw dataFileFailure(error, input) ?? error;
  }
  await swapIn(nextData, data);
  await swapIn(next, output);
  memory?.files.settled(output);
}

/**
 * Tells Eleventy's caches that these files changed. Eleventy keeps layouts and
 * template texts in caches that outlive a build, shared by every build in the
 * process, and clears them only on the event its own --watch sends; `npm start`
 * builds again in the same process, so it sends the same event. The event bus
 * is not among Eleventy's exports: it is imported by its file.
 */
export async function eleventyForget(files: string[]): Promise<void> {
  const bus = new URL("EventBus.js", import.meta.resolve("@11ty/eleventy")).href;
  const { default: events } = (await import(bus)) as { default: { emit(event: string, ...args: unknown[]): unknown } };
  for (const file of files)
    await events.emit("eleventy.resourceModified", `./${path.relative(process.cwd(), file)}`, [], {});
  // Node keeps every module it imported: a changed JavaScript data file is imported afresh only when
  // Eleventy's import cache is told (as its own watch does), else `npm start` would keep the old data.
  const modules = files.filter((f) => /\.(?:c?js|mjs)$/.test(f));
  if (modules.length) await events.emit("eleventy.importCacheReset", modules);
}

/**
 * Links the processed images of the last build (`<slug>/img/`) into the next
 * one where it has none of that name: their names are hashes of the image
 * and its settings, so an old one is never a wrong one.
 */
async function keepImages(output: string, next: string): Promise<void> {
  // No site yet (a first build), or no images in a publication: nothing to keep.
  for (const slug of await readdir(output).catch(() => [])) {
    const images = path.join(output, slug, "img");
    for (const name of await readdir(images).catch(() => [])) {
      await mkdir(path.join(next, slug, "img"), { recursive: true });
      await link(path.join(images, name), path.join(next, slug, "img", name)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "EEXIST") throw e;
      });
    }
  }
}

/**
 * Size of what the functions carry besides their code (the manifests and
 * prebuilt editions, beside the site), or with `folder` of the shards
 * published in the site instead.
 */
export async function functionDataSize(output = "_site", folder?: string): Promise<{ files: number; bytes: number }> {
  const dir = folder === undefined ? siteDataDir(output) : path.join(output, folder);
  // No such folder (a site without functions' data, or without published shards): nothing carried.
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile());
  const sizes = await Promise.all(files.map(async (e) => (await stat(path.join(e.parentPath, e.name))).size));
  return { files: files.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

/** Every message in an error's chain, for errors that are not content problems (a template syntax error, say). */
export function describeBuildError(error: unknown): string {
  const content = findContentError(error);
  // A message may quote a URL a data file or template used, with its credentials or key: never printed.
  if (content) return withoutUrlSecrets(content.message);
  // Eleventy's wrappers repeat what they wrap ("Error copying passthrough files: <the cause>"): said once.
  const said = [...new Set(chainMessages(error, 6))];
  const lines = said.filter((line, i) => !said.some((other, j) => j !== i && other !== line && other.includes(line)));
  return withoutUrlSecrets(`The build failed:\n  ${lines.join("\n  ")}\n  fix: ${buildErrorFix(lines.join("\n"))}`);
}

/**
 * What to do, from what Eleventy says failed: its config file, its input folder (which never reached a
 * template), two files for one page, a passthrough copy, or a template.
 * (A data file's failure is a content problem of its own: dataFileFailure.)
 */
function buildErrorFix(said: string): string {
  const config = /Eleventy config file '([^']+)'/.exec(said)?.[1];
  if (config) return `correct ${config}, or the module it imports that the lines above name, and build again`;
  const input = /The "([^"]+)" `input` parameter/.exec(said)?.[1];
  if (input) return `make the folder ${input} (or name the one you build: --content, or the config's input)`;
  if (/^Output conflict: /m.test(said))
    return (
      "give one of the files named above a permalink of its own; littlepress's desk has /<slug>/index.html for " +
      "each publication, and /index.html in a site whose content folder is Eleventy's input " +
      `(docs/eleventy-plugin.md: "The desk, and the blog's home page")`
    );
  const copied = /Having trouble copying '([^']+)'/.exec(said)?.[1];
  if (copied)
    return (
      `correct the Eleventy config's addPassthroughCopy of ${copied}: its files must exist and be readable, ` +
      "and its destination must be inside the site's output folder"
    );
  return (
    "correct the template named above (the line and column are given); " +
    'Liquid tags look like {% if config.lang == "fr" %}…{% endif %}'
  );
}
