// The print preview: builds the site (unless told not to), serves it on a free
// local port, renders each chosen edition as sirius does (PhantomJS, sirius's
// browser: phantom.ts) at the paper's width, reduces it to black and white as
// the printer does, and writes the preview folders. The server, the renderer,
// and Chromium (only for --readme's desk screenshot) unless the caller lent
// one, are closed on every path.
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { CHROMIUM } from "../browser.ts";
import { startServer } from "../../lib/server/server.ts";
import { firstLine, PreviewError } from "./errors.ts";
import { chromiumMissing, readmeImages, renderEdition } from "./readme.ts";
import { PHANTOM_TIMEOUT_MS, PhantomRenderer } from "./phantom.ts";
import {
  emptyResult,
  previewPublication,
  runState,
  type PreviewResult,
  type PublicationRun,
} from "./publication-preview.ts";
import type { Site } from "../../lib/build/site.ts";
import { builtPublications, chooseTargets, publicationsOf, readPublications, type Target } from "./targets.ts";
import { nothingToBuild, starterContent } from "../../lib/build/eleventy-config-file.ts";

export type { PreviewResult, PublicationPreview } from "./publication-preview.ts";

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
  const result = emptyResult();
  const state = runState(o.progress);
  for (const target of targets)
    result.publications.push(await previewPublication(renderer, base, target, { ...o, state }, result));
  return result;
}

async function buildSite(content: string | undefined, output: string, progress: (line: string) => void) {
  progress(`building ${output}/ from ${content === undefined ? "the project's Eleventy config" : `${content}/`}`);
  const { build, describeBuildError } = await import("../../lib/build/build.ts"); // Eleventy loads only when building
  return build({ ...(content !== undefined && { content }), output }).catch((error: unknown) => {
    throw new PreviewError(describeBuildError(error));
  });
}
