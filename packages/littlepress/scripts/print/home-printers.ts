// The home print server's run: for each local ESC/POS printer, subscribed to
// one publication, the platform's side played as the kit plays it for print
// keys (lib/model/subscription.ts: when a delivery is due, its claim, retries
// backing off, delivery_count, the last ETag, the end; delivery-rules.ts: what
// an answer means; end-notice.ts: the end slip), with the printer on the
// network, a device file or CUPS in place of a print key. State is kept in a
// state store (the file store), so a restart neither prints twice nor forgets
// where a series was.
import { endNoticePage, claimNotice, noticeAfter, noticeNext, settleNotice } from "../../lib/model/end-notice.ts";
import { BAND_ROWS, bandRowsProblem, PRINTER_WIDTHS } from "../../lib/model/escpos-raster.ts";
import {
  afterDelivery,
  claimable,
  deliveryDueAt,
  firstClaim,
  reclaim,
  settle,
  type DeliveryRecord,
  type EditionAnswer,
  type PrintResult,
  type Subscription,
} from "../../lib/model/subscription.ts";
import { editionAction } from "../../lib/model/delivery-rules.ts";
import { isTimeZone } from "../../lib/model/time-zones.ts";
import { parseDestination } from "../../lib/platform/printers/escpos-send.ts";
import {
  fetchEdition,
  publicationBase,
  publicationPolicy,
  readPublication,
} from "../../lib/platform/printers/escpos-publication.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { MAX_HEIGHT, RenderError } from "../preview/render.ts";
import type { PrintHeader } from "../preview/sirius-page.ts";
import { printPage, type PrinterSettings, type Renderers } from "./escpos-print.ts";

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

async function runPrinter(printer: HomePrinter, o: HomeRunOptions): Promise<PrinterStatus> {
  const status = (outcome: string, line: string): PrinterStatus => ({
    id: printer.id,
    outcome,
    line: `${printer.name}: ${line}`,
  });
  let sub = await subscriptionOf(printer, o);
  if (sub.ended) return endSlip(printer, sub, o, status);
  const due = deliveryDueAt(sub, o.at);
  if (!due) return status("waiting", `next delivery at ${String(printer.hour).padStart(2, "0")}:00 ${printer.zone}`);
  const stored = await o.store.get<DeliveryRecord>(recKey(printer.id, due.date));
  let claim: DeliveryRecord;
  if (!stored) claim = firstClaim(sub, due, o.at);
  else if (claimable(stored.value, o.at)) claim = reclaim(stored.value, o.at);
  else return status("done", `${due.date}: ${stored.value.detail} (delivery_count ${stored.value.deliveryCount})`);
  await o.store.put(recKey(printer.id, due.date), claim);
  sub = afterDelivery(sub, claim); // delivery_count counts deliveries, printed or not
  await o.store.put(subKey(printer.id), sub);

  const policy = publicationPolicy(printer.publication, o.timeoutMs);
  const meta = await readPublication(printer.publication, policy);
  let answer: EditionAnswer;
  let html: string | undefined;
  let name = printer.publication.href;
  if ("error" in meta) answer = { status: null, etag: null, error: meta.error };
  else {
    name = meta.name;
    const reply = await fetchEdition(
      printer.publication,
      meta,
      { localDeliveryTime: claim.localDeliveryTime, deliveryCount: claim.deliveryCount, settings: printer.settings },
      policy,
    );
    answer =
      "error" in reply ? { status: null, etag: null, error: reply.error } : { status: reply.status, etag: reply.etag };
    if (!("error" in reply)) html = reply.html;
  }
  let print: PrintResult | undefined;
  let dots = "";
  if (editionAction(answer.status, answer.etag, sub.lastEtag) === "print") {
    const header: PrintHeader = { at: new Date(due.time.ms), from: name, timeZone: printer.zone };
    const sent = await send(printer, html ?? "", header, o);
    print = sent.result;
    dots = sent.dots;
  }
  const settled = settle(sub, claim, answer, print, o.at);
  const record =
    print === "offline"
      ? { ...settled.record, detail: "printer off or unreachable; tried again by a later run" }
      : settled.record;
  const notice = noticeAfter(record, o.at);
  await o.store.put(recKey(printer.id, due.date), record);
  sub = afterDelivery(sub, record, { ...settled.change, ...(notice ? { endNotice: notice } : {}) });
  await o.store.put(subKey(printer.id), sub);
  const etag = record.etag ? `, ETag ${record.etag}` : "";
  const what = `${due.date} delivery_count ${record.deliveryCount}: ${record.detail}${etag}${dots}`;
  if (record.state === "ended") {
    const slip = await endSlip(printer, sub, o, status);
    return status("ended", `${what}; ${slip.line.slice(printer.name.length + 2)}`);
  }
  return status(record.state, what);
}

/** Prints the end slip a 410 owes (end-notice.ts's rules: claimed, settled, retried by later runs). */
async function endSlip(
  printer: HomePrinter,
  sub: Subscription,
  o: HomeRunOptions,
  status: (outcome: string, line: string) => PrinterStatus,
): Promise<PrinterStatus> {
  const notice = sub.endNotice;
  if (noticeNext(notice, o.at) !== "claim" || !notice)
    return status("done", `ended (${sub.ended?.reason ?? "over"}); ${notice?.detail ?? "no end slip"}`);
  const claimed = claimNotice(notice, o.at);
  await o.store.put(subKey(printer.id), { ...sub, endNotice: claimed });
  const page = endNoticePage(await publicationName(printer, o), printer.publication.href);
  const sent = await send(printer, page, { at: o.at, from: "", timeZone: printer.zone }, o);
  const settled = settleNotice(claimed, sent.result, o.at);
  await o.store.put(subKey(printer.id), { ...sub, endNotice: settled });
  return status("end-slip", `ended (${sub.ended?.reason ?? "over"}); ${settled.detail}`);
}

async function publicationName(printer: HomePrinter, o: HomeRunOptions): Promise<string> {
  const meta = await readPublication(printer.publication, publicationPolicy(printer.publication, o.timeoutMs));
  return "error" in meta ? printer.publication.href : meta.name;
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
    const cut = printed.heightPx > MAX_HEIGHT ? ` (the page is ${printed.heightPx} px long: cut at ${MAX_HEIGHT})` : "";
    const dots = `, ${printed.dots.width}x${printed.dots.height} dots${cut}`;
    if (printed.report.ok) return { result: "sent", dots };
    if (printed.report.off) return { result: "offline", dots };
    return { result: { error: `${printed.report.error} (the printer may have printed part of it)` }, dots };
  } catch (error) {
    if (error instanceof RenderError) return { result: { error: `the page ${error.message}` }, dots: "" };
    throw error;
  }
}
