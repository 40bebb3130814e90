// The print preview: builds the site (unless told not to), serves it on a free
// local port, renders each chosen edition in headless Chromium at the paper's
// width, reduces it to black and white as the printer does, and writes the
// preview folders. The browser and the server are closed on every path.
import { existsSync } from "node:fs";
import path from "node:path";
import { CHROMIUM, launchChromium } from "../browser.ts";
import { startServer } from "../../lib/serve/server.ts";
import { firstLine, PreviewError } from "./errors.ts";
import { copyIntoSite, writePublicationPreview, type Rendered } from "./output.ts";
import { writeReadmeImages } from "./readme.ts";
import { PAGE_TIMEOUT_MS, PaperRenderer, RenderError } from "./render.ts";
import type { PreviewIndex, SummaryRow } from "./summary.ts";
import { printImage } from "./print-image.ts";
import { chooseTargets, editionUrl, printHeader, readPublications, type Target } from "./targets.ts";

export interface PreviewOptions {
  /** Publications to preview; all when empty. */
  slugs?: string[];
  /** Only this edition key. */
  edition?: string;
  /** The publications (default content): which editions there are. */
  content?: string;
  /** The site built from `content`, which is served (default _site). */
  site?: string;
  /** Build `content` into `site` first (default: true). */
  build?: boolean;
  /** Where the preview folders go (default preview). */
  out?: string;
  /** Also write docs/desk.png and docs/preview-strip.png. */
  readme?: boolean;
  docsDir?: string;
  timeoutMs?: number;
  /** When numbered editions are shown as sent, in sirius's header line (default: now). */
  now?: Date;
  /** One line of progress at a time (the CLI writes them to stderr). */
  progress?: (line: string) => void;
}

export interface PublicationPreview {
  slug: string;
  /** The preview folder, preview/<slug>. */
  dir: string;
  /** What was written to index.json; undefined when no edition could be rendered. */
  index?: PreviewIndex;
  /** Where the folder was copied inside the built site, if it was. */
  copiedTo?: string;
}

export interface PreviewResult {
  publications: PublicationPreview[];
  /** One row per edition, for the summary table. */
  rows: SummaryRow[];
  /** Editions that could not be rendered. */
  failures: number;
  readmeFiles: string[];
}

/** The README's strip: the first edition of this publication. */
const README_PUBLICATION = "lighthouse";

export async function preview(options: PreviewOptions = {}): Promise<PreviewResult> {
  const site = options.site ?? "_site";
  const out = options.out ?? "preview";
  const timeoutMs = options.timeoutMs ?? PAGE_TIMEOUT_MS;
  const progress = options.progress ?? (() => undefined);
  const content = options.content ?? "content";
  if (options.build ?? true) await buildSite(content, site, progress);
  const publications = readPublications(content);
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
    const browser = await launchChromium().catch((error: unknown) => {
      throw new PreviewError(chromiumMissing(`Chromium at ${CHROMIUM} did not start (${firstLine(error)})`));
    });
    try {
      const renderer = await PaperRenderer.open(browser, { dir: site, url: server.url }, timeoutMs);
      try {
        const result: PreviewResult = { publications: [], rows: [], failures: 0, readmeFiles: [] };
        for (const target of targets)
          result.publications.push(
            await previewPublication(renderer, server.url, target, { site, out, progress, partial, now }, result),
          );
        if (options.readme) {
          const first = { slug: README_PUBLICATION, ...readmePublication! };
          const strip = await renderEdition(renderer, server.url, first, readmeKey!, now).catch((error: unknown) => {
            throw new PreviewError(`the README strip (${README_PUBLICATION} ${readmeKey}) ${firstLine(error)}`);
          });
          result.readmeFiles = await writeReadmeImages(
            browser,
            server.url,
            options.docsDir ?? "docs",
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
      await browser.close();
    }
  } finally {
    await server.close();
  }
}

async function previewPublication(
  renderer: PaperRenderer,
  base: string,
  target: Target,
  o: { site: string; out: string; progress: (line: string) => void; partial: boolean; now: Date },
  result: PreviewResult,
): Promise<PublicationPreview> {
  // Each screenshot is made black and white while the browser renders the next page.
  const conversions: Promise<Rendered>[] = [];
  for (const [i, key] of target.keys.entries()) {
    o.progress(`${target.slug} ${i + 1}/${target.keys.length} (edition ${key})`);
    try {
      const render = await renderer.render(
        editionUrl(base, target.slug, target.by, key),
        printHeader(target, key, o.now),
      );
      const conversion = printImage(render.png).then((png) => ({ key, png, heightPx: render.heightPx }));
      conversion.catch(() => undefined); // awaited below; not an unhandled rejection if a later render throws first
      conversions.push(conversion);
      result.rows.push({
        slug: target.slug,
        key,
        heightPx: render.heightPx,
        wider: render.wider,
        blocked: render.blocked,
        relative: render.relative,
      });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      const message = `the page ${error.message}; skipped`;
      o.progress(`${target.slug} ${key}: ${message}`);
      result.rows.push({ slug: target.slug, key, error: message });
      result.failures++;
    }
  }
  const rendered = await Promise.all(conversions);
  const dir = path.join(o.out, target.slug);
  const index = await writePublicationPreview(dir, rendered, target.allKeys, o.partial);
  const copiedTo = index ? await copyIntoSite(dir, o.site, target.slug) : undefined;
  return { slug: target.slug, dir, ...(index ? { index } : {}), ...(copiedTo ? { copiedTo } : {}) };
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

async function buildSite(content: string, output: string, progress: (line: string) => void): Promise<void> {
  progress(`building ${output}/ from ${content}/`);
  const { build, describeBuildError } = await import("../../lib/build/build.ts"); // Eleventy loads only when building
  await build({ content, output }).catch((error: unknown) => {
    throw new PreviewError(describeBuildError(error));
  });
}

const chromiumMissing = (what: string) =>
  `${what}. Install it with \`apt-get install chromium\` (or set CHROMIUM_PATH to a Chromium binary).`;
