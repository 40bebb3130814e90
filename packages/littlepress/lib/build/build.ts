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
import { eleventyConfigFile, ELEVENTY_CONFIG_FILES, outputFolder, STARTER_CONFIG } from "./eleventy-config-file.ts";
import { followCopies, removeFailedBuild, type PassthroughCopies } from "./leftovers.ts";
import type { RenderMemory } from "./render-memory.ts";
import { carryOwnWrites, swapBuildIn } from "./swap-in.ts";

/** A build's options: the plugin's for one run (strict, memory, url, deploy, bundleBudget, today), and where. */
export interface BuildOptions extends RunSettings {
  /**
   * The publications' folder. Without it, the project is built by its own
   * Eleventy config file (.eleventy.js, eleventy.config.js …), from the input
   * that config gives: the starter's builds content/, a blog its posts.
   */
  content?: string;
  /** Where the site goes: by default the config's output folder (`dir.output`, else _site/); _site/ for content. */
  output?: string;
}

/** What a build made: the publications, and the folder the site went to (its functions' data beside it). */
export interface Built {
  site: Site;
  output: string;
}

/**
 * Builds `content` (or, without it, the project by its own Eleventy config) into
 * `output`; resolves to the publications built (what verify and the preview go through).
 */
export async function build(options: BuildOptions = {}): Promise<Site> {
  return (await buildSite(options)).site;
}

/** As build(), and says where the site went (`littlepress build` names it). */
export async function buildSite(options: BuildOptions = {}): Promise<Built> {
  const { content, output, strict = false, memory, url, deploy, bundleBudget, today } = options;
  const run: RunSettings = {
    strict,
    ...(memory && { memory }),
    ...(url && { url }),
    ...(deploy && { deploy }),
    ...(bundleBudget !== undefined && { bundleBudget }),
    ...(today && { today }),
  };
  if (content === undefined) return buildByConfig(output, run);
  return buildContent(content, output ?? "_site", run);
}

/** Builds a folder of publications, with the starter's .eleventy.js, into `output`. */
async function buildContent(content: string, output: string, run: RunSettings): Promise<Built> {
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
  await write(output, run.memory, input, async (stage) => {
    const eleventy = new Eleventy(input, await stage(output), {
      quietMode: true,
      // As on Eleventy's command line: the output given here wins over a config file's `dir.output`,
      // so a build writes only its fresh folder, never the live site.
      source: "cli",
      // The starter's config where there is one; a folder of publications alone is built by the plugin alone.
      configPath: existsSync(STARTER_CONFIG) ? STARTER_CONFIG : false,
      // Registered before .eleventy.js registers it with its defaults: this content folder wins.
      config: (eleventyConfig) => {
        giveRunSettings(eleventyConfig, given);
        eleventyConfig.addPlugin(littlepress, { content: input });
      },
    });
    return { eleventy };
  });
  return { site: site!, output };
}

/**
 * Builds the project by its own Eleventy config file and the input it gives
 * (a blog that adds the plugin for its posts): the plugin takes the run's
 * settings over the options the config gives it (giveRunSettings). The site
 * goes where the config says (`dir.output`) unless `output` is given.
 */
async function buildByConfig(output: string | undefined, run: RunSettings): Promise<Built> {
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
  const written = await write(output, run.memory, ".", async (stage) => {
    const next = output === undefined ? undefined : await stage(output);
    const eleventy: Eleventy = new Eleventy(undefined, next, {
      quietMode: true,
      // As on Eleventy's command line: an output given here wins over a config file's `dir.output`.
      source: "cli",
      configPath,
      config: (eleventyConfig) => {
        giveRunSettings(eleventyConfig, { ...run, built: (read) => (site = read) });
        // Once the config file has set its folders, before any plugin reads them.
        eleventyConfig.on("eleventy.beforeConfig", async () => {
          const live = output ?? (await stageConfigOutput(eleventy, stage));
          // The input may be the project itself: earlier builds beside it are not its pages.
          // (dist/, dist.next/, dist.old/, dist_data/ and the data's own .next and .old.)
          eleventyConfig.ignores.add(`${path.relative(process.cwd(), path.resolve(live))}*/**`);
        });
      },
    });
    const added = () => {
      if (!site)
        throw new ContentError([{ file: configPath, field: "", problem: "does not add the littlepress plugin", fix }]);
    };
    return { eleventy, added };
  });
  return { site: site!, output: written };
}

/**
 * The config's own output folder (`dir.output`), and Eleventy set to write
 * the fresh folder beside it instead: resolves to the live folder.
 */
async function stageConfigOutput(eleventy: Eleventy, stage: (live: string) => Promise<string>): Promise<string> {
  const live = outputFolder(eleventy.directories.output);
  if (path.resolve(live) === process.cwd()) {
    const problem = "writes the site into the project folder itself (`dir.output` is the project)";
    const fix = 'give the site a folder of its own, such as dir: { output: "_site" }, or build with --output <dir>';
    throw new ContentError([{ file: eleventyConfigFile() ?? "", field: "dir.output", problem, fix }]);
  }
  eleventy.directories.setOutput(await stage(live));
  return live;
}

/**
 * Runs Eleventy into a fresh folder beside the site and swaps the site and the
 * functions' data in only when the whole build succeeded. `make` makes the
 * Eleventy, calling `stage` with the live site's folder once it is known (before
 * Eleventy writes): the fresh folder, emptied. Resolves to the live folder.
 */
async function write(
  output: string | undefined,
  memory: RenderMemory | undefined,
  input: string,
  make: (stage: (live: string) => Promise<string>) => Promise<{ eleventy: Eleventy; added?: () => void }>,
): Promise<string> {
  let live = output;
  await memory?.oldBuild; // the last build's old folders are gone before this one's go
  const stage = async (folder: string) => {
    live = folder;
    await rm(`${folder}.next`, { recursive: true, force: true });
    await rm(siteDataDir(`${folder}.next`), { recursive: true, force: true });
    return `${folder}.next`;
  };
  const { eleventy, added } = await make(stage);
  eleventy.disableLogger(); // errors are reported once, by describeBuildError
  let copies: PassthroughCopies | undefined;
  const started = Date.now();
  try {
    await eleventy.init();
    copies = followCopies(eleventy);
    await eleventy.write();
    added?.();
    // Images of the pages kept from the memory were written by an earlier build.
    if (memory) await keepImages(live!, `${live}.next`);
    // Files the site's own steps wrote into the live folder by its name, not Eleventy's.
    await carryOwnWrites(live!, `${live}.next`, started);
  } catch (error) {
    // Its passthrough copies go on into `next` after Eleventy failed; pages still in its transforms too.
    await copies?.settled();
    if (live !== undefined) await removeFailedBuild(`${live}.next`, siteDataDir(`${live}.next`));
    // A data file's failure (a fetch, an import, an error it threw) is the author's problem, said as one.
    throw dataFileFailure(error, input) ?? error;
  }
  await swapBuildIn(live!, memory);
  memory?.files.settled(live!);
  return live!;
}

/**
 * Tells Eleventy's caches that these files changed. Eleventy keeps layouts and
 * template texts in caches that outlive a build, shared by every build in the
 * process, and clears them only on the event its own --watch sends; `npm start`
 * builds again in the same process, so it sends the same event. The event bus
 * is not among Eleventy's exports: it is imported by its file.
 */
export async function eleventyForget(files: string[]): Promise<void> {
  const events = await (eventBus ??= eleventyEventBus());
  for (const file of files)
    await events.emit("eleventy.resourceModified", `./${path.relative(process.cwd(), file)}`, [], {});
  // Node keeps every module it imported: a changed JavaScript data file is imported afresh only when
  // Eleventy's import cache is told (as its own watch does), else `npm start` would keep the old data.
  const modules = files.filter((f) => /\.(?:c?js|mjs)$/.test(f));
  if (modules.length) await events.emit("eleventy.importCacheReset", modules);
}

interface EventBus {
  emit(event: string, ...args: unknown[]): unknown;
}
/** Found once a process: under `npm start`, import.meta.resolve waits on tsx's loader thread (12 ms a save, loaded). */
let eventBus: Promise<EventBus> | undefined;
async function eleventyEventBus(): Promise<EventBus> {
  const bus = new URL("EventBus.js", import.meta.resolve("@11ty/eleventy")).href;
  return ((await import(bus)) as { default: EventBus }).default;
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
    "correct the template named above (at the line and column, where given), or the site's own code it " +
    "calls (a shortcode, filter or plugin of the Eleventy config); " +
    'Liquid tags look like {% if config.lang == "fr" %}…{% endif %}'
  );
}
