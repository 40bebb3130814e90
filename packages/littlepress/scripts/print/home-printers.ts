// The home print server's run: for each local ESC/POS printer, subscribed to
// one publication, the platform's side played as the kit plays it for print
// keys (lib/model/subscription.ts: when a delivery is due, delivery_count, the
// last ETag, the end; delivery-rules.ts: what an answer means; end-notice.ts:
// the end slip), each print one print job (lib/platform/printing/
// print-job.ts: its claim, its retries backing off, a job sent whole with no
// word from the printer never sent again), with the printer on the network, a
// device file or CUPS in place of a print key. State is kept in a
// state store (the file store), so a restart neither prints twice nor forgets
// where a series was.
import { endNoticePage, settleNotice, type EndNotice } from "../../lib/model/end-notice.ts";
import { BAND_ROWS, bandRowsProblem, PRINTER_WIDTHS } from "../../lib/model/escpos-raster.ts";
import { PRINT_TIMEOUT_MS } from "../../lib/model/run-budget.ts";
import {
  afterDelivery,
  firstClaim,
  settle,
  type DeliveryRecord,
  type EditionAnswer,
  type SubscriptionChange,
} from "../../lib/model/delivery-record.ts";
import type { PrintResult } from "../../lib/model/print-job.ts";
import { deliveryDueAt, type DueDelivery, type Subscription } from "../../lib/model/subscription.ts";
import { editionAction } from "../../lib/model/delivery-rules.ts";
import { isTimeZone } from "../../lib/model/time-zones.ts";
import { parseDestination } from "../../lib/platform/printers/escpos-send.ts";
import {
  fetchEdition,
  publicationBase,
  publicationPolicy,
  readPublication,
} from "../../lib/platform/printers/escpos-publication.ts";
import { serviceLimits } from "../../lib/platform/printing/in-flight.ts";
import { noticeSlot } from "../../lib/platform/delivering/end-notices.ts";
import { runJob, type JobRunner, type Page, type PrintJob } from "../../lib/platform/printing/print-job.ts";
import { recordSlot } from "../../lib/platform/printing/record-slot.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { MAX_HEIGHT, RenderError } from "../preview/render.ts";
import type { PrintHeader } from "../preview/sirius-page.ts";
import { printPage, type PrinterSettings, type Printed, type Renderers } from "./escpos-print.ts";

/** One printer of printers.json, read. */
export interface HomePrinter extends PrinterSettings {
  /** Letters, digits, _ and -: names its state. */
  id: string;
  name: string;
  publication: URL;
  hour: number;
  zone: string;
  settings: [string, string][];
}

/** printers.json, read; or every problem in it, one line each. */
export function readPrintersConfig(raw: unknown): { printers: HomePrinter[]; state?: string } | { problems: string[] } {
  const problems: string[] = [];
  if (typeof raw !== "object" || raw === null || !Array.isArray((raw as { printers?: unknown }).printers))
    return { problems: ['the config is an object with "printers": [ … ]'] };
  const { printers: list, state } = raw as { printers: unknown[]; state?: unknown };
  if (state !== undefined && typeof state !== "string") problems.push('"state" is a folder\'s path');
  const printers: HomePrinter[] = [];
  const ids = new Set<string>();
  list.forEach((entry, i) => {
    const e = (typeof entry === "object" && entry ? entry : {}) as Record<string, unknown>;
    const where = `printers[${i}]`;
    const bad = (what: string) => problems.push(`${where}: ${what}`);
    const id = e.id ?? e.name;
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,40}$/.test(id))
      return bad('needs an "id" (or a "name") of letters, digits, _ and -');
    if (ids.has(id)) return bad(`"${id}" is there twice`);
    ids.add(id);
    const to = typeof e.to === "string" ? parseDestination(e.to) : { problem: '"to" names the printer' };
    if ("problem" in to) return bad(to.problem);
    const base =
      typeof e.publication === "string" ? publicationBase(e.publication) : { problem: '"publication" is a URL' };
    if ("problem" in base) return bad(base.problem);
    const width = e.width ?? 384;
    if (!(PRINTER_WIDTHS as readonly unknown[]).includes(width)) return bad('"width" is 384 or 576');
    const hour = e.hour ?? 6;
    if (typeof hour !== "number" || !Number.isInteger(hour) || hour < 0 || hour > 23)
      return bad('"hour" is a whole number from 0 to 23');
    const zone = e.zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (typeof zone !== "string" || !isTimeZone(zone)) return bad('"zone" is an IANA time zone');
    const bandRows = e.band_rows ?? BAND_ROWS;
    if (typeof bandRows !== "number" || bandRowsProblem(bandRows))
      return bad(`"band_rows": ${bandRowsProblem(Number(bandRows))}`);
    if (e.cut !== undefined && typeof e.cut !== "boolean") return bad('"cut" is true or false');
    const settings = e.settings ?? {};
    if (typeof settings !== "object" || settings === null || Object.values(settings).some((v) => typeof v !== "string"))
      return bad('"settings" is an object of strings');
    printers.push({
      id,
      name: typeof e.name === "string" ? e.name : id,
      to,
      width: width as number,
      cut: e.cut !== false,
      bandRows,
      publication: base,
      hour,
      zone,
      settings: Object.entries(settings as Record<string, string>),
    });
  });
  if (problems.length) return { problems };
  return { printers, ...(typeof state === "string" ? { state } : {}) };
}

export interface HomeRunOptions {
  store: StateStore;
  renderers: Renderers;
  at: Date;
  /** Tries after a failed send within one delivery, and the wait between them (the next run retries too). */
  retries?: number;
  retryWaitMs?: number;
  timeoutMs?: number;
}

/** One printer's status after a run: one line. */
export interface PrinterStatus {
  id: string;
  line: string;
  /** What the run did: "printed", "not-printed", "ended", "offline", "failed", "waiting", "done", "end-slip". */
  outcome: string;
}

const subKey = (id: string) => `printers/${id}`;
const recKey = (id: string, date: string) => `deliveries/${id}/${date}`;

/** Runs each printer's due delivery at `at`, one printer after another; one status line each. */
export async function runHomePrinters(printers: HomePrinter[], o: HomeRunOptions): Promise<PrinterStatus[]> {
  const statuses: PrinterStatus[] = [];
  for (const printer of printers) statuses.push(await runPrinter(printer, o));
  return statuses;
}

async function subscriptionOf(printer: HomePrinter, o: HomeRunOptions): Promise<Subscription> {
  const stored = await o.store.get<Subscription>(subKey(printer.id));
  const base = {
    printer: printer.name,
    zone: printer.zone,
    hour: printer.hour,
    settings: printer.settings,
  };
  if (stored) return { ...stored.value, ...base }; // the config may have changed the hour or the settings
  const sub: Subscription = {
    id: printer.id,
    slug: printer.publication.href,
    printKey: "",
    ...base,
    created: o.at.toISOString(),
    deliveryCount: 0,
    lastEtag: null,
    ended: null,
    unsubscribeHash: "",
  };
  await o.store.put(subKey(printer.id), sub);
  return sub;
}

/** What a delivery's job leaves beside its record: the subscription as it stands, the settle's change, the dots. */
interface Beside {
  sub: Subscription;
  change?: SubscriptionChange;
  dots: string;
}

/** What the home printers' jobs are given: one printer's page at a time, and no run budget (the send's own limits). */
function homeRunner(o: HomeRunOptions): JobRunner {
  const now = () => performance.now();
  return { at: o.at, now, recheckMs: 0, limits: serviceLimits(1, now), sendWindow: () => PRINT_TIMEOUT_MS };
}

async function runPrinter(printer: HomePrinter, o: HomeRunOptions): Promise<PrinterStatus> {
  const status = (outcome: string, line: string): PrinterStatus => ({
    id: printer.id,
    outcome,
    line: `${printer.name}: ${line}`,
  });
  const sub = await subscriptionOf(printer, o);
  if (sub.ended) return endSlip(printer, o, status);
  const due = deliveryDueAt(sub, o.at);
  if (!due) return status("waiting", `next delivery at ${String(printer.hour).padStart(2, "0")}:00 ${printer.zone}`);
  const beside: Beside = { sub, dots: "" };
  const done = await runJob(deliveryJob(printer, due, o, beside), homeRunner(o));
  if (done.step !== "settled") {
    const found = "record" in done ? done.record : undefined;
    const count = found?.deliveryCount ?? sub.deliveryCount;
    return status("done", `${due.date}: ${found?.detail ?? "another run is at it"} (delivery_count ${count})`);
  }
  const record = done.record;
  // An end carries its notice (the model's afterDelivery()), in the same write.
  const after = afterDelivery(beside.sub, record, beside.change);
  await o.store.put(subKey(printer.id), after);
  const etag = record.etag ? `, ETag ${record.etag}` : "";
  const what = `${due.date} delivery_count ${record.deliveryCount}: ${record.detail}${etag}${beside.dots}`;
  if (record.state === "ended") {
    const slip = await endSlip(printer, o, status);
    return status("ended", `${what}; ${slip.line.slice(printer.name.length + 2)}`);
  }
  return status(record.state, what);
}

/** What asking the publication gave: its answer, its page, and its name. */
interface HomeAsked {
  answer: EditionAnswer;
  html?: string;
  name: string;
}

/** A printer's day as a print job (lib/platform/printing/print-job.ts), its record kept in the state folder. */
function deliveryJob(
  printer: HomePrinter,
  due: DueDelivery,
  o: HomeRunOptions,
  beside: Beside,
): PrintJob<DeliveryRecord, HomeAsked> {
  return {
    slot: recordSlot(o.store, recKey(printer.id, due.date)),
    first: () => firstClaim(beside.sub, due, o.at),
    service: printer.id,
    prepare: async (claimed) => {
      beside.sub = afterDelivery(beside.sub, claimed); // delivery_count counts deliveries, printed or not
      await o.store.put(subKey(printer.id), beside.sub);
      return askPublication(printer, claimed, o);
    },
    page: ({ answer, html, name }) =>
      editionAction(answer.status, answer.etag, beside.sub.lastEtag) === "print"
        ? { bytes: new TextEncoder().encode(html ?? ""), type: "text/html; charset=utf-8", from: name }
        : undefined,
    send: async (page) => {
      const header: PrintHeader = { at: new Date(due.time.ms), from: page.from, timeZone: printer.zone };
      const sent = await send(printer, new TextDecoder().decode(page.bytes), header, o);
      beside.dots = sent.dots;
      return sent.result;
    },
    settle: (claimed, asked, print) => {
      const { record, change } = settle(beside.sub, claimed, asked.answer, print, o.at);
      beside.change = change;
      return print === "offline"
        ? { ...record, detail: "printer off or unreachable; tried again by a later run" }
        : record;
    },
  };
}

/** The publication's meta.json and the day's edition, as the platform asks for them. */
async function askPublication(printer: HomePrinter, claimed: DeliveryRecord, o: HomeRunOptions): Promise<HomeAsked> {
  const policy = publicationPolicy(printer.publication, o.timeoutMs);
  const meta = await readPublication(printer.publication, policy);
  if ("error" in meta)
    return { answer: { status: null, etag: null, error: meta.error }, name: printer.publication.href };
  const reply = await fetchEdition(
    printer.publication,
    meta,
    { localDeliveryTime: claimed.localDeliveryTime, deliveryCount: claimed.deliveryCount, settings: printer.settings },
    policy,
  );
  if ("error" in reply) return { answer: { status: null, etag: null, error: reply.error }, name: meta.name };
  return { answer: { status: reply.status, etag: reply.etag }, html: reply.html, name: meta.name };
}

/**
 * Prints the end slip a 410 owes, as a print job whose record is the subscription's endNotice (end-notice.ts's rules).
 */
async function endSlip(
  printer: HomePrinter,
  o: HomeRunOptions,
  status: (outcome: string, line: string) => PrinterStatus,
): Promise<PrinterStatus> {
  const slot = noticeSlot(o.store, subKey(printer.id));
  const job: PrintJob<EndNotice, Page> = {
    slot,
    owed: "due",
    service: printer.id,
    prepare: async () => ({
      bytes: new TextEncoder().encode(endNoticePage(await publicationName(printer, o), printer.publication.href)),
      type: "text/html; charset=utf-8",
      from: "",
    }),
    page: (page) => page,
    send: async (page) =>
      (await send(printer, new TextDecoder().decode(page.bytes), { at: o.at, from: "", timeZone: printer.zone }, o))
        .result,
    settle: (claimed, _page, print) => settleNotice(claimed, print ?? { error: "not sent" }, o.at),
  };
  const done = await runJob(job, homeRunner(o));
  const sub = slot.subscription();
  const ended = `ended (${sub?.ended?.reason ?? "over"})`;
  if (done.step !== "settled") return status("done", `${ended}; ${sub?.endNotice?.detail ?? "no end slip"}`);
  return status("end-slip", `${ended}; ${done.record.detail}`);
}

async function publicationName(printer: HomePrinter, o: HomeRunOptions): Promise<string> {
  const meta = await readPublication(printer.publication, publicationPolicy(printer.publication, o.timeoutMs));
  return "error" in meta ? printer.publication.href : meta.name;
}

/** What the status line says of a page that did not print whole, as print says it: cut, clipped, not loaded. */
function pageWarnings(printed: Printed, width: number): string {
  const warnings = [
    ...(printed.heightPx > MAX_HEIGHT ? [`the page is ${printed.heightPx} px long: cut at ${MAX_HEIGHT}`] : []),
    ...(printed.wider
      ? [`the page is wider than the paper's ${width} px: what lies right of that is not printed`]
      : []),
    ...(printed.blocked.length ? [`${printed.blocked.length} of what it links not loaded (not its own origin's)`] : []),
  ];
  return warnings.length ? ` (${warnings.join("; ")})` : "";
}

async function send(
  printer: HomePrinter,
  html: string,
  header: PrintHeader,
  o: HomeRunOptions,
): Promise<{ result: PrintResult; dots: string }> {
  try {
    const printed = await printPage(
      o.renderers,
      { ...printer, retries: o.retries ?? 1, retryWaitMs: o.retryWaitMs ?? 2000 },
      // What the page links loads from the publication's own origin only (render.ts).
      { html, origin: printer.publication },
      header,
    );
    const dots = `, ${printed.dots.width}x${printed.dots.height} dots${pageWarnings(printed, printer.width)}`;
    const { report } = printed;
    if (report.ok) return { result: "sent", dots };
    if (report.off) return { result: "offline", dots };
    if (report.unknown) return { result: { unknown: report.error ?? "no answer" }, dots };
    return { result: { error: `${report.error} (the printer may have printed part of it)` }, dots };
  } catch (error) {
    if (error instanceof RenderError) return { result: { error: `the page ${error.message}` }, dots: "" };
    throw error;
  }
}
