// One page onto an ESC/POS printer: rendered by the print pipeline (sirius's
// page, Chromium at the printer's width, the crop, PIL's dither: preview/),
// encoded as GS v 0 bands (lib/model/escpos-raster.ts) and sent
// (lib/platform/escpos-send.ts), again whole after a drop. Shared by
// `littlepress print` and `littlepress print-server`.
import type { Browser } from "playwright-core";
import type { Dots } from "../../lib/model/bilevel.ts";
import { BAND_ROWS, encodeJob, type EscPosJob } from "../../lib/model/escpos-raster.ts";
import { sendJob, type Destination, type JobReport } from "../../lib/platform/escpos-send.ts";
import { printDots } from "../preview/print-image.ts";
import { PAGE_TIMEOUT_MS, PaperRenderer } from "../preview/render.ts";
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
}

/** One renderer a width, in one Chromium. */
export class Renderers {
  private readonly byWidth = new Map<number, Promise<PaperRenderer>>();
  constructor(
    private readonly browser: Browser,
    private readonly timeoutMs = PAGE_TIMEOUT_MS,
  ) {}

  of(width: number): Promise<PaperRenderer> {
    let renderer = this.byWidth.get(width);
    if (!renderer) {
      // No site: the page loads what it links, as on sirius.
      renderer = PaperRenderer.open(this.browser, undefined, this.timeoutMs, width);
      this.byWidth.set(width, renderer);
    }
    return renderer;
  }

  async close(): Promise<void> {
    for (const renderer of this.byWidth.values()) await (await renderer).close();
  }
}

export interface Printed {
  dots: Dots;
  job: EscPosJob;
  report: JobReport;
  renderMs: number;
  sendMs: number;
}

/** The dots of `html` as the printer prints them, under sirius's header. */
export async function renderDots(
  renderers: Renderers,
  width: number,
  html: string,
  header: PrintHeader,
): Promise<Dots> {
  const render = await (await renderers.of(width)).renderHtml(html, header);
  return printDots(render.png, width);
}

/** Renders `html` and prints it on `printer`; rejects only with a RenderError (the page would not load). */
export async function printPage(
  renderers: Renderers,
  printer: PrinterSettings,
  html: string,
  header: PrintHeader,
  log?: (line: string) => void,
): Promise<Printed> {
  const t0 = performance.now();
  const dots = await renderDots(renderers, printer.width, html, header);
  const t1 = performance.now();
  log?.(`rendered ${dots.width} x ${dots.height} dots in ${((t1 - t0) / 1000).toFixed(1)} s`);
  const job = encodeJob(dots, { cut: printer.cut, ...(printer.bandRows ? { bandRows: printer.bandRows } : {}) });
  const report = await sendJob(printer.to, job, {
    ...(printer.retries !== undefined ? { retries: printer.retries } : {}),
    ...(printer.retryWaitMs !== undefined ? { retryWaitMs: printer.retryWaitMs } : {}),
    ...(log ? { log } : {}),
  });
  return { dots, job, report, renderMs: t1 - t0, sendMs: performance.now() - t1 };
}

/** "61,234 bytes in 10 bands of 128 rows, cut" */
export function jobSummary(job: EscPosJob, printer: PrinterSettings): string {
  const rows = printer.bandRows ?? BAND_ROWS;
  const bands = `${job.bandEnds.length} bands of up to ${rows} rows`;
  return `${job.bytes.length.toLocaleString("en")} bytes in ${bands}, ${printer.cut ? "cut" : "no cut"}`;
}
