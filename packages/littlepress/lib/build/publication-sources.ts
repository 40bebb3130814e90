// The publications the plugin builds: the content folder's and the posts',
// each checked (every problem said at once), with where each one's files are.
import { existsSync } from "node:fs";
import path from "node:path";
import type { EleventyConfig } from "@11ty/eleventy";
import { ContentError, uniqueProblems, type ContentProblem } from "../model/content-error.ts";
import { postsPublications } from "./blog-posts.ts";
import { eleventyConfigFile } from "./eleventy-config-file.ts";
import type { PluginSettings } from "./plugin-options.ts";
import type { PostReading } from "./post-reading.ts";
import { loadSite, type Site } from "./site.ts";
import { strayPages } from "./stray-pages.ts";

/** Where each publication's files are, and what names its settings in problems and warnings. */
export interface Sources extends Map<string, { dir: string; settingsFile: string }> {
  configFile: string;
}

/** The content folder's publications and the posts' (each checked, every problem said at once). */
export async function loadPublications(
  settings: PluginSettings,
  input: string,
  reading: PostReading,
): Promise<{ site: Site; sources: Sources }> {
  const configFile = eleventyConfigFile() ?? "eleventy.config.js";
  const sources = Object.assign(new Map(), { configFile }) as Sources;
  const missing = missingContent(settings, configFile);
  if (missing) throw new ContentError([missing]);
  const problems: ContentProblem[] = [];
  const site = settings.content === undefined ? { publications: [] } : contentSite(settings, sources, problems);
  if (settings.content !== undefined)
    problems.push(
      ...strayPages(
        settings.content,
        input,
        (settings.posts ?? []).map((p) => p.folder),
      ),
    );
  const posts = await postsPublications(settings.posts, configFile, problems, reading);
  for (const { publication, settings: entry } of posts) {
    if (sources.has(publication.slug)) {
      problems.push({
        file: configFile,
        field: `littlepress option ${entry.option}.slug`,
        problem: `"${publication.slug}" is also a publication in ${settings.content}`,
        fix: "give the posts' publication another slug",
      });
      continue;
    }
    // A post's image at /img/x.png is the site's own, under Eleventy's input folder.
    sources.set(publication.slug, { dir: input, settingsFile: configFile });
    site.publications.push(publication);
  }
  // Two publications of one folder of posts (by date and as a serial) find its mistakes twice.
  if (problems.length) throw new ContentError(uniqueProblems(problems));
  return { site, sources };
}

/** The problem of options that name no publications, or a content folder that is not there. */
function missingContent({ content, posts }: PluginSettings, configFile: string): ContentProblem | undefined {
  if (content === undefined && posts === undefined)
    return {
      file: configFile,
      field: "littlepress options",
      problem: "name no publications: neither `content` (a folder of publications) nor `posts`",
      fix:
        'add posts: [{ slug: "paper", folder: "posts", by: "date", name: "…", description: "…", ' +
        'owner_email: "…" }] (docs/eleventy-plugin.md: "Posts as a publication")',
    };
  if (content !== undefined && !existsSync(content))
    return {
      file: content,
      field: "",
      problem: "does not exist",
      fix:
        "create the folder and add a publication in it, content/<slug>/publication.json " +
        '(docs/writing-publications.md: "Writing a publication")',
    };
  return undefined;
}

/** The content folder's publications; their problems go to `problems`. */
function contentSite(settings: PluginSettings, sources: Sources, problems: ContentProblem[]): Site {
  const content = settings.content!;
  let site: Site = { publications: [] };
  try {
    const read = settings.memory?.editionFiles;
    site = loadSite(content, { ...(settings.today && { today: settings.today }), ...(read && { read }) });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    problems.push(...error.problems);
  }
  for (const p of site.publications)
    sources.set(p.slug, {
      dir: path.join(content, p.slug),
      settingsFile: path.join(content, p.slug, "publication.json"),
    });
  return site;
}

/**
 * Under Eleventy's own `--serve` and `--watch`: the plugin reads the publications when the
 * config runs, so a change to them has Eleventy run the config again, as for the config file.
 */
export function watchSources(eleventyConfig: EleventyConfig, settings: PluginSettings) {
  const folders = [
    ...(settings.content === undefined ? [] : [settings.content]),
    ...(settings.posts ?? []).map((p) => p.folder),
  ];
  for (const folder of new Set(folders)) eleventyConfig.addWatchTarget(`./${folder}/**`, { resetConfig: true });
}
