// The littlepress build plugin: checks the content, tells Eleventy to render
// every edition once per variant, and after the build writes each
// publication's meta.json and manifest. The rules themselves live in lib/.
import { readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ContentError, formatWarnings, uniqueProblems, type ContentProblem } from "../lib/content-error.ts";
import { deskPublication } from "../lib/desk.ts";
import { makeIcon } from "../lib/icon.ts";
import { encodeShard, packPublication, SHARD_EXTENSION, type RenderedEdition } from "../lib/manifest.ts";
import { descriptionWarnings, PrintChecker } from "../lib/print-checks.ts";
import { processImages, siteUrl } from "./edition-images.ts";
import { metaJson } from "../lib/meta.ts";
import { DATA_DIR, SITE_INDEX, type SiteIndex } from "../lib/site-paths.ts";
import { loadSite, type PublicationSource, type Site } from "../lib/site.ts";
import { slotToken } from "../lib/text-slots.ts";
import { MAX_VARIANTS, variantCount, variantsOf, type Variant } from "../lib/variants.ts";

interface EditionPage {
  pub: PublicationSource;
  key: string;
  /** Which of the publication's variants this page renders. */
  variant: Variant;
  variantIndex: number;
  /** What the template sees as `config`: choice values, and slot markers for text. */
  config: Record<string, string>;
  /** The edition's Markdown, as lib/site.ts read it. */
  text: string;
}

// Eleventy's config object is untyped here on purpose: the plugin uses a handful of documented calls.
type EleventyConfig = any;

export default function littlepress(eleventyConfig: EleventyConfig, options: { content: string }) {
  const site = loadSite(options.content);
  const pages = editionPages(site.publications);

  eleventyConfig.addBundle("css");
  eleventyConfig.addFilter("littlepressPublication", (inputPath: string) => pages.get(normal(inputPath))?.pub);

  // Every edition is handed to Eleventy as a virtual template per variant, with
  // its own data: the text read once here, no data computed per page. (Not
  // pagination: Eleventy looks paginated templates up one by one, which grows
  // with the square of their number.)
  eleventyConfig.ignores.add(`${options.content}/*/editions/**/*.md`);
  for (const [file, page] of pages) {
    eleventyConfig.addTemplate(path.relative(options.content, file), page.text, {
      layout: "edition.njk",
      config: page.config,
      // One folder per publication: a folder per edition would cost a mkdir each.
      permalink: `/${DATA_DIR}/${page.pub.slug}/editions/${page.key}.${page.variantIndex}.html`,
    });
  }

  addDesk(eleventyConfig, site);

  // Images in editions: fitted to the paper, greyscale, absolute URLs.
  let assumedUrl: string | undefined;
  eleventyConfig.addTransform("littlepress-images", async function (this: { page: { inputPath: string } }, html: string) {
    const page = pages.get(normal(this.page.inputPath));
    if (!page) return html;
    const url = siteUrl({ publication: page.pub.url, site: site.url });
    if (url.assumed && html.includes("<img")) assumedUrl = url.url;
    return processImages(html, { source: sourceOf(normal(this.page.inputPath)), publicationDir: path.join(options.content, page.pub.slug), slug: page.pub.slug, siteUrl: url.url, output: eleventyConfig.directories.output });
  });

  eleventyConfig.on("eleventy.after", async ({ results, directories }: { results: { inputPath: string; outputPath: string | false; content: string }[]; directories: { output: string } }) => {
    const warnings = printChecks(site, pages, results, options.content);
    if (assumedUrl) warnings.push({ file: path.join(options.content, "site.json"), field: "url", problem: `not set: image URLs point at ${assumedUrl}, which only works on this machine`, fix: 'add "url": "https://<your site>" (Netlify builds use the site\'s URL by themselves)' });
    reportWarnings(warnings);
    await writePublications(site.publications, pages, results, directories.output);
    await writeSiteIndex(site, directories.output);
  });
}

/**
 * The desk: the site's own pages, where authors see their publications as the
 * platform will (home at /, one page per publication at /<slug>/).
 */
function addDesk(eleventyConfig: EleventyConfig, site: Site) {
  const desk = site.publications.map((p) => deskPublication(p, site.root));
  const template = (name: string) => readFileSync(path.join("layouts", "desk", name), "utf8");
  // Desk pages set their own layout and permalink over the editions' global ones.
  const own = { layout: false, eleventyExcludeFromCollections: true };
  eleventyConfig.addTemplate("_desk/home.njk", template("home.njk"), { ...own, desk, permalink: "/index.html" });
  eleventyConfig.addTemplate("_desk/publication.njk", template("publication.njk"), {
    ...own,
    desk,
    pagination: { data: "desk", size: 1, alias: "pub" },
    eleventyComputed: { permalink: (data: { pub: { slug: string } }) => `/${data.pub.slug}/index.html` },
  });
  eleventyConfig.addPassthroughCopy({ "layouts/desk/assets": "_desk" });
  // Print previews made by `npm run preview` (preview/<slug>/), shown on each publication's page.
  for (const pub of site.publications) eleventyConfig.addPassthroughCopy({ [`preview/${pub.slug}`]: `${pub.slug}/preview` });
}

function editionPages(publications: PublicationSource[]): Map<string, EditionPage> {
  const pages = new Map<string, EditionPage>();
  const problems = [];
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
    const slots = Object.fromEntries(pub.fields.filter((f) => f.type === "text").map((f) => [f.name, slotToken(f.name)]));
    variantsOf(pub.fields).forEach((variant, variantIndex) => {
      const config = { ...variant.values, ...slots };
      for (const e of pub.editions.list) pages.set(variantFile(normal(e.file), variantIndex), { pub, key: e.key, variant, variantIndex, config, text: e.text });
    });
  }
  if (problems.length) throw new ContentError(problems);
  return pages;
}

async function writePublications(
  publications: PublicationSource[],
  pages: Map<string, EditionPage>,
  results: { inputPath: string; outputPath: string | false; content: string }[],
  output: string,
) {
  const renders = new Map<string, RenderedEdition[]>(publications.map((p) => [p.slug, []]));
  for (const r of results) {
    const page = pages.get(normal(r.inputPath));
    if (!page || !r.outputPath) continue;
    renders.get(page.pub.slug)!.push({ source: sourceOf(normal(r.inputPath)), key: page.key, variant: page.variant, html: r.content });
  }
  for (const pub of publications) {
    const dataDir = path.join(output, DATA_DIR, pub.slug);
    // Eleventy renders in parallel: order by variant, so the shards are the same every build.
    const sorted = renders.get(pub.slug)!.sort((a, b) => (a.variant.id < b.variant.id ? -1 : a.variant.id > b.variant.id ? 1 : 0));
    const { index, shards } = packPublication(pub, sorted);
    // The pages Eleventy wrote one by one are now packed into the shards.
    await rm(path.join(dataDir, "editions"), { recursive: true, force: true });
    await mkdir(path.join(dataDir, "shards"), { recursive: true });
    await Promise.all([...shards].map(([id, shard]) => writeFile(path.join(dataDir, "shards", `${id}${SHARD_EXTENSION}`), encodeShard(shard))));
    await writeFile(path.join(dataDir, "index.json"), JSON.stringify(index));
    await mkdir(path.join(output, pub.slug), { recursive: true });
    await writeFile(path.join(output, pub.slug, "meta.json"), JSON.stringify(metaJson(pub), null, 2) + "\n");
    await writeFile(path.join(output, pub.slug, "icon.png"), await makeIcon(pub.iconFile ? await readFile(pub.iconFile) : undefined));
  }
}

/** Print checks on every rendered edition (once per file) and on each description. */
function printChecks(site: Site, pages: Map<string, EditionPage>, results: { inputPath: string; content: string }[], content: string): ContentProblem[] {
  const warnings: ContentProblem[] = site.publications.flatMap((p) => descriptionWarnings(p.description, path.join(content, p.slug, "publication.json")));
  const checker = new PrintChecker();
  for (const r of results) {
    const file = normal(r.inputPath);
    if (pages.has(file)) warnings.push(...checker.check(r.content, sourceOf(file)));
  }
  return uniqueProblems(warnings);
}

/** Warnings are printed; with `npm run build -- --strict` they fail the build. */
function reportWarnings(warnings: ContentProblem[]) {
  if (!warnings.length) return;
  if (process.env.LITTLEPRESS_STRICT === "1") throw new ContentError(warnings);
  console.warn(formatWarnings(warnings));
}

/** Tells the functions which publication answers at the site root, and puts its static files there. */
async function writeSiteIndex(site: Site, output: string) {
  const index: SiteIndex = site.root ? { root: site.root } : {};
  await writeFile(path.join(output, DATA_DIR, SITE_INDEX), JSON.stringify(index));
  if (!site.root) return;
  for (const file of ["meta.json", "icon.png"]) await copyFile(path.join(output, site.root, file), path.join(output, file));
}

/** The virtual copy of an edition file for a further variant: `part-1.md` -> `part-1~variant-2.md`. */
const variantFile = (file: string, index: number) => (index === 0 ? file : file.replace(/\.md$/, `~variant-${index}.md`));
/** The author's file behind an edition page. */
const sourceOf = (file: string) => file.replace(/~variant-\d+\.md$/, ".md");

/** Eleventy writes "./content/x.md", lib/ "content/x.md" or an absolute path: one form for both. */
const normal = (p: string) => path.relative(process.cwd(), path.resolve(p));
