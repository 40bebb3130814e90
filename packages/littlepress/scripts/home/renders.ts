// The server's renders of pages into dots: a few at once, in one browser
// context per publication a run, and each distinct page once a run.
//
// A few at once: the printers' jobs run side by side, and a render is work for
// the CPU (Chromium lays the page out and paints it, then the screenshot is
// decoded and dithered here), so a render per core keeps every core busy; more
// than that only take turns on the cores, each holding a page's renderer (its
// memory) the while. Past MAX_AT_ONCE, a larger machine gains little (a
// household's runs are then bounded by the printers' sends) and would hold more
// renderers' memory.
//
// A context per publication a run (RunRenders): a fresh context for every page
// cost twice the CPU of a page rendered in a context already open (664 against
// 327 ms for a short page, here) and four times its time: Chromium starts a
// renderer process for each. The pages of one publication share its context
// for the run, and nothing else does; what one subscriber's page could leave
// there (its storage) another's could read, but it is the same publication,
// which was sent both subscribers' settings anyway. The contexts close with
// the run.
//
// Once a run: the same page (the same HTML from the same publication, under the
// same header, at the same width) prints the same dots, so subscribers of one
// publication with the same settings and hour share one render. What is kept
// for the run is the 1-bit PNG (tens of kB a page, not a byte a dot), which
// gives its dots back exactly (print-image.ts's pngDots).
import { createHash } from "node:crypto";
import pLimit, { type LimitFunction } from "p-limit";
import type { Dots } from "../../lib/model/bilevel.ts";
import type { Page } from "../../lib/platform/printing/print-job.ts";
import {
  renderDots,
  renderPrintable,
  type PageRenderers,
  type PrintablePage,
  type Renderers,
} from "../print/escpos-print.ts";
import { rendersAtOnce, type PaperRenderer, type Render } from "../preview/render.ts";
import { dotsToPng, pngDots } from "../preview/print-image.ts";
import type { PrintHeader } from "../preview/sirius-page.ts";
import { ChromiumOnDemand } from "./chromium-on-demand.ts";

/** A page rendered: its dots as the printer prints them, and the same as a 1-bit PNG (the history's picture). */
export interface Drawn {
  dots: Dots;
  picture: Buffer;
}

/** One set of turns per renderers (the server has one), sized by its first caller. */
const turnsOf = new WeakMap<object, LimitFunction>();

export interface RenderSetting {
  renderers: Renderers | ChromiumOnDemand;
  /** Renders at once (default rendersAtOnce()). */
  rendersAtOnce?: number;
  /** During a run: its contexts and the pages it rendered. */
  run?: { renders: RunRenders };
}

/** `page` rendered at `width` dots under `header`, within the renders' turns; once a run for the same page. */
export function rendered(
  setting: RenderSetting,
  width: number,
  page: Page & { origin: string },
  header: PrintHeader,
): Promise<Drawn> {
  const draw = () => drawn(setting, width, page, header);
  const pictures = setting.run?.renders.pictures;
  if (!pictures) return draw();
  const key = pageKey(width, page, header);
  const earlier = pictures.get(key);
  if (earlier) return earlier.then(async (picture) => ({ dots: await pngDots(picture), picture }));
  const mine = draw();
  // A render that failed is not kept: the next print of that page tries again.
  pictures.set(
    key,
    mine.then((d) => d.picture),
  );
  mine.catch(() => pictures.delete(key));
  return mine;
}

async function drawn(setting: RenderSetting, width: number, page: Page & { origin: string }, header: PrintHeader) {
  const { renderers } = setting;
  let turns = turnsOf.get(renderers);
  if (!turns) turnsOf.set(renderers, (turns = pLimit(setting.rendersAtOnce ?? rendersAtOnce())));
  const html = new TextDecoder().decode(page.bytes);
  const run = setting.run?.renders;
  const draw = (r: Renderers) => renderDots(run?.contexts(r) ?? r, width, { html, origin: page.origin }, header);
  const { dots } = await turns(() => (renderers instanceof ChromiumOnDemand ? renderers.use(draw) : draw(renderers)));
  return { dots, picture: await dotsToPng(dots) };
}

/** What makes two pages print alike. */
function pageKey(width: number, page: Page & { origin: string }, header: PrintHeader): string {
  const hash = createHash("sha256");
  const { from, fromAsSent, timeZone } = header;
  hash.update(JSON.stringify([width, page.origin, from, fromAsSent ?? false, header.at.toISOString(), timeZone ?? ""]));
  hash.update(new Uint8Array(page.bytes));
  return hash.digest("hex");
}

/** One run's renders: its contexts, one per publication and width on each Chromium, and its pages' pictures. */
export class RunRenders {
  /** The pages rendered, as 1-bit PNGs by pageKey. */
  readonly pictures = new Map<string, Promise<Buffer>>();
  private readonly byChromium = new Map<Renderers, PublicationContexts>();

  /** The run's contexts on this Chromium (ChromiumOnDemand starts another after one closed). */
  contexts(renderers: Renderers): PageRenderers {
    let contexts = this.byChromium.get(renderers);
    if (!contexts) this.byChromium.set(renderers, (contexts = new PublicationContexts(renderers)));
    return contexts;
  }

  /** Closes the run's contexts (its pictures go with the run). */
  async close(): Promise<void> {
    await Promise.all([...this.byChromium.values()].map((c) => c.close()));
    this.byChromium.clear();
  }
}

/** Contexts kept open between a run's pages, the least recently used closed past it (each holds a renderer). */
export const IDLE_CONTEXTS = 4;

/** A context for each publication and width, each rendering one page at a time (a second at once opens another). */
class PublicationContexts implements PageRenderers {
  /** Contexts between pages, the most recently used last. */
  private idle: { key: string; renderer: PaperRenderer }[] = [];
  private readonly open = new Set<PaperRenderer>();
  constructor(private readonly renderers: Renderers) {}

  async render(width: number, page: PrintablePage, header: PrintHeader): Promise<Render> {
    const key = `${width} ${String(page.origin ?? "")}`;
    const at = this.idle.findLastIndex((c) => c.key === key);
    const renderer = at >= 0 ? this.idle.splice(at, 1)[0]!.renderer : await this.renderers.open(width);
    this.open.add(renderer);
    try {
      const render = await renderPrintable(renderer, page, header);
      this.idle.push({ key, renderer });
      if (this.idle.length > IDLE_CONTEXTS) await this.shut(this.idle.shift()!.renderer);
      return render;
    } catch (error) {
      // A page that failed (too slow, over its memory, Chromium gone) leaves its context to no other page.
      await this.shut(renderer);
      throw error;
    }
  }

  private async shut(renderer: PaperRenderer): Promise<void> {
    this.open.delete(renderer);
    await renderer.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((r) => r.close()));
    this.open.clear();
    this.idle = [];
  }
}
