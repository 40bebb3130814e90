// One publication's print preview, edition by edition: each edition fetched
// with every subscriber's settings, identical pages rendered once (in the
// run's, across publications), and the rows, strips and sheets gathered in the
// editions' order. Renders take turns, one PhantomJS a core, while later
// editions are fetched and started ahead of the one whose rows are written.
import { createHash } from "node:crypto";
import path from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import { plural } from "../../lib/model/words.ts";
import { contactSheet, type Strip } from "./contact-sheet.ts";
import { copyIntoSite, writePublicationPreview, type Rendered, type VariantSheet } from "./output.ts";
import type { PhantomRenderer, PhantomRender } from "./phantom.ts";
import { printImage } from "./print-image.ts";
import { lacksOf } from "./qtwebkit.ts";
import { MAX_HEIGHT, RenderError, rendersAtOnce, seconds } from "./render.ts";
import { subscriberSettings, type Settings } from "./settings.ts";
import { siriusPage } from "./sirius-page.ts";
import type { PreviewIndex, SummaryRow } from "./summary.ts";
import { editionUrl, printHeader, type Target } from "./targets.ts";

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

/**
 * One render of a distinct page (by the hash of the page the browser opens),
 * shared by every edition and setting that gives it, with what in it sirius's browser lacks (qtwebkit.ts).
 */
type PageRender = Promise<{ render: PhantomRender; print: Promise<Buffer>; lacks: string[] } | { error: string }>;

/** How one publication is previewed, and what the run shares. */
export interface PublicationRun {
  site: string;
  out: string;
  progress: (line: string) => void;
  partial: boolean;
  now: Date;
  state: RunState;
}

/** What a run shares between publications: the pages already rendered, and the turns to render in. */
export interface RunState {
  pages: Map<string, PageRender>;
  /** Renders run at most this many at once (a PhantomJS each, one core's work). */
  turns: LimitFunction;
  /** Whether a page that ran out of time is tried again (tryAgainLater); no longer once a second try did too. */
  tryLateAgain: boolean;
  progress: (line: string) => void;
}

/** Renders at once: one PhantomJS a core (rendersAtOnce). */
const RENDERS_AT_ONCE = rendersAtOnce();
/** Editions fetched and started ahead of the one whose rows are written (the rows keep the editions' order). */
const EDITIONS_AHEAD = 2 * RENDERS_AT_ONCE;

/** One edition's pages, fetched with every subscriber's settings, their renders started. */
interface EditionPages {
  key: string;
  /** The settings whose page could not be fetched, and why. */
  unfetched: { label: string | undefined; message: string }[];
  /** The distinct pages (by hash), each with the settings that give it and its render. */
  pages: Map<string, { settings: Settings[]; job: PageRender }>;
}

export async function previewPublication(
  renderer: PhantomRenderer,
  base: string,
  target: Target,
  o: PublicationRun,
  result: PreviewResult,
): Promise<PublicationPreview> {
  const settings = subscriberSettings(target.fields);
  const some = settings.length > 1 ? `, ${plural(settings.length, "setting")}` : "";
  const collected: Collected = { rendered: [], sheets: [], distinct: new Set(), variants: 0 };
  // Later editions are fetched and rendered while an earlier one's rows are written, in turns (RunState).
  const started = new Map<number, Promise<EditionPages>>();
  const start = (i: number) => {
    if (started.has(i)) return;
    const pages = editionPages(renderer, base, target, target.keys[i]!, settings, o, result);
    pages.catch(() => undefined); // awaited in its turn; not an unhandled rejection if an earlier one throws first
    started.set(i, pages);
  };
  for (const [i, key] of target.keys.entries()) {
    for (let j = i; j < Math.min(i + EDITIONS_AHEAD, target.keys.length); j++) start(j);
    o.progress(`${target.slug} ${i + 1}/${target.keys.length} (edition ${key}${some})`);
    const edition = await started.get(i)!;
    started.delete(i);
    await collectEdition(edition, target, o, result, collected);
  }
  result.variants += collected.variants;
  result.pages += collected.distinct.size;
  const dir = path.join(o.out, target.slug);
  const index = await writePublicationPreview(
    dir,
    await Promise.all(collected.rendered),
    target.allKeys,
    o.partial,
    await Promise.all(collected.sheets),
  );
  const copiedTo = index ? await copyIntoSite(dir, o.site, target.slug) : undefined;
  return {
    slug: target.slug,
    dir,
    variants: collected.variants,
    pages: collected.distinct.size,
    ...(index ? { index } : {}),
    ...(copiedTo ? { copiedTo } : {}),
  };
}

/** Fetches edition `key` with each of `settings`; identical pages are rendered once, in the run's turns. */
async function editionPages(
  renderer: PhantomRenderer,
  base: string,
  target: Target,
  key: string,
  settings: Settings[],
  o: PublicationRun,
  result: PreviewResult,
): Promise<EditionPages> {
  const header = printHeader(target, key, o.now);
  const named = target.fields.length > 0;
  const edition: EditionPages = { key, unfetched: [], pages: new Map() };
  for (const s of settings) {
    let printed: string;
    try {
      printed = siriusPage(await renderer.fetch(editionUrl(base, target.slug, target.by, key, s.values)), header);
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      edition.unfetched.push({ label: named ? s.label : undefined, message: `the page ${error.message}; skipped` });
      continue;
    }
    const hash = createHash("sha256").update(printed).digest("hex");
    const same = edition.pages.get(hash);
    if (same) same.settings.push(s);
    else edition.pages.set(hash, { settings: [s], job: pageRender(renderer, hash, printed, o.state, result) });
  }
  return edition;
}

/** The render of a distinct page: the run's own if another edition or publication gave the same page. */
function pageRender(
  renderer: PhantomRenderer,
  hash: string,
  printed: string,
  state: RunState,
  result: PreviewResult,
): PageRender {
  const known = state.pages.get(hash);
  if (known) return known;
  result.rendered++;
  const job = state
    .turns(() => renderer.renderPage(printed))
    .catch((error: unknown) => tryAgainLater(error, renderer, printed, state))
    .then(
      (render) => {
        const print = printImage(render.png);
        print.catch(() => undefined); // awaited below; not an unhandled rejection if a later render throws first
        return { render, print, lacks: lacksOf(printed, render.errors) };
      },
      (error: unknown) => {
        if (!(error instanceof RenderError)) throw error;
        return { error: `the page ${error.message}; skipped` };
      },
    );
  job.catch(() => undefined); // awaited in its edition's turn
  state.pages.set(hash, job);
  return job;
}

/**
 * A page that ran out of time, rendered once more with twice the time, in a later turn: a busy machine (a build, a
 * CPU-bound process beside) slowed PhantomJS tenfold in a test run, and a page is not failed for that. Once a second
 * try runs out of time too, the page is slow by itself, and no other page is tried again (each would cost thrice).
 */
async function tryAgainLater(
  error: unknown,
  renderer: PhantomRenderer,
  printed: string,
  state: RunState,
): Promise<PhantomRender> {
  if (!(error instanceof RenderError && error.timedOut && state.tryLateAgain)) throw error;
  const longer = 2 * renderer.timeoutMs;
  // Decided within the turn: the next turn starts as soon as this one ends.
  return state.turns(async () => {
    if (!state.tryLateAgain) throw error; // another page's second try ran out of time while this one waited
    state.progress(`a page ${error.message}; trying it again with ${seconds(longer)}`);
    try {
      return await renderer.renderPage(printed, {}, longer);
    } catch (again) {
      if (!(again instanceof RenderError && again.timedOut)) throw again;
      state.tryLateAgain = false;
      throw new RenderError(`${error.message}, nor in ${seconds(longer)} when tried again`);
    }
  });
}

/** What a publication's preview gathers, edition by edition. */
interface Collected {
  rendered: Promise<Rendered>[];
  sheets: Promise<VariantSheet>[];
  distinct: Set<string>;
  variants: number;
}

/** One edition's rows, in the order of its settings, and its strips and sheet, once its renders are done. */
async function collectEdition(
  edition: EditionPages,
  target: Target,
  o: PublicationRun,
  result: PreviewResult,
  c: Collected,
): Promise<void> {
  const { key } = edition;
  for (const u of edition.unfetched) failed(result, o, target.slug, key, u.label, u.message);
  const named = target.fields.length > 0;
  const strips: Promise<Strip | undefined>[] = [];
  for (const [hash, { settings, job }] of edition.pages) {
    c.distinct.add(hash);
    c.variants += settings.length;
    const done = await job;
    const [first, ...others] = settings as [Settings, ...Settings[]];
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
    if (first.defaults) c.rendered.push(print.then((png) => ({ key, png, heightPx: render.heightPx })));
    strips.push(print.then((png) => ({ key: first.label, png, height: Math.min(render.heightPx, MAX_HEIGHT) })));
  }
  // An edition whose settings give more than one page gets a sheet of them side by side, made (by sharp,
  // off this thread) as soon as its pages are printed, while PhantomJS renders the next editions.
  if (edition.pages.size > 1) {
    const sheet = Promise.all(strips).then(async (s) => {
      const ready = s.filter((x) => x !== undefined);
      return { key, strips: ready, ...(ready.length && { png: await contactSheet(ready) }) };
    });
    sheet.catch(() => undefined); // awaited below; not an unhandled rejection if a later render throws first
    c.sheets.push(sheet);
  }
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

/** A run's result before its first publication. */
export function emptyResult(): PreviewResult {
  return { publications: [], rows: [], failures: 0, variants: 0, pages: 0, rendered: 0, readmeFiles: [] };
}

/** A run's shared state: no page rendered yet, the turns its renders take, and where it says what it does. */
export function runState(progress: (line: string) => void): RunState {
  return { pages: new Map(), turns: pLimit(RENDERS_AT_ONCE), tryLateAgain: true, progress };
}
