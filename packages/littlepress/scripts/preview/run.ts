// The print preview: builds the site (unless told not to), serves it on a free
// local port, renders each chosen edition in headless Chromium at the paper's
// width, reduces it to black and white as the printer does, and writes the
// preview folders. The server, and the browser unless the caller lent one,
// are closed on every path.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { CHROMIUM, launchChromium } from "../browser.ts";
import { startServer } from "../../lib/server/server.ts";
import { firstLine, PreviewError } from "./errors.ts";
import { contactSheet, type Strip } from "./contact-sheet.ts";
import { copyIntoSite, writePublicationPreview, type Rendered, type VariantSheet } from "./output.ts";
import { writeReadmeImages } from "./readme.ts";
import { MAX_HEIGHT, PAGE_TIMEOUT_MS, PaperRenderer, RenderError, type Render } from "./render.ts";
import { subscriberSettings, type Settings } from "./settings.ts";
import { siriusPage } from "./sirius-page.ts";
import { plural } from "../../lib/model/words.ts";
import type { Site } from "../../lib/build/site.ts";
import { packageFile } from "../../lib/build/package-files.ts";
import type { PreviewIndex, SummaryRow } from "./summary.ts";
import { printImage } from "./print-image.ts";
import {
  builtPublications,
  chooseTargets,
  editionUrl,
  printHeader,
  publicationsOf,
  readPublications,
  type Target,
} from "./targets.ts";
import { nothingToBuild, starterContent } from "../../lib/build/eleventy-config-file.ts";

export interface PreviewOptions {
  /** Publications to preview; all when empty. */
  slugs?: string[];
  /** Only this edition key. */
  edition?: string;
  /**
   * The publications (default: the starter's content/; without one, the
   * project's own Eleventy config, as a blog's posts are built): which editions there are.
   */
  content?: string;
  /** The site built from `content`, which is served (default _site). */
  site?: string;
  /** Build `content` into `site` first (default: true). */
  build?: boolean;
  /** The publications that build read, when the caller built the site (verify). */
  built?: Site;
  /** Where the preview folders go (default preview). */
  out?: string;
  /** Also write the package's docs/desk.png and docs/preview-strip.png (a contributor's flag). */
  readme?: boolean;
  docsDir?: string;
  timeoutMs?: number;
  /** When numbered editions are shown as sent, in sirius's header line (default: now). */
  now?: Date;
  /** One line of progress at a time (the CLI writes them to stderr). */
  progress?: (line: string) => void;
  /** A Chromium to render in, left open (default: one started for this preview, and closed). */
  browser?: Browser;
}

export interface PublicationPreview {
  slug: string;
  /** The preview folder, preview/<slug>. */
  dir: string;
  /** What was written to index.json; undefined when no edition could be rendered. */
  index?: PreviewIndex;
  /** Where the folder was copied inside the built site, if it was. */
  copiedTo?: string;
  /** Pages fetched: every edition with every subscriber's settings (subscriberSettings). */
  variants: number;
  /** How many of them were distinct pages. */
  pages: number;
}

export interface PreviewResult {
  publications: PublicationPreview[];
  /** One row per edition and distinct page of its settings, for the summary table. */
  rows: SummaryRow[];
  /** Editions (or settings of one) that could not be rendered. */
  failures: number;
  /** Editions fetched with every set of settings a subscriber can have, over all publications. */
  variants: number;
  /** The distinct pages among them (each publication's counted on its own). */
  pages: number;
  /** Pages rendered in Chromium: identical pages are rendered once. */
  rendered: number;
  readmeFiles: string[];
}

/** The README's strip: the first edition of this publication. */
const README_PUBLICATION = "lighthouse";

export async function preview(options: PreviewOptions = {}): Promise<PreviewResult> {
  const site = options.site ?? "_site";
  const out = options.out ?? "preview";
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  const progress = options.progress ?? (() => undefined);
  const content = options.content ?? starterContent();
  const build = options.build !== false;
  const nothing = build && content === undefined ? nothingToBuild() : undefined;
  if (nothing) throw new PreviewError(nothing);
  const built = build ? await buildSite(content, site, progress) : options.built;
  // Without a build: the content's publications, or (a site built by its own config) the built site's.
  const publications = built
    ? publicationsOf(built)
    : content !== undefined
      ? readPublications(content)
      : await builtPublications(site);
  const targets = chooseTargets(publications, options.slugs ?? [], options.edition);
  const readmePublication = publications.get(README_PUBLICATION);
  const readmeKey = readmePublication?.keys[0];
  if (options.readme && readmeKey === undefined)
    throw new PreviewError(
      `--readme shows the first edition of "${README_PUBLICATION}", which this site does not have`,
      true,
    );
  if (!existsSync(CHROMIUM)) throw new PreviewError(chromiumMissing(`there is no Chromium at ${CHROMIUM}`));

  const now = options.now ?? new Date();
  const partial = options.edition !== undefined;
  const server = await startServer({ port: 0, siteDir: site });
  try {
    const browser =
      options.browser ??
      (await launchChromium().catch((error: unknown) => {
        throw new PreviewError(chromiumMissing(`Chromium at ${CHROMIUM} did not start (${firstLine(error)})`));
      }));
    try {
      const renderer = await PaperRenderer.open(browser, { dir: site, url: server.url }, timeoutMs);
      try {
        const result: PreviewResult = {
          publications: [],
          rows: [],
          failures: 0,
          variants: 0,
          pages: 0,
          rendered: 0,
          readmeFiles: [],
        };
        const state: RunState = { pages: new Map() };
        for (const target of targets)
          result.publications.push(
            await previewPublication(
              renderer,
              server.url,
              target,
              { site, out, progress, partial, now, state },
              result,
            ),
          );
        if (options.readme) {
          const first = { slug: README_PUBLICATION, ...readmePublication! };
          const strip = await renderEdition(renderer, server.url, first, readmeKey!, now).catch((error: unknown) => {
            throw new PreviewError(`the README strip (${README_PUBLICATION} ${readmeKey}) ${firstLine(error)}`);
          });
          result.readmeFiles = await writeReadmeImages(
            browser,
            server.url,
            options.docsDir ?? packageFile("docs"),
            strip.png,
            timeoutMs,
          ).catch((error: unknown) => {
            throw new PreviewError(`the desk screenshot for the README failed: ${firstLine(error)}`);
          });
        }
        return result;
      } finally {
        await renderer.close();
      }
    } finally {
      if (!options.browser) await browser.close();
    }
  } finally {
    await server.close();
  }
}

/**
 * One render of a distinct page (by the hash of the page Chromium opens),
 * shared by every edition and setting that gives it.
 */
type PageRender = Promise<{ render: Render; print: Promise<Buffer> } | { error: string }>;

/** What a run shares between publications: the pages already rendered. */
export interface RunState {
  pages: Map<string, PageRender>;
}

async function previewPublication(
  renderer: PaperRenderer,
  base: string,
  target: Target,
  o: { site: string; out: string; progress: (line: string) => void; partial: boolean; now: Date; state: RunState },
  result: PreviewResult,
): Promise<PublicationPreview> {
  const settings = subscriberSettings(target.fields);
  const named = target.fields.length > 0;
  const rendered: Promise<Rendered>[] = [];
  const sheets: Promise<VariantSheet>[] = [];
  const distinct = new Set<string>();
  let variants = 0;
  for (const [i, key] of target.keys.entries()) {
    const some = settings.length > 1 ? `, ${plural(settings.length, "setting")}` : "";
    o.progress(`${target.slug} ${i + 1}/${target.keys.length} (edition ${key}${some})`);
    const header = printHeader(target, key, o.now);
    // The page each subscriber gets, filled with their settings; identical pages are rendered once.
    const pages = new Map<string, { printed: string; settings: Settings[] }>();
    for (const s of settings) {
      let printed: string;
      try {
        printed = siriusPage(await renderer.fetch(editionUrl(base, target.slug, target.by, key, s.values)), header);
      } catch (error) {
        if (!(error instanceof RenderError)) throw error;
        failed(result, o, target.slug, key, named ? s.label : undefined, `the page ${error.message}; skipped`);
        continue;
      }
      variants++;
      const hash = createHash("sha256").update(printed).digest("hex");
      const same = pages.get(hash);
      if (same) same.settings.push(s);
      else pages.set(hash, { printed, settings: [s] });
    }
    const strips: Promise<Strip | undefined>[] = [];
    for (const [hash, page] of pages) {
      distinct.add(hash);
      let job = o.state.pages.get(hash);
      if (!job) {
        result.rendered++;
        job = renderer.renderPage(page.printed).then(
          (render) => {
            const print = printImage(render.png);
            print.catch(() => undefined); // awaited below; not an unhandled rejection if a later render throws first
            return { render, print };
          },
          (error: unknown) => {
            if (!(error instanceof RenderError)) throw error;
            return { error: `the page ${error.message}; skipped` };
          },
        );
        o.state.pages.set(hash, job);
      }
      const done = await job;
      const [first, ...others] = page.settings as [Settings, ...Settings[]];
      const label = named ? first.label : undefined;
      if ("error" in done) {
        failed(result, o, target.slug, key, label, done.error, others.length);
        continue;
      }
      const { render, print } = done;
      result.rows.push({
        slug: target.slug,
        key,
        ...(label !== undefined ? { settings: label, others: others.length } : {}),
        heightPx: render.heightPx,
        wider: render.wider,
        blocked: render.blocked,
        relative: render.relative,
      });
      if (first.defaults) rendered.push(print.then((png) => ({ key, png, heightPx: render.heightPx })));
      strips.push(print.then((png) => ({ key: first.label, png, height: Math.min(render.heightPx, MAX_HEIGHT) })));
    }
    // An edition whose settings give more than one page gets a sheet of them side by side, made (by sharp,
    // off this thread) as soon as its pages are printed, while Chromium renders the next editions.
    if (pages.size > 1) {
      const sheet = Promise.all(strips).then(async (s) => {
        const ready = s.filter((x) => x !== undefined);
        return { key, strips: ready, ...(ready.length && { png: await contactSheet(ready) }) };
      });
      sheet.catch(() => undefined); // awaited below; not an unhandled rejection if a later render throws first
      sheets.push(sheet);
    }
  }
  result.variants += variants;
  result.pages += distinct.size;
  const dir = path.join(o.out, target.slug);
  const index = await writePublicationPreview(
    dir,
    await Promise.all(rendered),
    target.allKeys,
    o.partial,
    await Promise.all(sheets),
  );
  const copiedTo = index ? await copyIntoSite(dir, o.site, target.slug) : undefined;
  return {
    slug: target.slug,
    dir,
    variants,
    pages: distinct.size,
    ...(index ? { index } : {}),
    ...(copiedTo ? { copiedTo } : {}),
  };
}

function failed(
  result: PreviewResult,
  o: { progress: (line: string) => void },
  slug: string,
  key: string,
  settings: string | undefined,
  message: string,
  others = 0,
): void {
  o.progress(`${slug} ${key}${settings ? ` (${settings})` : ""}: ${message}`);
  result.rows.push({ slug, key, ...(settings !== undefined ? { settings, others } : {}), error: message });
  result.failures++;
}

/** Renders one edition and makes it black and white as the printer does. */
async function renderEdition(
  renderer: PaperRenderer,
  base: string,
  target: Pick<Target, "slug" | "name" | "by">,
  key: string,
  now: Date,
) {
  const render = await renderer.render(editionUrl(base, target.slug, target.by, key), printHeader(target, key, now));
  return { ...render, png: await printImage(render.png) };
}

async function buildSite(content: string | undefined, output: string, progress: (line: string) => void) {
  progress(`building ${output}/ from ${content === undefined ? "the project's Eleventy config" : `${content}/`}`);
  const { build, describeBuildError } = await import("../../lib/build/build.ts"); // Eleventy loads only when building
  return build({ ...(content !== undefined && { content }), output }).catch((error: unknown) => {
    throw new PreviewError(describeBuildError(error));
  });
}

const chromiumMissing = (what: string) =>
  `${what}. Install it with \`apt-get install chromium\` (or set CHROMIUM_PATH to a Chromium binary).`;
