// The print preview: builds the site (unless told not to), serves it on a free
// local port, renders each chosen edition as sirius does (PhantomJS, sirius's
// browser: phantom.ts) at the paper's width, reduces it to black and white as
// the printer does, and writes the preview folders. The server, the renderer,
// and Chromium (only for --readme's desk screenshot) unless the caller lent
// one, are closed on every path.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { CHROMIUM } from "../browser.ts";
import { startServer } from "../../lib/server/server.ts";
import { firstLine, PreviewError } from "./errors.ts";
import { contactSheet, type Strip } from "./contact-sheet.ts";
import { copyIntoSite, writePublicationPreview, type Rendered, type VariantSheet } from "./output.ts";
import { chromiumMissing, readmeImages, renderEdition } from "./readme.ts";
import { MAX_HEIGHT, RenderError } from "./render.ts";
import { PHANTOM_TIMEOUT_MS, PhantomRenderer, type PhantomRender } from "./phantom.ts";
import { lacksOf } from "./qtwebkit.ts";
import { subscriberSettings, type Settings } from "./settings.ts";
import { siriusPage } from "./sirius-page.ts";
import { plural } from "../../lib/model/words.ts";
import type { Site } from "../../lib/build/site.ts";
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
  /** A Chromium for --readme's desk screenshot, left open (default: one started for it, and closed). */
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
  /** Pages rendered: identical pages are rendered once. */
  rendered: number;
  readmeFiles: string[];
}

/** The README's strip: the first edition of this publication. */
const README_PUBLICATION = "lighthouse";

export async function preview(options: PreviewOptions = {}): Promise<PreviewResult> {
  const site = options.site ?? "_site";
  const out = options.out ?? "preview";
  const timeoutMs = options.timeoutMs ?? PHANTOM_TIMEOUT_MS;
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
  if (options.readme && !existsSync(CHROMIUM))
    throw new PreviewError(chromiumMissing(`there is no Chromium at ${CHROMIUM}`));

  const now = options.now ?? new Date();
  const partial = options.edition !== undefined;
  const server = await startServer({ port: 0, siteDir: site });
  try {
    const renderer = await PhantomRenderer.open({ site: { dir: site, url: server.url }, timeoutMs }).catch(
      (error: unknown) => {
        throw new PreviewError(firstLine(error));
      },
    );
    try {
      const result = await previewAll(renderer, server.url, targets, { site, out, progress, partial, now });
      if (options.readme) {
        const first = { slug: README_PUBLICATION, ...readmePublication! };
        const strip = await renderEdition(renderer, server.url, first, readmeKey!, now).catch((error: unknown) => {
          throw new PreviewError(`the README strip (${README_PUBLICATION} ${readmeKey}) ${firstLine(error)}`);
        });
        result.readmeFiles = await readmeImages(options, server.url, strip.png, timeoutMs);
      }
      return result;
    } finally {
      await renderer.close();
    }
  } finally {
    await server.close();
  }
}

/** Every target's editions, rendered and written to their preview folders. */
async function previewAll(
  renderer: PhantomRenderer,
  base: string,
  targets: Target[],
  o: Omit<PublicationRun, "state">,
): Promise<PreviewResult> {
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
    result.publications.push(await previewPublication(renderer, base, target, { ...o, state }, result));
  return result;
}

/**
 * One render of a distinct page (by the hash of the page the browser opens),
 * shared by every edition and setting that gives it, with what in it sirius's browser lacks (qtwebkit.ts).
 */
type PageRender = Promise<{ render: PhantomRender; print: Promise<Buffer>; lacks: string[] } | { error: string }>;

/** How one publication is previewed, and what the run shares. */
interface PublicationRun {
  site: string;
  out: string;
  progress: (line: string) => void;
  partial: boolean;
  now: Date;
  state: RunState;
}

/** What a run shares between publications: the pages already rendered. */
export interface RunState {
  pages: Map<string, PageRender>;
}

async function previewPublication(
  renderer: PhantomRenderer,
  base: string,
  target: Target,
  o: PublicationRun,
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
            return { render, print, lacks: lacksOf(page.printed, render.errors) };
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
      const { render, print, lacks } = done;
      result.rows.push({
        slug: target.slug,
        key,
        ...(label !== undefined ? { settings: label, others: others.length } : {}),
        heightPx: render.heightPx,
        wider: render.wider,
        blocked: render.blocked,
        relative: render.relative,
        ...(lacks.length ? { lacks, ...(target.files?.[key] ? { file: target.files[key] } : {}) } : {}),
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

async function buildSite(content: string | undefined, output: string, progress: (line: string) => void) {
  progress(`building ${output}/ from ${content === undefined ? "the project's Eleventy config" : `${content}/`}`);
  const { build, describeBuildError } = await import("../../lib/build/build.ts"); // Eleventy loads only when building
  return build({ ...(content !== undefined && { content }), output }).catch((error: unknown) => {
    throw new PreviewError(describeBuildError(error));
  });
}
