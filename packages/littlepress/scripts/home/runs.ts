// The server's runs: every subscription's due delivery and every end slip
// owed, printer by printer (one page at a time to each printer, the printers
// side by side); "Print now"; and the slip that ends a series. Each is one
// print job (runJob), so a run that overlaps another, or follows one that was
// killed, prints nothing twice but what was in flight when it died.
import { randomBytes } from "node:crypto";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { endNoticePage, gaveUpNotice, settleNotice, type EndNotice } from "../../lib/model/end-notice.ts";
import { firstClaim, settle, type DeliveryRecord } from "../../lib/model/delivery-record.ts";
import { todayIn } from "../../lib/model/time-zones.ts";
import { runJob, type Page, type PrintJob } from "../../lib/platform/printing/print-job.ts";
import { askEdition, deliver, editionPage, homeRunner, type Asked } from "./deliveries.ts";
import {
  addHistory,
  historyEntry,
  endNoticeSlot,
  getSubscription,
  rowSlot,
  subscriptionOf,
  subscriptionsOf,
  type SubscriptionRow,
} from "./home-jobs.ts";
import { newRunShared, sendPage, type HomeContext, type Sent } from "./home-send.ts";
import { askStatus, listPrinters, type HomePrinterRow } from "./printers.ts";

/** One run at `at`: each printer's subscriptions in turn, the printers at once, sharing what they read and render. */
export async function runAll(ctx: HomeContext, at: Date): Promise<void> {
  const run = { ...ctx, run: newRunShared() };
  try {
    await Promise.all(listPrinters(ctx.db).map((printer) => runPrinter(run, printer, at)));
  } finally {
    await run.run.renders.close();
  }
}

/** A printer's status is asked again by a run once it is this old (DLE EOT, or a GET to sirius). */
export const STATUS_EVERY_MS = 5 * 60_000;

async function runPrinter(ctx: HomeContext, printer: HomePrinterRow, at: Date): Promise<void> {
  if (!printer.status_at || at.getTime() - Date.parse(printer.status_at) >= STATUS_EVERY_MS)
    await askStatus(ctx.db, printer, ctx.policy(), at, ctx.status).catch(() => undefined); // said in the status
  for (const row of subscriptionsOf(ctx.db, printer.id)) {
    try {
      if (!row.ended) await deliver(ctx, printer, row, at);
      const now = getSubscription(ctx.db, row.id);
      if (now?.ended && now.end_notice) await endSlip(ctx, printer, now, at);
    } catch (error) {
      // One subscription's trouble (a store that refused) is said, and the others still run.
      ctx.log(`${at.toISOString()} ${printer.name} <- ${row.name}: run failed: ${(error as Error).message}`);
    }
  }
}

/** The end slip a 410 owes, as a print job whose record is the subscription's end_notice. */
export async function endSlip(
  ctx: HomeContext,
  printer: HomePrinterRow,
  row: SubscriptionRow,
  at: Date,
): Promise<void> {
  let sent: Sent | undefined;
  const job: PrintJob<EndNotice, Page> = {
    slot: endNoticeSlot(ctx.db, row.id, (rec) => {
      const where = { printer: printer.id, subscription: row.id, job: "end slip", what: `${row.name}: the end slip` };
      addHistory(ctx.db, historyEntry(where, rec, at, sent?.picture));
    }),
    owed: "due",
    service: printer.id,
    prepare: () => Promise.resolve(endPage(row)),
    page: (page) => page,
    send: async (page, bound) => {
      sent = await sendPage(
        ctx,
        printer,
        { ...page, origin: row.publication },
        { at, from: "", timeZone: row.zone },
        bound,
      );
      return sent.result;
    },
    settle: (claimed, _page, print) => settleNotice(claimed, print ?? { error: "not sent" }, at),
    gaveUp: (rec) => gaveUpNotice(rec, at),
  };
  const done = await runJob(job, homeRunner(at));
  if (done.step === "settled" || done.step === "gave-up")
    ctx.log(`${at.toISOString()} ${printer.name} <- ${row.name}: end slip ${done.record.state}: ${done.record.detail}`);
}

const endPage = (row: SubscriptionRow): Page => ({
  bytes: new TextEncoder().encode(endNoticePage(row.name, row.publication)),
  type: "text/html; charset=utf-8",
  from: "",
});

/**
 * "Print now": today's edition (today's delivery time, the delivery_count the next delivery sends), printed at
 * once whatever the last ETag, as its own job; it moves neither the count nor the schedule, and an edition it
 * printed is not printed again by the day's delivery (the last ETag moves).
 */
export async function printNow(
  ctx: HomeContext,
  printer: HomePrinterRow,
  row: SubscriptionRow,
  at: Date,
): Promise<DeliveryRecord | { step: string }> {
  const sub = subscriptionOf(row, printer.name);
  const date = todayIn(row.zone, at);
  const due = { date, time: localDeliveryTime(date, row.hour, row.zone) };
  let sent: Sent | undefined;
  const key = `now/${row.id}/${at.toISOString()}-${randomBytes(3).toString("hex")}`;
  const job: PrintJob<DeliveryRecord, Asked> = {
    slot: rowSlot<DeliveryRecord>(ctx.db, key, (rec) => nowSettled(ctx, printer, row, rec, sent, at)),
    first: () => firstClaim(sub, due, at),
    service: printer.id,
    prepare: (claimed) => askEdition(ctx, row, claimed),
    page: (asked) => (asked.answer.status === 200 ? editionPage(asked, row) : undefined),
    send: async (page, bound) => {
      sent = await sendPage(
        ctx,
        printer,
        { ...page, origin: row.publication },
        { at, from: page.from, timeZone: row.zone },
        bound,
      );
      return sent.result;
    },
    settle: (claimed, asked, print) => settle({ lastEtag: null, ended: null }, claimed, asked.answer, print, at).record,
  };
  const done = await runJob(job, homeRunner(at));
  if (!("record" in done)) return { step: done.step };
  ctx.log(`${at.toISOString()} ${printer.name} <- ${row.name}: print now ${done.record.state}: ${done.record.detail}`);
  return done.record;
}

function nowSettled(
  ctx: HomeContext,
  printer: HomePrinterRow,
  row: SubscriptionRow,
  rec: DeliveryRecord,
  sent: Sent | undefined,
  at: Date,
): void {
  if ((rec.state === "printed" || rec.state === "unknown") && rec.etag)
    ctx.db.prepare("UPDATE subscriptions SET last_etag = ? WHERE id = ?").run(rec.etag, row.id);
  const where = { printer: printer.id, subscription: row.id, job: "print now" };
  addHistory(
    ctx.db,
    historyEntry({ ...where, what: `${row.name}, delivery_count ${rec.deliveryCount}` }, rec, at, sent?.picture),
  );
}
