// The body of every edition page: the edition's Liquid and Markdown rendered by
// Eleventy's own engines (its render plugin's renderTemplate), as if it were
// the file itself; Eleventy then wraps it in the print layout and runs the
// transforms.
import { ContentError, type ContentProblem } from "../model/content-error.ts";
import { escapeHtml } from "../model/html-escape.ts";
import type { PostPart } from "./post-editions.ts";
import { liquidConfig, unknownSettingProblem } from "./edition-config.ts";
import { dataForEdition } from "./edition-data.ts";
import { renderData } from "./edition-engines.ts";
import { rebaseImages } from "./edition-images.ts";
import type { EditionData } from "./edition-pages.ts";
import { postProblem, type PostRendering } from "./post-rendering.ts";
import { rendering, templateError } from "./template-errors.ts";
import { textSettingProblem } from "./text-settings.ts";

type RenderTemplate = (this: object, content: string, languages: string, data: object) => Promise<string>;

/** What Eleventy hands an edition page: the data cascade, with Eleventy's own keys and the plugin's. */
type EditionTemplateData = { edition: EditionData; page: unknown; eleventy: unknown } & Record<string, unknown>;

/** The editions templates' list of pages (edition-templates.ts paginates it). */
export const EDITIONS_DATA = "littlepressEditions";

/**
 * An edition page's body, rendered (the editions templates' `render`). A blog's post is rendered as the
 * site renders its Markdown (`posts`); one that fails is kept for the build to name with the others.
 */
export async function renderEdition(
  this: { renderTemplate: RenderTemplate },
  data: EditionTemplateData,
  posts?: PostRendering,
): Promise<string> {
  const { edition } = data;
  if (edition.parts) return renderParts.call(this, data, edition.parts, posts);
  const own = authorData(data);
  if (edition.kitDay && "day" in own) throw new ContentError([dayClash(edition)]);
  // Global and directory data first (a function there is computed for this edition);
  // the edition's front matter wins, as in Eleventy.
  const author = await dataForEdition(own, edition.data, edition.source);
  // Text settings as TextSettings (lib/build/text-settings.ts): printed, never computed on.
  const config = liquidConfig(edition.data.config as Record<string, unknown>);
  const scope = renderData({ ...author, ...edition.data, config }, edition.render);
  const languages = edition.post && posts ? posts.languages(edition.data) : "liquid,md";
  try {
    // The page is passed explicitly: the template's shared instance keeps the first page's.
    const self = { page: data.page, eleventy: data.eleventy };
    return await this.renderTemplate.call(self, edition.body, languages, scope);
  } catch (error) {
    const setting =
      unknownSettingProblem(error, edition.source, edition.bodyLine, rendering(edition)) ??
      textSettingProblem(error, edition.source, edition.bodyLine, rendering(edition));
    const problem = setting ?? templateError(error, edition, scope);
    if (!edition.post || !posts) throw new ContentError([problem]);
    posts.failed(postProblem(problem, languages));
    return "";
  }
}

/** An edition of several posts: each rendered as an edition of its own would be, under its title as a heading. */
async function renderParts(
  this: { renderTemplate: RenderTemplate },
  data: EditionTemplateData,
  parts: PostPart[],
  posts?: PostRendering,
): Promise<string> {
  const { edition } = data;
  const html: string[] = [];
  for (const part of parts) {
    const { parts: _all, ...rest } = edition;
    const own: EditionData = {
      ...rest,
      source: part.file,
      body: part.body,
      bodyLine: part.bodyLine,
      data: { ...edition.data, ...part.data, config: edition.data.config },
      kitDay: edition.kitDay && !("day" in part.data),
    };
    const heading = part.title ? `<h1>${escapeHtml(part.title)}</h1>\n` : "";
    // The page's images are looked for from the first post's folder; each post's own are its own.
    const body = await renderEdition.call(this, { ...data, edition: own }, posts);
    html.push(heading + (await rebaseImages(body, part.file, edition.source)));
  }
  return html.join("\n");
}

// Keys of the cascade that are Eleventy's or the editions template's, not the author's data files'.
const NOT_AUTHOR_DATA = new Set([
  ...["edition", "page", "eleventy", "collections", "pkg", "pagination", "permalink", "layout"],
  ...["eleventyExcludeFromCollections", EDITIONS_DATA],
]);

/**
 * The author's global (`_data/`) and directory data (`<slug>/<slug>.json`, `<slug>/editions/editions.json`).
 * By key first: Eleventy hands the data in a proxy that wraps each value it is asked for (the pagination
 * among them), so only the author's values are read (Object.entries read them all: for 1,100 pages,
 * 240 ms against 100 ms, measured in a build).
 */
function authorData(data: EditionTemplateData): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(data)) if (!NOT_AUTHOR_DATA.has(key)) own[key] = data[key];
  return own;
}

/**
 * A data file named `day` in a dated publication: the kit's `day` (the
 * edition date's names and numbers) would silently hide it, as front matter
 * hides a data file. Said once, at the first edition rendered.
 */
function dayClash(edition: EditionData): ContentProblem {
  return {
    file: edition.source,
    field: "{{ day }}",
    problem:
      "a data file defines `day` (content/_data/day.json, or this publication's directory data), " +
      "and in a dated edition `day` is the kit's: the weekday, month and other facts of the edition's date" +
      rendering(edition),
    fix:
      "rename the data file (or its `day` key), for example to `days`; to give an edition a `day` of its own, " +
      'set `day` in its front matter or row (docs/data-and-recurring-editions.md: "Editions from data")',
  };
}
