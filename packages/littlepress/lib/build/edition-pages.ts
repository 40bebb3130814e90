// The edition pages Eleventy renders: every edition of every publication, once
// per variant of its settings, each with what its templates see.
import { ContentError, type ContentProblem } from "../model/content-error.ts";
import { textFields } from "../model/config-fields.ts";
import { dayFacts } from "../model/day-facts.ts";
import { DATA_DIR } from "../model/site-paths.ts";
import { slotToken } from "../model/text-slots.ts";
import { MAX_VARIANTS, variantCount, variantsOf, type Variant } from "../model/variants.ts";
import type { PostPart } from "./post-editions.ts";
import type { RenderSettings } from "./edition-engines.ts";
import type { EditionSource, PublicationSource } from "./site.ts";

/** One page Eleventy renders: an edition in one of its publication's variants. */
export interface EditionPage {
  pub: PublicationSource;
  key: string;
  /** Which of the publication's variants this page renders, and its place in variantsOf(). */
  variant: Variant;
  variantIndex: number;
  /** What the page's templates see. */
  readonly edition: EditionData;
  /** What it is made from, with the publication's settings and the variant. */
  source: EditionSource;
}

/**
 * What Eleventy gets for one edition page, seen as `edition` by the layout
 * (layouts/edition.njk). Only what rendering needs: Eleventy copies and wraps
 * page data, and a site may have 100,000 pages.
 */
export interface EditionData {
  /** Where Eleventy writes the page (and how the plugin finds it again in transforms and results). */
  url: string;
  /** The author's Markdown file (for an edition made from data, the template, edition.md). */
  source: string;
  /** For an edition made from data: its row, or the recurring rule (template errors name it). */
  origin?: string;
  /** For a CSV row: the columns whose cells are empty (an unknown variable of that name is the empty cell). */
  empty?: string[];
  /** The Markdown after the front matter, and the file's line where it starts. */
  body: string;
  bodyLine: number;
  /** What the edition's Liquid sees: its front matter, and `config` (choice values, slot markers for text). */
  data: Record<string, unknown>;
  /** `day` in `data` is the kit's facts of the edition's date, not the author's own (front matter or row). */
  kitDay: boolean;
  /** From the front matter: the heading, and the page's language ("en" unless given). */
  title?: string;
  lang: string;
  /** The publication's name (the page title of an edition without one) and charset. */
  publication: string;
  charset: string;
  /** The publication's settings for Liquid and Markdown (one object per publication). */
  render: RenderSettings;
  /** An edition of several blog posts (two on one day): each rendered with its own front matter, under its title. */
  parts?: PostPart[];
  /** A blog's post: rendered as the site renders its Markdown (post-rendering.ts), not always as Liquid. */
  post?: true;
}

/**
 * Every edition page of the publications, by URL; too many variants is a problem. (What is wrong in the
 * editions themselves was found as they were read: edition-checks.ts.)
 */
export function editionPages(publications: PublicationSource[]): Map<string, EditionPage> {
  const pages = new Map<string, EditionPage>();
  const problems: ContentProblem[] = [];
  for (const pub of publications) {
    const tooMany = variantProblem(pub);
    if (tooMany) {
      problems.push(tooMany);
      continue;
    }
    const render: RenderSettings = { strictVariables: pub.strict_variables, breaks: pub.markdown.breaks };
    const slots = Object.fromEntries(textFields(pub.fields).map((f) => [f.name, slotToken(f.name)]));
    variantsOf(pub.fields).forEach((variant, variantIndex) => {
      const config = { ...variant.values, ...slots };
      for (const source of pub.editions.list) {
        // One folder per publication: a folder per edition would cost a mkdir each.
        const url = `/${DATA_DIR}/${pub.slug}/editions/${source.key}.${variantIndex}.html`;
        // Made when asked: under npm start only the pages a save changed are rendered.
        let edition: EditionData | undefined;
        pages.set(url, {
          pub,
          key: source.key,
          variant,
          variantIndex,
          source,
          get edition() {
            return (edition ??= editionData(pub, source, { url, config, render }));
          },
        });
      }
    });
  }
  if (problems.length) throw new ContentError(problems);
  return pages;
}

function variantProblem(pub: PublicationSource): ContentProblem | undefined {
  const count = variantCount(pub.fields);
  if (count <= MAX_VARIANTS) return undefined;
  return {
    file: `content/${pub.slug}/publication.json`,
    field: "config.fields",
    problem: `the select and radio options combine into ${count} copies of every edition (at most ${MAX_VARIANTS})`,
    fix: "use fewer options, or make a free-text field of one of them",
  };
}

/** What one page's templates see: the edition, its variant's `config`, and its publication's settings. */
function editionData(
  pub: PublicationSource,
  source: EditionSource,
  page: { url: string; config: Record<string, unknown>; render: RenderSettings },
): EditionData {
  const { data, body, bodyLine } = source;
  const title = typeof data.title === "string" && data.title ? data.title : undefined;
  const lang = typeof data.lang === "string" && data.lang ? data.lang : "en";
  // `day` (weekday and month names, day of year, ISO week) for dated editions, unless the author has a `day`.
  const day = "day" in data ? undefined : dayFacts(pub.editions.by, source.key, lang);
  return {
    url: page.url,
    source: source.file,
    ...(source.origin && { origin: source.origin }),
    ...(source.empty && { empty: source.empty }),
    body,
    bodyLine,
    data: { ...(day && { day }), ...data, config: page.config },
    kitDay: day !== undefined,
    title,
    lang,
    publication: pub.name,
    charset: pub.charset,
    render: page.render,
    ...(source.parts && { parts: source.parts }),
    ...(source.post && { post: true }),
  };
}
