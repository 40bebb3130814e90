// The templates Eleventy renders the edition pages from: one paginated
// template per publication and variant, with the engines, layout and filters
// they are rendered with.
import path from "node:path";
import { BundlePlugin, RenderPlugin, type EleventyConfig } from "@11ty/eleventy";
import { findContentError } from "../model/content-error.ts";
import { TEMPLATE_FILE } from "./data-editions.ts";
import { addDateFilters } from "./date-filters.ts";
import { amendEngines } from "./edition-engines.ts";
import type { EditionData, EditionPage } from "./edition-pages.ts";
import { EDITIONS_DATA, renderEdition } from "./edition-rendering.ts";
import { postRendering, type PostRendering } from "./post-rendering.ts";
import { addPrintLayout, PRINT_LAYOUT } from "./print-layout.ts";
import type { Sources } from "./publication-sources.ts";

/**
 * Every edition page, for Eleventy to render: one paginated template per
 * publication and variant. (Not a template per edition: Eleventy looks each
 * template up with a linear search over all of them, so a build of 100,000
 * templates grows with the square of their number. Pages of one template do not.)
 * Returns what the editions are rendered with, which also gathers every edition's template problems as Eleventy
 * renders (renderCollecting), for the plugin to throw together after the run.
 */
export function addEditions(
  eleventyConfig: EleventyConfig,
  pages: Map<string, EditionPage>,
  content: string | undefined,
  sources: Sources,
): PostRendering {
  addEditionEngines(eleventyConfig, content);
  const posts = postRendering(eleventyConfig);
  const render = renderCollecting(posts);
  const folder = editionsFolders(sources, eleventyConfig.directories.input);
  const byTemplate = new Map<string, EditionData[]>();
  for (const page of pages.values()) {
    // In the editions folder, so that Eleventy's directory data (editions/editions.json) applies.
    const template = `${folder(page.pub.slug)}/littlepress-editions-${page.variantIndex}.11ty.js`;
    const list = byTemplate.get(template) ?? byTemplate.set(template, []).get(template)!;
    list.push(page.edition);
  }
  for (const [template, list] of byTemplate) {
    eleventyConfig.addTemplate(
      template,
      { render },
      {
        layout: PRINT_LAYOUT,
        eleventyExcludeFromCollections: true,
        [EDITIONS_DATA]: list,
        pagination: { data: EDITIONS_DATA, size: 1, alias: "edition" },
        permalink: (data: { edition: EditionData }) => data.edition.url,
      },
    );
  }
  return posts;
}

/**
 * Every edition's template problems, not the first one's: an edition that fails to render is noted with the
 * posts that failed (`failures`) and left empty, so Eleventy renders the others (of every publication) and the
 * build then fails with them all (the plugin throws them after Eleventy's run). Eleventy stops at the first, so
 * verify and npm start named one mistake a build.
 */
function renderCollecting(failures: PostRendering) {
  return async function render(
    this: ThisParameterType<typeof renderEdition>,
    data: Parameters<typeof renderEdition>[0],
  ) {
    try {
      return await renderEdition.call(this, data, failures);
    } catch (error) {
      const content = findContentError(error);
      if (!content) throw error;
      for (const problem of content.problems) failures.failed(problem);
      return "";
    }
  };
}

/** What the editions are rendered with: Eleventy's engines as amended, the print layout, the date filters. */
function addEditionEngines(eleventyConfig: EleventyConfig, content: string | undefined) {
  // The editions and the desk's script are JavaScript templates: a site that lists its own
  // `templateFormats` without 11ty.js would leave them out (Eleventy only warns).
  eleventyConfig.addTemplateFormats("11ty.js");
  eleventyConfig.addBundle("css");
  // Editions are rendered with its renderTemplate (edition-rendering.ts).
  eleventyConfig.addPlugin(RenderPlugin);
  amendEngines(eleventyConfig);
  // The edition page always fills its <style>: no page needs the bundle plugin's
  // pass that parses every page to drop empty <style> tags (a tenth of a large build).
  eleventyConfig.addPlugin(BundlePlugin, { bundles: false, pruneEmptySelector: false });
  // The author's files are read by lib/build/site.ts; Eleventy sees them only through these templates.
  // (A blog's posts are not ignored: they stay the site's pages.)
  if (content !== undefined) {
    eleventyConfig.ignores.add(`${content}/*/editions/**/*.md`);
    eleventyConfig.ignores.add(`${content}/*/${TEMPLATE_FILE}`);
  }
  addPrintLayout(eleventyConfig);
  addDateFilters(eleventyConfig);
}

/**
 * Where a publication's editions template goes, relative to Eleventy's input: its editions folder, so that
 * the directory data there and above (`<slug>/<slug>.11tydata.js`, `editions/editions.json`) is the
 * editions' data. A blog's input may hold the content folder (input ".", content "content"). A
 * publication of posts, or of a content folder outside the input, has `<slug>/editions` under the input.
 */
function editionsFolders(sources: Sources, input: string): (slug: string) => string {
  return (slug) => {
    const dir = path.relative(input, sources.get(slug)?.dir ?? input);
    const inInput = dir !== "" && !dir.startsWith("..") && !path.isAbsolute(dir);
    return inInput ? `${dir.split(path.sep).join("/")}/editions` : `${slug}/editions`;
  };
}
