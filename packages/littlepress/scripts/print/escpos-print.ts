// One page onto an ESC/POS printer: rendered by the print pipeline (sirius's
// page, Chromium at the printer's width, the crop, PIL's dither: preview/),
// encoded as GS v 0 bands (lib/model/escpos-raster.ts) and sent
// (lib/platform/printers/escpos-send.ts), again whole after a drop. Shared by
// `littlepress print` and `littlepress print-server`.
import type { Browser } from "playwright-core";
import type { Dots } from "../../lib/model/bilevel.ts";
import { BAND_ROWS, encodeJob, type EscPosJob } from "../../lib/model/escpos-raster.ts";
import { sendJob, type Destination, type JobReport } from "../../lib/platform/printers/escpos-send.ts";
import { printDots } from "../preview/print-image.ts";
import { MAX_HEIGHT, PAGE_TIMEOUT_MS, PaperRenderer, type Render } from "../preview/render.ts";
import type { PrintHeader } from "../preview/sirius-page.ts";

/** How a printer prints. */
export interface PrinterSettings {
  to: Destination;
  /** 384 (58 mm) or 576 (80 mm) dots. */
  width: number;
  cut: boolean;
  bandRows?: number;
  /** Tries after the first, and the wait between them. */
  retries?: number;
  retryWaitMs?: number;
  /** Each try's limit, to connect, write and the printer's close (default: jobTimeoutMs of the job's size). */
  timeoutMs?: number;
}

/**
 * Renders pages in one Chromium, each in a renderer of its own (its own browser context: its own storage and
 * pages), closed once the page is rendered. A publication's page can then read nothing another left (its
 * localStorage, its cookies), and a page left spinning is closed with its context instead of holding up the
 * next print (print-server renders other people's pages all day). A context costs tens of milliseconds.
 */
export class Renderers {
  constructor(
    private readonly browser: Browser,
    private readonly timeoutMs = PAGE_TIMEOUT_MS,
    /** The most memory a page may hold, in MiB (render.ts's default unless told). */
    private readonly memoryMiB?: number,
  ) {}

  async render(width: number, page: PrintablePage, header: PrintHeader): Promise<Render> {
    const renderer = await this.open(width);
    try {
      return await renderPrintable(renderer, page, header);
    } finally {
      await renderer.close();
    }
  }

  /** A renderer of its own (a browser context), for a caller that renders several pages of one publication in it. */
  open(width: number): Promise<PaperRenderer> {
    // No site: each page loads its own publication's images, styles and fonts (render.ts).
    return PaperRenderer.open(this.browser, undefined, this.timeoutMs, width, this.memoryMiB);
  }

  /** Nothing is kept between renders: here for the callers that close what they open. */
  async close(): Promise<void> {}
}

export interface Printed {
  dots: Dots;
  job: EscPosJob;
  report: JobReport;
  renderMs: number;
  sendMs: number;
  /** The page's full length in px (the dots stop at MAX_HEIGHT). */
  heightPx: number;
  /** The page is wider than the paper: what lies right of it is not printed. */
  wider: boolean;
  /** What the page asked for and was not let load. */
  blocked: string[];
}

/** A page to print: its HTML, and the publication it came from, whose images, styles and fonts it may load. */
export interface PrintablePage {
  html: string;
  /** The edition's URL (or the publication's): only its origin is asked for what the page links. */
  origin?: URL | string;
}

/** `page` rendered in `renderer` under sirius's header, loading only what its origin allows. */
export const renderPrintable = (renderer: PaperRenderer, page: PrintablePage, header: PrintHeader) =>
  renderer.renderHtml(page.html, header, page.origin ? { origin: page.origin } : {});

/** Whatever renders pages at a width: Renderers (a context a page), or a run's contexts (home/renders.ts). */
export interface PageRenderers {
  render(width: number, page: PrintablePage, header: PrintHeader): Promise<Render>;
}

/** The dots of `page` as the printer prints them, under sirius's header, and the page's full length in px. */
export async function renderDots(
  renderers: PageRenderers,
  width: number,
  page: PrintablePage,
  header: PrintHeader,
): Promise<{ dots: Dots; heightPx: number; wider: boolean; blocked: string[] }> {
  const render = await renderers.render(width, page, header);
  const dots = await printDots(render.png, width);
  return { dots, heightPx: render.heightPx, wider: render.wider, blocked: render.blocked };
}

/** Renders `page` and prints it on `printer`; rejects only with a RenderError (the page would not load). */
export async function printPage(
  renderers: Renderers,
  printer: PrinterSettings,
  page: PrintablePage,
  header: PrintHeader,
  log?: (line: string) => void,
): Promise<Printed> {
  const t0 = performance.now();
  const { dots, heightPx, wider, blocked } = await renderDots(renderers, printer.width, page, header);
  const t1 = performance.now();
  log?.(`rendered ${dots.width} x ${dots.height} dots in ${((t1 - t0) / 1000).toFixed(1)} s`);
  if (heightPx > MAX_HEIGHT) log?.(`the page is ${heightPx} px long: cut at ${MAX_HEIGHT}, as sirius cuts it`);
  if (wider) log?.(`the page is wider than the paper's ${printer.width} px: what lies right of that is not printed`);
  if (blocked.length) {
    const shown = blocked.slice(0, 5).join(", ") + (blocked.length > 5 ? ` and ${blocked.length - 5} more` : "");
    log?.(`not loaded (a page loads only its publication's own images, styles and fonts): ${shown}`);
  }
  const job = encodeJob(dots, { cut: printer.cut, ...(printer.bandRows ? { bandRows: printer.bandRows } : {}) });
  const report = await sendJob(printer.to, job, {
    ...(printer.retries !== undefined ? { retries: printer.retries } : {}),
    ...(printer.retryWaitMs !== undefined ? { retryWaitMs: printer.retryWaitMs } : {}),
    ...(printer.timeoutMs !== undefined ? { timeoutMs: printer.timeoutMs } : {}),
    ...(log ? { log } : {}),
  });
  return { dots, job, report, renderMs: t1 - t0, sendMs: performance.now() - t1, heightPx, wider, blocked };
}

/** "61,234 bytes in 10 bands of 128 rows, cut" */
export function jobSummary(job: EscPosJob, printer: PrinterSettings): string {
  const rows = printer.bandRows ?? BAND_ROWS;
  const bands = `${job.bandEnds.length} bands of up to ${rows} rows`;
  return `${job.bytes.length.toLocaleString("en")} bytes in ${bands}, ${printer.cut ? "cut" : "no cut"}`;
}
