// The littlepress build plugin: checks the content, tells Eleventy to render
// every edition once per variant, and after the build writes each
// publication's meta.json and manifest. The rules themselves live in lib/model.
import type { EleventyConfig } from "@11ty/eleventy";
import { existsSync, readFileSync } from "node:fs";
import { BundlePlugin, RenderPlugin } from "@11ty/eleventy";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  chainMessages,
  ContentError,
  formatWarnings,
  uniqueProblems,
  type ContentProblem,
} from "../model/content-error.ts";
import { packageFile } from "./package-files.ts";
import { DESK_MODEL_FILE, deskPublication } from "./desk.ts";
import { deskModelScript } from "./desk-model.ts";
import { makeIcon } from "./icon.ts";
import { deflateBody, deflateHead, encodeShard, shardDictionary, type ShardDeflate } from "../model/shard.ts";
import { contentHash } from "../model/etag.ts";
import { workOut, type Remember, type RenderMemory } from "./render-memory.ts";
import { packPublication, type RenderedEdition } from "./pack.ts";
import { placeShards, type EncodedPublication } from "./shard-placement.ts";
import { descriptionWarnings, PrintChecker } from "./print-checks.ts";
import { lengthWarnings } from "./edition-length.ts";
import { frontMatterSlips } from "./front-matter-slips.ts";
import { inertSettings } from "../model/setting-effects.ts";
import {
  assumedUrlWarnings,
  processImages,
  rebaseImages,
  siteUrl,
  skipImageTransform,
  type ImageTarget,
} from "./edition-images.ts";
import { amendEngines, renderData, type RenderSettings } from "./edition-engines.ts";
import { dataForEdition } from "./edition-data.ts";
import { liquidConfig, unknownSettingProblem } from "./edition-config.ts";
import { textSettingProblem } from "./text-settings.ts";
import { addDateFilters } from "./date-filters.ts";
import { TEMPLATE_FILE } from "./data-editions.ts";
import { dayFacts } from "../model/day-facts.ts";
import { metaJson } from "../model/meta.ts";
import { eachAtMost } from "../model/each-at-most.ts";
import { DATA_DIR, SITE_INDEX, siteDataDir, type SiteIndex } from "../model/site-paths.ts";
import { swapIn } from "./swap-in.ts";
import { leaveUnwritten } from "./unwritten-pages.ts";
import { loadSite, type EditionSource, type PublicationSource, type Site } from "./site.ts";
import { textFields } from "../model/config-fields.ts";
import { slotToken } from "../model/text-slots.ts";
import { MAX_VARIANTS, variantCount, variantsOf, type Variant } from "../model/variants.ts";
import { postsPublications, type PostPart, type PostsPublication } from "./blog-posts.ts";
import { postReading, type PostReading } from "./post-reading.ts";
import { eleventyConfigFile } from "./eleventy-config-file.ts";
import { addPrintLayout, PRINT_LAYOUT } from "./print-layout.ts";
import { escapeHtml } from "../model/html-escape.ts";

/** One page Eleventy renders: an edition in one of its publication's variants. */
interface EditionPage {
  pub: PublicationSource;
  key: string;
  /** Which of the publication's variants this page renders, and its place in variantsOf(). */
  variant: Variant;
  variantIndex: number;
  /** What the page's templates see. */
  edition: EditionData;
  /** What it is made from, with the publication's settings and the variant. */
  source: EditionSource;
}

/**
 * What Eleventy gets for one edition page, seen as `edition` by the layout
 * (layouts/edition.njk). Only what rendering needs: Eleventy copies and wraps
 * page data, and a site may have 100,000 pages.
 */
interface EditionData {
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
}

/** The Eleventy versions the plugin works with: its package's peer dependency. */
const ELEVENTY_RANGE = (
  JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { peerDependencies: Record<string, string> }
).peerDependencies["@11ty/eleventy"]!;

/** What the plugin is given: by `.eleventy.js`, or by `npm run build` and `npm start` for one run. */
export interface LittlepressOptions {
  /** The folder of publications (content/<slug>/publication.json …); a blog adding `posts` needs none. */
  content?: string;
  /**
   * Publications made from a folder of the site's Markdown posts, by date or as a
   * numbered serial (lib/build/blog-posts.ts, and docs/eleventy-plugin.md: "Posts as a publication"). The posts stay
   * pages of the site; their editions are rendered in the print layout.
   */
  posts?: PostsPublication[];
  /** Print warnings fail the build (`npm run build -- --strict`). */
  strict?: boolean;
  /**
   * The pages of earlier builds in this process (`npm start`): a page whose
   * inputs are unchanged is taken from here instead of being rendered again.
   */
  memory?: RenderMemory;
  /** The site's address where content/site.json and publication.json give none (Netlify's, or a local server's). */
  url?: string;
  /**
   * A build to deploy (`npm run build`): images linked to the assumed local
   * address, for want of a `url`, are warned about. Builds for a local server
   * (`npm start`, verify, preview) are served at the address they were given.
   */
  deploy?: boolean;
  /** Shard bytes the function bundle may carry (default BUNDLE_BUDGET_BYTES; tests give a tiny one). */
  bundleBudget?: number;
  /** The build date, "YYYY-MM-DD": where open-ended recurring editions start (default: today, UTC). */
  today?: string;
  /** Told the publications the plugin read, once read: how `build()` (lib/build/build.ts) resolves to them. */
  built?: (site: Site) => void;
}

/** The plugin's options that one run (a build, npm start's rebuild) sets over the config file's. */
export type RunSettings = Omit<LittlepressOptions, "content" | "posts" | "built">;

// Async, as Eleventy allows a plugin: its engine for a post's JavaScript front matter is.
export default async function littlepress(eleventyConfig: EleventyConfig, options: LittlepressOptions) {
  // As Eleventy's own plugins do: an Eleventy outside the peer dependency's range is named at once.
  eleventyConfig.versionCheck(ELEVENTY_RANGE);
  const reading = postReading(eleventyConfig);
  const { site, sources } = await loadPublications(options, eleventyConfig.directories.input, reading);
  options.built?.(site);
  const pages = editionPages(site.publications);
  const { memory } = options;

  const rendering = memory ? changedPages(pages, memory) : pages;
  addEditions(eleventyConfig, rendering, options.content, editionsFolders(sources, eleventyConfig.directories.input));
  // Packed into shards from Eleventy's results: never written as pages (unwritten-pages.ts).
  const output = eleventyConfig.directories.output;
  const release = await leaveUnwritten([...rendering.keys()].map((url) => path.join(output, url)));
  // The desk's home is the home page of a site of publications, whose content folder is Eleventy's input
  // (the starter's). A blog keeps its own, whether its publications are its posts or a folder inside it.
  const input = eleventyConfig.directories.input;
  addDesk(eleventyConfig, site, options.content !== undefined && path.resolve(options.content) === path.resolve(input));

  // Images in editions: fitted to the paper, greyscale, absolute URLs (and not the site's own image transform's).
  skipImageTransform(eleventyConfig, (url) => pages.has(url));
  let assumedUrl: string | undefined;
  const images: ImageTarget["done"] = new Map();
  eleventyConfig.addTransform("littlepress-images", async function (this: { page: { url: string } }, html: string) {
    const page = pages.get(this.page.url);
    if (!page) return html;
    const url = siteUrl({ publication: page.pub.url, site: site.url ?? options.url });
    const out = await processImages(html, {
      source: page.edition.source,
      publicationDir: sources.get(page.pub.slug)!.dir,
      slug: page.pub.slug,
      siteUrl: url.url,
      output: eleventyConfig.directories.output,
      done: images,
    });
    if (url.assumed && out.includes(`${url.url}/`)) assumedUrl = url.url;
    return out;
  });

  eleventyConfig.on(
    "eleventy.after",
    async ({ results, directories }: { results: RenderResult[]; directories: { output: string } }) => {
      release();
      const rendered = renderedEditions(pages, results, memory);
      const remember = memory?.remember ?? workOut;
      const warnings = printChecks(site, rendered, sources, remember);
      const siteJson = options.content === undefined ? sources.configFile : path.join(options.content, "site.json");
      warnings.push(...assumedUrlWarnings(assumedUrl, siteJson, options.deploy ?? false));
      reportWarnings(warnings, options.strict ?? false);
      const put = filePutter(directories.output, memory);
      await writePublications(site.publications, rendered, directories.output, options.bundleBudget, remember, put);
      memory?.built();
      await writeSiteIndex(site, directories.output, siteUrl({ site: site.url ?? options.url }).url);
      // Beside the site, never in it, whichever command ran Eleventy (`littlepress build` then swaps both in).
      await swapIn(path.join(directories.output, DATA_DIR), siteDataDir(directories.output));
    },
  );
  watchSources(eleventyConfig, options);
}

/**
 * Under Eleventy's own `--serve` and `--watch`: the plugin reads the publications when the
 * config runs, so a change to them has Eleventy run the config again, as for the config file.
 */
function watchSources(eleventyConfig: EleventyConfig, options: LittlepressOptions) {
  const folders = [
    ...(options.content === undefined ? [] : [options.content]),
    ...(options.posts ?? []).map((p) => p.folder),
  ];
  for (const folder of new Set(folders)) eleventyConfig.addWatchTarget(`./${folder}/**`, { resetConfig: true });
}

/** Where each publication's files are, and what names its settings in problems and warnings. */
interface Sources extends Map<string, { dir: string; settingsFile: string }> {
  configFile: string;
}

/** The content folder's publications and the posts' (each checked, every problem said at once). */
async function loadPublications(
  options: LittlepressOptions,
  input: string,
  reading: PostReading,
): Promise<{ site: Site; sources: Sources }> {
  const { content } = options;
  const configFile = eleventyConfigFile() ?? "eleventy.config.js";
  const sources = Object.assign(new Map(), { configFile }) as Sources;
  if (content === undefined && options.posts === undefined)
    throw new ContentError([
      {
        file: configFile,
        field: "littlepress options",
        problem: "name no publications: neither `content` (a folder of publications) nor `posts`",
        fix:
          'add posts: [{ slug: "paper", folder: "posts", by: "date", name: "…", description: "…", ' +
          'owner_email: "…" }] (docs/eleventy-plugin.md: "Posts as a publication")',
      },
    ]);
  if (content !== undefined && !existsSync(content))
    throw new ContentError([
      {
        file: content,
        field: "",
        problem: "does not exist",
        fix:
          "create the folder and add a publication in it, content/<slug>/publication.json " +
          '(docs/writing-publications.md: "Writing a publication")',
      },
    ]);
  const problems: ContentProblem[] = [];
  let site: Site = { publications: [] };
  if (content !== undefined) {
    try {
      const read = options.memory?.editionFiles;
      site = loadSite(content, { ...(options.today && { today: options.today }), ...(read && { read }) });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      problems.push(...error.problems);
    }
    for (const p of site.publications)
      sources.set(p.slug, {
        dir: path.join(content, p.slug),
        settingsFile: path.join(content, p.slug, "publication.json"),
      });
  }
  for (const { publication, settings } of await postsPublications(options.posts, configFile, problems, reading)) {
    if (sources.has(publication.slug)) {
      problems.push({
        file: configFile,
        field: `littlepress option ${settings.option}.slug`,
        problem: `"${publication.slug}" is also a publication in ${content}`,
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

// `npm run build` registers the plugin with the run's options before `.eleventy.js`
// does with its defaults: the first registration wins.
littlepress.eleventyPluginOptions = { unique: true };

/**
 * Every edition page, for Eleventy to render: one paginated template per
 * publication and variant. (Not a template per edition: Eleventy looks each
 * template up with a linear search over all of them, so a build of 100,000
 * templates grows with the square of their number. Pages of one template do not.)
 */
function addEditions(
  eleventyConfig: EleventyConfig,
  pages: Map<string, EditionPage>,
  content: string | undefined,
  editionsFolder: (slug: string) => string,
) {
  eleventyConfig.addBundle("css");
  // Editions are rendered with its renderTemplate (renderEdition, below).
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
  const byTemplate = new Map<string, EditionData[]>();
  for (const page of pages.values()) {
    // In the editions folder, so that Eleventy's directory data (editions/editions.json) applies.
    const template = `${editionsFolder(page.pub.slug)}/littlepress-editions-${page.variantIndex}.11ty.js`;
    const list = byTemplate.get(template) ?? byTemplate.set(template, []).get(template)!;
    list.push(page.edition);
  }
  for (const [template, list] of byTemplate) {
    eleventyConfig.addTemplate(
      template,
      { render: renderEdition },
      {
        layout: PRINT_LAYOUT,
        eleventyExcludeFromCollections: true,
        littlepressEditions: list,
        pagination: { data: "littlepressEditions", size: 1, alias: "edition" },
        permalink: (data: { edition: EditionData }) => data.edition.url,
      },
    );
  }
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

/** What Eleventy hands the eleventy.after event for each page it wrote. */
interface RenderResult {
  url: string;
  content: string;
}

/**
 * The body of every edition page: the edition's Liquid and Markdown rendered by
 * Eleventy's own engines, as if it were the file itself; Eleventy then wraps
 * it in layouts/edition.njk and runs the transforms.
 */
async function renderEdition(this: { renderTemplate: RenderTemplate }, data: EditionTemplateData): Promise<string> {
  const { edition } = data;
  if (edition.parts) return renderParts.call(this, data, edition.parts);
  const own = authorData(data);
  if (edition.kitDay && "day" in own) throw new ContentError([dayClash(edition)]);
  // Global and directory data first (a function there is computed for this edition);
  // the edition's front matter wins, as in Eleventy.
  const author = await dataForEdition(own, edition.data, edition.source);
  // Text settings as TextSettings (lib/build/text-settings.ts): printed, never computed on.
  const config = liquidConfig(edition.data.config as Record<string, unknown>);
  const scope = renderData({ ...author, ...edition.data, config }, edition.render);
  try {
    // The page is passed explicitly: the template's shared instance keeps the first page's.
    const self = { page: data.page, eleventy: data.eleventy };
    return await this.renderTemplate.call(self, edition.body, "liquid,md", scope);
  } catch (error) {
    const setting =
      unknownSettingProblem(error, edition.source, edition.bodyLine, rendering(edition)) ??
      textSettingProblem(error, edition.source, edition.bodyLine, rendering(edition));
    throw new ContentError([setting ?? templateError(error, edition)]);
  }
}

/** An edition of several posts: each rendered as an edition of its own would be, under its title as a heading. */
async function renderParts(
  this: { renderTemplate: RenderTemplate },
  data: EditionTemplateData,
  parts: PostPart[],
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
    html.push(
      heading + rebaseImages(await renderEdition.call(this, { ...data, edition: own }), part.file, edition.source),
    );
  }
  return html.join("\n");
}

/** What Eleventy hands an edition page: the data cascade, with Eleventy's own keys and the plugin's. */
type EditionTemplateData = { edition: EditionData; page: unknown; eleventy: unknown } & Record<string, unknown>;

// Keys of the cascade that are Eleventy's or the editions template's, not the author's data files'.
const NOT_AUTHOR_DATA = new Set([
  ...["edition", "page", "eleventy", "collections", "pkg", "pagination", "permalink", "layout"],
  ...["eleventyExcludeFromCollections", "littlepressEditions"],
]);

/** The author's global (`_data/`) and directory data (`<slug>/<slug>.json`, `<slug>/editions/editions.json`). */
function authorData(data: EditionTemplateData): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !NOT_AUTHOR_DATA.has(key)));
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

/** A template error as the author's problem: an unknown variable by name, anything else in the engine's words. */
function templateError(error: unknown, edition: EditionData): ContentProblem {
  const problem = templateProblem(error, edition.bodyLine);
  const unknown = /^undefined variable: ([^,]+)(.*)$/.exec(problem);
  if (unknown) {
    const [, name, place] = unknown;
    const cell = emptyCell(name!, place!, edition);
    if (cell) return cell;
    const where = place!.replace(/^, (.+)$/, " ($1)");
    const problem = `\`${name}\` is not defined${where}: not in the front matter, \`config\` or a data file`;
    return {
      file: edition.source,
      field: `{{ ${name} }}`,
      problem: problem + rendering(edition),
      fix: UNKNOWN_VARIABLE_FIX,
    };
  }
  const fix =
    "correct the Liquid there; " + 'tags look like {% if config.lang == "fr" %}…{% endif %}, values like {{ title }}';
  return { file: edition.source, field: "template", problem: problem + rendering(edition), fix };
}

/**
 * An unknown variable that is a CSV column left empty in the row being
 * rendered: the cell is what to fill (an empty cell is a missing value, as a
 * field left out of front matter is, so it never prints as nothing unasked).
 */
function emptyCell(name: string, place: string, edition: EditionData): ContentProblem | undefined {
  const column = name.split(/[.[]/)[0]!;
  if (!edition.origin || !edition.empty?.includes(column)) return undefined;
  const where = place.replace(/^, (.+)$/, " ($1)");
  return {
    file: edition.origin,
    field: column,
    problem: `the \`${column}\` cell is empty, and ${edition.source} prints it${where}`,
    fix:
      `fill the cell; if it may stay empty, write {% if ${column} %}…{% endif %} or ` +
      `{{ ${column} | default: "…" }} in ${edition.source}, or give \`${column}\` a default in its front matter ` +
      '("" in a cell is empty text on purpose; docs/data-and-recurring-editions.md: "Editions from data")',
  };
}

/** Which row (or date of the rule) a template made from data was being rendered for. */
const rendering = (edition: EditionData) => (edition.origin ? ` (rendering ${edition.origin})` : "");

const UNKNOWN_VARIABLE_FIX =
  "correct the name, or define it in the front matter or a data file; " +
  'for a value that may be missing write {{ x | default: "…" }} or {% if x %}…{% endif %} ' +
  '(docs/writing-publications.md: "Template variables")';

/**
 * The template engine's own words for what is wrong, at the line of the author's file
 * (not of the text after the front matter).
 */
function templateProblem(error: unknown, bodyLine: number): string {
  const messages = chainMessages(error, 8);
  // The innermost message that has a place (liquidjs wraps an unknown variable's error once more, without one).
  return (messages.findLast((m) => /line:\d+, col:\d+/.test(m)) ?? messages.at(-1) ?? String(error))
    .replace(/, file:.*?(?=, line:|$)/, "")
    .replace(
      /line:(\d+), col:(\d+)/,
      (_, line: string, col: string) => `line ${Number(line) + bodyLine - 1}, column ${col}`,
    );
}
type RenderTemplate = (this: object, content: string, languages: string, data: object) => Promise<string>;

/**
 * The desk: the site's own pages, where authors see their publications as the
 * platform will (home at /, one page per publication at /<slug>/).
 */
function addDesk(eleventyConfig: EleventyConfig, site: Site, home: boolean) {
  const desk = site.publications.map((p) => deskPublication(p, site.root));
  const template = (name: string) => readFileSync(packageFile("layouts", "desk", name), "utf8");
  // Desk pages set their own layout and permalink over the editions' global ones.
  const own = { layout: false, eleventyExcludeFromCollections: true };
  if (home)
    eleventyConfig.addTemplate("_desk/home.njk", template("home.njk"), { ...own, desk, permalink: "/index.html" });
  eleventyConfig.addTemplate("_desk/publication.njk", template("publication.njk"), {
    ...own,
    desk,
    pagination: { data: "desk", size: 1, alias: "pub" },
    eleventyComputed: { permalink: (data: { pub: { slug: string } }) => `/${data.pub.slug}/index.html` },
  });
  // The folder as one copy (a glob would copy file by file, still at work when a failed build is removed);
  // model.d.ts is for the type checker only.
  // Eleventy copies from paths relative to the project: the package's, wherever it is installed.
  const assets = path.relative(".", packageFile("layouts", "desk", "assets"));
  eleventyConfig.addPassthroughCopy({ [assets]: "_desk" }, { filter: ["**", "!**/*.d.ts"] });
  // Beside them, the model's rules that the desk's scripts import as ./model.js:
  // a page of Eleventy's own, so it is written with the others, in the same build.
  eleventyConfig.addTemplate(
    "_desk/littlepress-desk-model.11ty.js",
    { render: deskModelScript },
    { ...own, permalink: `/${DESK_MODEL_FILE}` },
  );
  // Print previews made by `npm run preview` (preview/<slug>/), shown on each publication's page.
  for (const pub of site.publications)
    eleventyConfig.addPassthroughCopy({ [`preview/${pub.slug}`]: `${pub.slug}/preview` });
}

function editionPages(publications: PublicationSource[]): Map<string, EditionPage> {
  const pages = new Map<string, EditionPage>();
  const problems: ContentProblem[] = [];
  for (const pub of publications) {
    const count = variantCount(pub.fields);
    if (count > MAX_VARIANTS) {
      problems.push({
        file: `content/${pub.slug}/publication.json`,
        field: "config.fields",
        problem: `the select and radio options combine into ${count} copies of every edition (at most ${MAX_VARIANTS})`,
        fix: "use fewer options, or make a free-text field of one of them",
      });
      continue;
    }
    const render: RenderSettings = { strictVariables: pub.strict_variables, breaks: pub.markdown.breaks };
    const slots = Object.fromEntries(textFields(pub.fields).map((f) => [f.name, slotToken(f.name)]));
    variantsOf(pub.fields).forEach((variant, variantIndex) => {
      const config = { ...variant.values, ...slots };
      for (const source of pub.editions.list) {
        const { data, body, bodyLine } = source;
        // One folder per publication: a folder per edition would cost a mkdir each.
        const url = `/${DATA_DIR}/${pub.slug}/editions/${source.key}.${variantIndex}.html`;
        const title = typeof data.title === "string" && data.title ? data.title : undefined;
        const lang = typeof data.lang === "string" && data.lang ? data.lang : "en";
        // `day` (weekday and month names, day of year, ISO week) for dated editions, unless the author has a `day`.
        const day = "day" in data ? undefined : dayFacts(pub.editions.by, source.key, lang);
        const edition = {
          url,
          source: source.file,
          ...(source.origin && { origin: source.origin }),
          ...(source.empty && { empty: source.empty }),
          body,
          bodyLine,
          data: { ...(day && { day }), ...data, config },
          kitDay: day !== undefined,
          title,
          lang,
          publication: pub.name,
          charset: pub.charset,
          render,
          ...(source.parts && { parts: source.parts }),
        };
        pages.set(url, { pub, key: source.key, variant, variantIndex, edition, source });
      }
    });
  }
  if (problems.length) throw new ContentError(problems);
  return pages;
}

/**
 * Every edition page, rendered: from Eleventy's results, or from the memory of
 * an earlier build for a page not rendered again. By publication, in the
 * pages' order (variant by variant, editions in key order), whatever order
 * Eleventy rendered them in. The memory is brought up to date.
 */
function renderedEditions(
  pages: Map<string, EditionPage>,
  results: RenderResult[],
  memory?: RenderMemory,
): Map<string, RenderedEdition[]> {
  const fresh = new Map(results.map((r) => [r.url, r.content]));
  const byPublication = new Map<string, RenderedEdition[]>();
  for (const [url, page] of pages) {
    const html = fresh.get(url) ?? memory?.pages.get(url)?.html;
    if (html === undefined) continue;
    if (memory && fresh.has(url)) memory.pages.set(url, { inputs: pageInputs(page), html });
    const list = byPublication.get(page.pub.slug) ?? byPublication.set(page.pub.slug, []).get(page.pub.slug)!;
    list.push({ source: page.edition.source, key: page.key, variant: page.variant, html });
  }
  if (memory) for (const url of memory.pages.keys()) if (!pages.has(url)) memory.pages.delete(url);
  return byPublication;
}

/** The pages whose inputs differ from those the memory rendered them from (all of them, with an empty memory). */
function changedPages(pages: Map<string, EditionPage>, memory: RenderMemory): Map<string, EditionPage> {
  return new Map([...pages].filter(([url, page]) => !sameInputs(memory.pages.get(url)?.inputs, pageInputs(page))));
}

/** Part by part: an unchanged edition's part is the very string, compared at once, never joined to the rest. */
const sameInputs = (a: readonly string[] | undefined, b: readonly string[]) =>
  a !== undefined && a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * All a page is rendered from, besides the layouts and the site's data: the
 * edition's source, the variant, and its publication's settings (what the
 * templates see is made from these alone).
 */
function pageInputs(page: EditionPage): string[] {
  let settings = publicationInputs.get(page.pub);
  if (settings === undefined) {
    const { editions, ...rest } = page.pub;
    publicationInputs.set(page.pub, (settings = JSON.stringify([rest, editions.by])));
  }
  let edition = editionInputs.get(page.source);
  if (edition === undefined) editionInputs.set(page.source, (edition = JSON.stringify(page.source)));
  return [settings, edition, JSON.stringify(page.variant ?? null)];
}

/** A publication's part of its pages' inputs, written once a build, not once a page. */
const publicationInputs = new WeakMap<PublicationSource, string>();
/**
 * An edition's part, written once for each of its pages and, under `npm start`, once for as
 * long as its file is unchanged (the memory keeps the edition a file gave: site.ts's `read`).
 */
const editionInputs = new WeakMap<EditionSource, string>();

/** Writes a file of the build (a path under its output, with `/`); under `npm start`, links one that is unchanged. */
type Put = (file: string, bytes: Buffer) => Promise<void>;

function filePutter(output: string, memory: RenderMemory | undefined): Put {
  if (!memory) return (file, bytes) => writeFile(path.join(output, file), bytes);
  memory.files.begin();
  return (file, bytes) => memory.files.put(output, file, bytes);
}

async function writePublications(
  publications: PublicationSource[],
  rendered: Map<string, RenderedEdition[]>,
  output: string,
  bundleBudget: number | undefined,
  remember: Remember,
  put: Put,
) {
  const encoded: EncodedPublication[] = [];
  for (const pub of publications) {
    const { index, shards } = packPublication(pub, rendered.get(pub.slug) ?? [], new Date(), remember);
    const dictionary = shardDictionary(index);
    // A body's bytes depend on the dictionary too: the fact is named by its hash.
    const deflated = `deflated with ${remember(index.dictionary, "hash", () => contentHash(index.dictionary))}`;
    const deflate: ShardDeflate = (text, body) =>
      body
        ? remember(text, deflated, () => deflateBody(text, dictionary))
        : remember(text, "deflated", () => deflateHead(text));
    encoded.push({ index, shards: new Map([...shards].map(([id, shard]) => [id, encodeShard(shard, deflate)])) });
  }
  const files = placeShards(encoded, (slug) => path.posix.join(DATA_DIR, slug), bundleBudget);
  for (const pub of publications) {
    // The pages Eleventy wrote one by one are now packed into the shards.
    await rm(path.join(output, DATA_DIR, pub.slug, "editions"), { recursive: true, force: true });
  }
  for (const dir of new Set(files.map((f) => path.dirname(f.path))))
    await mkdir(path.join(output, dir), { recursive: true });
  await eachAtMost(WRITES_AT_ONCE, files, (f) => put(f.path, f.bytes));
  for (const { index } of encoded) {
    await writeFile(path.join(output, DATA_DIR, index.slug, "index.json"), JSON.stringify(index));
  }
  for (const pub of publications) {
    await mkdir(path.join(output, pub.slug), { recursive: true });
    await put(`${pub.slug}/meta.json`, Buffer.from(JSON.stringify(metaJson(pub), null, 2) + "\n"));
    const icon = pub.iconFile ? { file: pub.iconFile, bytes: await readFile(pub.iconFile) } : undefined;
    // The same image gives the same icon: npm start makes it again only when it changed.
    const fact = icon ? `the icon from ${icon.file}` : "the default icon";
    const made = remember(icon ? icon.bytes.toString("base64") : "", fact, () => makeIcon(icon));
    await put(`${pub.slug}/icon.png`, await made);
  }
}

/** File writes at once: thousands at once would each hold a buffer and a handle. */
const WRITES_AT_ONCE = 4;

/** Print checks on every rendered edition (once per file), its estimated length, and each description. */
function printChecks(
  site: Site,
  rendered: Map<string, RenderedEdition[]>,
  sources: Sources,
  remember: Remember,
): ContentProblem[] {
  const warnings: ContentProblem[] = site.publications.flatMap((p) =>
    descriptionWarnings(p.description, sources.get(p.slug)!.settingsFile),
  );
  const checker = new PrintChecker();
  const pages = [...rendered.values()].flat();
  for (const r of pages) warnings.push(...checker.check(r.html, r.source, remember));
  // Editions the printer would cut, by a layout measure (verify and preview measure them in Chromium).
  warnings.push(...lengthWarnings(pages, remember));
  for (const pub of site.publications) {
    warnings.push(...frontMatterSlips(pub));
    warnings.push(...settingWarnings(pub, rendered.get(pub.slug) ?? [], sources.get(pub.slug)!.settingsFile));
  }
  return uniqueProblems(warnings);
}

/** A setting that changes nothing on paper (setting-effects.ts), named in the file that defines it. */
function settingWarnings(pub: PublicationSource, pages: RenderedEdition[], file: string): ContentProblem[] {
  return inertSettings(pub.fields, pages).map(({ field, why }) => {
    const read = field.type === "text" ? `{{ config.${field.name} }}` : `{% if config.${field.name} == "…" %}`;
    return {
      file,
      field: `config.fields: ${field.name}`,
      problem: `the setting \`${field.name}\` changes nothing: ${why}`,
      fix:
        `have an edition read it (${read}), ` +
        "check that the editions spell its name as publication.json does, or remove the setting",
    };
  });
}

/** Warnings are printed; with `npm run build -- --strict` they fail the build. */
function reportWarnings(warnings: ContentProblem[], strict: boolean) {
  if (!warnings.length) return;
  if (strict) throw new ContentError(warnings);
  console.warn(formatWarnings(warnings));
}

/**
 * Tells the functions which publication answers at the site root, and puts its
 * static files there; records the address the site was built for, and the
 * publications that print no end slip.
 */
async function writeSiteIndex(site: Site, output: string, url: string) {
  const quiet = site.publications.filter((p) => p.end_notice === false).map((p) => p.slug);
  const index: SiteIndex = {
    ...(site.root ? { root: site.root } : {}),
    ...(site.printKeyOrigins ? { printKeyOrigins: site.printKeyOrigins } : {}),
    ...(site.maxSubscriptions !== undefined ? { maxSubscriptions: site.maxSubscriptions } : {}),
    ...(quiet.length ? { noEndNotice: quiet } : {}),
    url,
  };
  await mkdir(path.join(output, DATA_DIR), { recursive: true }); // a site of no publications yet has no other data
  await writeFile(path.join(output, DATA_DIR, SITE_INDEX), JSON.stringify(index));
  if (!site.root) return;
  for (const file of ["meta.json", "icon.png"])
    await copyFile(path.join(output, site.root, file), path.join(output, file));
}
