// A subscription's delivery by the spec's rules, as the platform's model
// writes them (lib/model/subscription.ts: when it is due, delivery_count, the
// last ETag, the end; delivery-rules.ts: what an answer means), each print one
// print job (lib/platform/printing/print-job.ts's runJob: a page is recorded
// printed only when the printer or sirius said so, and a page sent with no
// answer is shown as unknown and never sent again). The job's settle, the
// subscription's change and the history row are one transaction (home-jobs.ts).
import { editionAction } from "../../lib/model/delivery-rules.ts";
import {
  afterDelivery,
  firstClaim,
  settle,
  type DeliveryRecord,
  type EditionAnswer,
  type SubscriptionChange,
} from "../../lib/model/delivery-record.ts";
import { deliveryDueAt, type DueDelivery, type Subscription } from "../../lib/model/subscription.ts";
import { fetchEdition, readPublication } from "../../lib/platform/printers/escpos-publication.ts";
import type { PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";
import { serviceLimits } from "../../lib/platform/printing/in-flight.ts";
import { runJob, type JobRunner, type PrintJob } from "../../lib/platform/printing/print-job.ts";
import { PRINT_TIMEOUT_MS } from "../../lib/model/run-budget.ts";
import {
  addHistory,
  historyEntry,
  getSubscription,
  rowSlot,
  subscriptionOf,
  type SubscriptionRow,
} from "./home-jobs.ts";
import { sendPage, type HomeContext, type Sent } from "./home-send.ts";
import type { HomePrinterRow } from "./printers.ts";

/** What asking the publication gave. */
export interface Asked {
  answer: EditionAnswer;
  html?: string;
  name: string;
}

/** What a job leaves beside its record for the settle's transaction. */
interface Beside {
  change?: SubscriptionChange;
  sent?: Sent;
  /** meta.json's name, when it was read (a subscription imported from printers.json is named by its URL till then). */
  name?: string;
}

/** What every job of the server is given: its own time, one page at a time to each printer. */
export function homeRunner(at: Date): JobRunner {
  const now = () => performance.now();
  return { at, now, recheckMs: 0, limits: serviceLimits(1, now), sendWindow: () => PRINT_TIMEOUT_MS };
}

/** The publication's meta.json and the day's edition, as the platform asks for them. */
export async function askEdition(
  ctx: HomeContext,
  row: SubscriptionRow,
  claimed: Pick<DeliveryRecord, "localDeliveryTime" | "deliveryCount">,
): Promise<Asked> {
  const base = new URL(row.publication);
  const policy = ctx.policy();
  const meta = await publicationOf(ctx, base, policy);
  if ("error" in meta) return { answer: { status: null, etag: null, error: meta.error }, name: row.name };
  const settings = JSON.parse(row.settings) as [string, string][];
  const parts = { localDeliveryTime: claimed.localDeliveryTime, deliveryCount: claimed.deliveryCount, settings };
  const reply = await fetchEdition(base, meta, parts, policy);
  if ("error" in reply) return { answer: { status: null, etag: null, error: reply.error }, name: meta.name };
  return { answer: { status: reply.status, etag: reply.etag }, html: reply.html, name: meta.name };
}

/** The publication's meta.json; read once a run, for all its subscriptions (a preview reads it afresh). */
function publicationOf(ctx: HomeContext, base: URL, policy: PrintKeyPolicy): ReturnType<typeof readPublication> {
  const read = ctx.run?.publications;
  if (!read) return readPublication(base, policy);
  let meta = read.get(base.href);
  if (!meta) read.set(base.href, (meta = readPublication(base, policy)));
  return meta;
}

/** The page a delivery prints, with what it needs to render: its publication's origin, and who it is from. */
export const editionPage = (asked: Asked, row: SubscriptionRow) => ({
  bytes: new TextEncoder().encode(asked.html ?? ""),
  type: "text/html; charset=utf-8",
  from: asked.name,
  origin: row.publication,
});

/** The subscription's due delivery at `at`, run as one job; a line for the log, or undefined when none was due. */
export async function deliver(
  ctx: HomeContext,
  printer: HomePrinterRow,
  row: SubscriptionRow,
  at: Date,
): Promise<{ line: string; record?: DeliveryRecord } | undefined> {
  const sub = subscriptionOf(row, printer.name);
  const due = deliveryDueAt(sub, at);
  if (!due) return undefined;
  const done = await runJob(deliveryJob(ctx, printer, row, sub, due, at), homeRunner(at));
  if (done.step !== "settled") return { line: `${due.date}: ${"record" in done ? done.record.detail : done.step}` };
  const r = done.record;
  const etag = r.etag ? `, ETag ${r.etag}` : "";
  ctx.log(
    `${at.toISOString()} ${printer.name} <- ${row.name}: ${due.date} #${r.deliveryCount} ${r.state}: ` +
      `${r.detail}${etag}`,
  );
  return { line: `${due.date}: ${r.state}`, record: r };
}

function deliveryJob(
  ctx: HomeContext,
  printer: HomePrinterRow,
  row: SubscriptionRow,
  sub: Subscription,
  due: DueDelivery,
  at: Date,
): PrintJob<DeliveryRecord, Asked> {
  const beside: Beside = {};
  return {
    slot: rowSlot<DeliveryRecord>(ctx.db, `delivery/${row.id}/${due.date}`, (rec) =>
      settled(ctx, printer, row, rec, beside, at),
    ),
    first: () => firstClaim(sub, due, at),
    service: printer.id,
    prepare: (claimed) => {
      // delivery_count counts deliveries, printed or not: moved at the claim, never back.
      ctx.db
        .prepare("UPDATE subscriptions SET delivery_count = MAX(delivery_count, ?) WHERE id = ?")
        .run(claimed.deliveryCount + 1, row.id);
      return askEdition(ctx, row, claimed);
    },
    page: (asked) =>
      editionAction(asked.answer.status, asked.answer.etag, sub.lastEtag) === "print"
        ? editionPage(asked, row)
        : undefined,
    send: async (page, bound) => {
      const header = { at: new Date(due.time.ms), from: page.from, timeZone: row.zone };
      beside.sent = await sendPage(ctx, printer, { ...page, origin: row.publication }, header, bound);
      return beside.sent.result;
    },
    settle: (claimed, asked, print) => {
      const { record, change } = settle(sub, claimed, asked.answer, print, at);
      beside.change = change;
      if (asked.answer.status !== null) beside.name = asked.name;
      const why = beside.sent?.detail;
      return print === "offline" && why ? { ...record, detail: `${why}; tried again later` } : record;
    },
  };
}

/** Inside the settle's transaction: the subscription's change and the history row. */
function settled(
  ctx: HomeContext,
  printer: HomePrinterRow,
  row: SubscriptionRow,
  rec: DeliveryRecord,
  beside: Beside,
  at: Date,
): void {
  const latest = getSubscription(ctx.db, row.id);
  if (latest) {
    const after = afterDelivery(subscriptionOf(latest, printer.name), rec, beside.change);
    ctx.db
      .prepare(
        "UPDATE subscriptions SET delivery_count = ?, last_etag = ?, ended = ?, end_notice = ?, name = ? WHERE id = ?",
      )
      .run(
        after.deliveryCount,
        after.lastEtag,
        after.ended ? JSON.stringify(after.ended) : null,
        after.endNotice ? JSON.stringify(after.endNotice) : null,
        beside.name ?? latest.name,
        row.id,
      );
  }
  const where = { printer: printer.id, subscription: row.id, job: `delivery ${rec.date}` };
  addHistory(
    ctx.db,
    historyEntry({ ...where, what: `${row.name}, delivery_count ${rec.deliveryCount}` }, rec, at, beside.sent?.picture),
  );
}
