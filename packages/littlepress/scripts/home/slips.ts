// The server's own slips (a test print, a pairing code): one print job each,
// like every other print (runJob), recorded in the printer's history (a
// pairing code's picture is not kept: it is a secret).
import { randomBytes } from "node:crypto";
import { escapeHtml } from "../../lib/model/html-escape.ts";
import { firstTry, tryState, type JobRecord } from "../../lib/model/print-job.ts";
import { runJob, type Page, type PrintJob } from "../../lib/platform/printing/print-job.ts";
import { homeRunner } from "./deliveries.ts";
import { addHistory, historyEntry, rowSlot } from "./home-jobs.ts";
import { sendPage, type HomeContext, type Sent } from "./home-send.ts";
import type { HomePrinterRow } from "./printers.ts";

const slipPage = (lines: string[]): Page => ({
  bytes: new TextEncoder().encode(
    `<!doctype html><meta charset="utf-8"><body style="margin:0;font:24px sans-serif">${lines
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join("")}</body>`,
  ),
  type: "text/html; charset=utf-8",
  from: "littlepress",
});

/** Prints one slip as a job; its record (state: printed, offline, failed, unknown…). */
export async function printSlip(
  ctx: HomeContext,
  printer: HomePrinterRow,
  what: "test print" | "pairing code",
  lines: string[],
  at: Date,
): Promise<JobRecord | undefined> {
  let sent: Sent | undefined;
  const key = `slip/${printer.id}/${at.toISOString()}-${randomBytes(3).toString("hex")}`;
  const job: PrintJob<JobRecord, Page> = {
    slot: rowSlot<JobRecord>(ctx.db, key, (rec) => {
      const picture = what === "test print" ? sent?.picture : null; // a pairing code is a secret
      addHistory(ctx.db, historyEntry({ printer: printer.id, subscription: null, job: what, what }, rec, at, picture));
    }),
    first: () => firstTry(at),
    service: printer.id,
    prepare: () => Promise.resolve(slipPage(lines)),
    page: (page) => page,
    send: async (page, bound) => {
      sent = await sendPage(ctx, printer, { ...page, origin: "http://localhost/" }, { at, from: "littlepress" }, bound);
      return sent.result;
    },
    settle: (claimed, _page, print) => {
      const { state, detail } = tryState(print ?? { error: "not sent" });
      return { ...claimed, state, at: at.toISOString(), detail: sent?.detail ?? detail };
    },
  };
  const done = await runJob(job, homeRunner(at));
  if (!("record" in done)) return undefined;
  ctx.log(`${at.toISOString()} ${printer.name}: ${what} ${done.record.state}: ${done.record.detail}`);
  return done.record;
}
