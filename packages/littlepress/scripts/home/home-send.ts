// One page onto one of the household's printers, and what it said: an ESC/POS
// printer is asked for its status first (DLE EOT: with its paper out or its
// cover open nothing is sent, and the job is tried again later), then the page
// is rendered at its width (the print pipeline's renderDots, as printPage) and sent; a Little
// Printer gets the page POSTed to its print key through the platform's one
// poster (print-key-post.ts), and the page is rendered here too, at 384 dots,
// for the history's picture of what was sent.
import { randomBytes } from "node:crypto";
import { sealPrintKey } from "../../lib/model/print-key.ts";
import type { PrintResult } from "../../lib/model/print-job.ts";
import type { readPublication } from "../../lib/platform/printers/escpos-publication.ts";
import { postToPrinter } from "../../lib/platform/printers/print-key-post.ts";
import type { PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";
import type { Page } from "../../lib/platform/printing/print-job.ts";
import { encodeJob } from "../../lib/model/escpos-raster.ts";
import { sendJob } from "../../lib/platform/printers/escpos-send.ts";
import { RenderError } from "../preview/render.ts";
import type { PrintHeader } from "../preview/sirius-page.ts";
import type { Db } from "./home-db.ts";
import { holdsPrints } from "./printer-state.ts";
import { escposStatus, type StatusOptions } from "./printer-status.ts";
import { destinationOf, recordStatus, type HomePrinterRow } from "./printers.ts";
import { rendered, RunRenders, type RenderSetting } from "./renders.ts";

/** What every print of the server is given. */
export interface HomeContext extends RenderSetting {
  db: Db;
  /** During a run (runs.ts's runAll): what its prints share. */
  run?: RunShared;
  /** The household's allow-list as it stands (publications.ts's homePolicy). */
  policy(): PrintKeyPolicy;
  /** One line per print. */
  log(line: string): void;
  /** Tries after a failed ESC/POS send within one job, and the wait between them. */
  retries?: number;
  retryWaitMs?: number;
  /** Each ESC/POS try's limit (default: escpos-send.ts's, by the job's size). */
  sendTimeoutMs?: number;
  /** How ESC/POS printers are asked for their status (printer-status.ts's defaults). */
  status?: StatusOptions;
}

/**
 * What one run's prints share: its contexts and the pages rendered (renders.ts), and each publication's meta.json,
 * read once a run (deliveries.ts), so that 50 subscriptions to one publication ask for it once, not 50 times.
 */
export interface RunShared {
  renders: RunRenders;
  publications: Map<string, ReturnType<typeof readPublication>>;
}

export const newRunShared = (): RunShared => ({ renders: new RunRenders(), publications: new Map() });

/** What a send came to: the printer's answer, in the lifecycle's words, and the 1-bit picture sent. */
export interface Sent {
  result: PrintResult;
  picture: Buffer | null;
  /** Why it was not sent, when the printer said so (its paper out). */
  detail?: string;
}

/** The print key is sealed for postToPrinter under a key that lives only as long as this process. */
const SEAL_KEY = randomBytes(32);

export async function sendPage(
  ctx: HomeContext,
  printer: HomePrinterRow,
  page: Page & { origin: string },
  header: PrintHeader,
  boundMs: number,
): Promise<Sent> {
  try {
    return printer.kind === "key"
      ? await sendToKey(ctx, printer, page, header, boundMs)
      : await sendEscPos(ctx, printer, page, header);
  } catch (error) {
    if (error instanceof RenderError) return { result: { error: `the page ${error.message}` }, picture: null };
    throw error;
  }
}

async function sendEscPos(
  ctx: HomeContext,
  printer: HomePrinterRow,
  page: Page & { origin: string },
  header: PrintHeader,
): Promise<Sent> {
  const to = destinationOf(printer);
  const status = await escposStatus(to, ctx.status);
  recordStatus(ctx.db, printer.id, status.state, new Date());
  if (holdsPrints(status)) return { result: "offline", picture: null, detail: `${status.state}: ${status.detail}` };
  const { dots, picture } = await rendered(ctx, printer.width, page, header);
  const job = encodeJob(dots, { cut: printer.cut === 1 });
  const report = await sendJob(to, job, {
    retries: ctx.retries ?? 1,
    retryWaitMs: ctx.retryWaitMs ?? 2000,
    ...(ctx.sendTimeoutMs ? { timeoutMs: ctx.sendTimeoutMs } : {}),
  });
  if (report.ok) return { result: "sent", picture };
  if (report.off) return { result: "offline", picture, detail: `offline: ${report.error ?? "not reachable"}` };
  if (report.unknown) return { result: { unknown: report.error ?? "no answer" }, picture };
  return { result: { error: `${report.error} (the printer may have printed part of it)` }, picture };
}

async function sendToKey(
  ctx: HomeContext,
  printer: HomePrinterRow,
  page: Page & { origin: string },
  header: PrintHeader,
  boundMs: number,
): Promise<Sent> {
  const { picture } = await rendered(ctx, 384, page, header);
  const sealed = sealPrintKey(new URL(printer.address), SEAL_KEY);
  const options = { sealKey: SEAL_KEY, printKeys: ctx.policy(), timeoutMs: boundMs };
  const result = await postToPrinter(options, { printKey: sealed }, page, header.from);
  return { result, picture };
}
