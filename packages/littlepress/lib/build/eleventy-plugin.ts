// The littlepress build plugin, as a table of contents: what it adds to
// Eleventy, each part in a file named after it. It checks the content, renders
// every edition once per variant of its settings, and after the build checks
// the pages and writes each publication's files for the functions. The rules
// themselves live in lib/model.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { EleventyConfig } from "@11ty/eleventy";
import { DATA_DIR, siteDataDir } from "../model/site-paths.ts";
import { buildWarnings, reportWarnings } from "./build-warnings.ts";
import { keepCompiledTemplates } from "./compiled-templates.ts";
import { addDesk } from "./desk-pages.ts";
import { assumedUrlWarnings, imageTransform, siteUrl, skipImageTransform } from "./edition-images.ts";
import { editionPages, type EditionPage } from "./edition-pages.ts";
import { addEditions } from "./edition-templates.ts";
import { packageFile } from "./package-files.ts";
import { pluginSettings, type LittlepressOptions, type PluginSettings } from "./plugin-options.ts";
import { postReading } from "./post-reading.ts";
import { loadPublications, watchSources, type Sources } from "./publication-sources.ts";
import { changedPages, renderedEditions, type RenderResult } from "./remembered-pages.ts";
import { workOut } from "./render-memory.ts";
import { filePutter, writePublications, writeSiteIndex } from "./site-files.ts";
import type { Site } from "./site.ts";
import { leaveUnwritten } from "./unwritten-pages.ts";
import { swapIn } from "./swap-in.ts";

export type { LittlepressOptions, RunSettings } from "./plugin-options.ts";

/** The Eleventy versions the plugin works with: its package's peer dependency. */
const ELEVENTY_RANGE = (
  JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { peerDependencies: Record<string, string> }
).peerDependencies["@11ty/eleventy"]!;

// Async, as Eleventy allows a plugin: its engine for a post's JavaScript front matter is.
export default async function littlepress(eleventyConfig: EleventyConfig, options: LittlepressOptions = {}) {
  // As Eleventy's own plugins do: an Eleventy outside the peer dependency's range is named at once.
  eleventyConfig.versionCheck(ELEVENTY_RANGE);
  const settings = await pluginSettings(eleventyConfig, options);
  const { input, output } = eleventyConfig.directories;
  const reading = postReading(eleventyConfig);
  const { site, sources } = await loadPublications(settings, input, reading);
  settings.built?.(site);
  const pages = editionPages(site.publications);

  // Only the pages whose inputs changed since npm start's last build are rendered again.
  const rendering = settings.memory ? changedPages(pages, settings.memory) : pages;
  if (settings.memory) keepCompiledTemplates(eleventyConfig, settings.memory.templates);
  const posts = addEditions(eleventyConfig, rendering, settings.content, sources);
  // Packed into shards from Eleventy's results: never written as pages (unwritten-pages.ts).
  const release = await leaveUnwritten([...rendering.keys()].map((url) => path.join(output, url)));
  // The desk's home is the home page of a site of publications, whose content folder is Eleventy's input
  // (the starter's). A blog keeps its own, whether its publications are its posts or a folder inside it.
  const home = settings.content !== undefined && path.resolve(settings.content) === path.resolve(input);
  const desk = addDesk(eleventyConfig, site, home);

  // Images in editions: fitted to the paper, greyscale, absolute URLs (and not the site's own image transform's).
  skipImageTransform(eleventyConfig, (url) => pages.has(url) || desk.has(url));
  const images = imageTransform(output, (url) => imageTarget(pages.get(url), site, sources, settings));
  eleventyConfig.addTransform("littlepress-images", function (html) {
    return images.transform(html, this.page.url);
  });

  eleventyConfig.on("eleventy.after", async ({ results }: { results: RenderResult[] }) => {
    release();
    // Every edition that failed to render, of every publication, at once; nothing is written for the functions.
    posts.throwFailures();
    await afterBuild({ site, sources, pages, results, output, settings, assumedUrl: images.assumedUrl() });
  });
  watchSources(eleventyConfig, settings);
}

// `npm run build` registers the plugin before `.eleventy.js` does with its defaults: the first registration wins.
littlepress.eleventyPluginOptions = { unique: true };

/** Where an edition page's images are looked for, and the site address they are linked at. */
function imageTarget(page: EditionPage | undefined, site: Site, sources: Sources, settings: PluginSettings) {
  if (!page) return undefined;
  return {
    source: page.source.file,
    publicationDir: sources.get(page.pub.slug)!.dir,
    slug: page.pub.slug,
    url: siteUrl({ publication: page.pub.url, site: site.url ?? settings.url }),
  };
}

/**
 * After Eleventy rendered the editions: the warnings of every page, then each
 * publication's shards, index, meta and icon, and the site's index, beside the
 * site, never in it, whichever command ran Eleventy (`littlepress build` then
 * swaps both in).
 */
async function afterBuild(build: {
  site: Site;
  sources: Sources;
  pages: Map<string, EditionPage>;
  results: RenderResult[];
  output: string;
  settings: PluginSettings;
  assumedUrl: string | undefined;
}) {
  const { site, sources, output, settings } = build;
  const { memory } = settings;
  const rendered = renderedEditions(build.pages, build.results, memory);
  const remember = memory?.remember ?? workOut;
  const warnings = buildWarnings(site, rendered, sources, remember);
  const siteJson = settings.content === undefined ? sources.configFile : path.join(settings.content, "site.json");
  warnings.push(...assumedUrlWarnings(build.assumedUrl, siteJson, settings.deploy));
  reportWarnings(warnings, settings.strict);
  const put = filePutter(output, memory);
  await writePublications(site.publications, rendered, output, { bundleBudget: settings.bundleBudget, remember, put });
  memory?.built();
  await writeSiteIndex(site, output, siteUrl({ site: site.url ?? settings.url }));
  await swapIn(path.join(output, DATA_DIR), siteDataDir(output));
}
