// Sends a subscription's end notice (lib/model/end-notice.ts): the one slip
// that tells a subscriber the series is over and where to subscribe again.
// A delivery run calls it right after a 410 ends a subscription, and on every
// later run for an ended subscription whose notice is still to do (a crash, an
// offline printer). The slip goes through the same print-key client, with the
// same allow-list and checks, as every delivery (deliver-one.ts's post).
//
// The slip is a print job (lib/platform/printing/print-job.ts), whose record
// is the subscription's own endNotice: claimed with a conditional replace of
// the subscription (only the run whose write lands sends), settled with
// another once the print key answered, with every job's window (a run that
// dies between the send and that write: the slip prints twice) and rule (sent
// with no answer: unknown, never sent again).
import {
  endNoticePage,
  gaveUpNotice,
  noticeNext,
  offNotice,
  settleNotice,
  type EndNotice,
} from "../../model/end-notice.ts";
import type { Subscription } from "../../model/subscription.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import { postToPrinter, printService } from "../printers/print-key-post.ts";
import { noticeSlot } from "../printing/notice-slot.ts";
import { runJob, type JobRunner, type JobSlot, type Page, type PrintJob } from "../printing/print-job.ts";
import type { StateStore } from "../stores/state-store.ts";
import { subscriptionKey } from "../stores/store-keys.ts";
import { noticeLine } from "./report-lines.ts";
import type { RunReport, RunSettings } from "./run-state.ts";

/** What sending a notice needs of its run. */
export interface NoticeWork {
  store: StateStore;
  /** The run's instant. */
  at: Date;
  /** Only say what would be done. */
  dryRun?: boolean;
  /** Whether the publication `slug` prints the slip (its publication.json's `end_notice`). */
  on(slug: string): boolean;
  /** The publication's subscribe page, as people reach it. */
  subscribeUrl(slug: string): string;
  /** The publication's name (its meta.json's), or why it could not be read. */
  name(slug: string): Promise<string | { error: string }>;
  /** The deploy's sealing key, which opens the print key. */
  sealKey: Buffer;
  /** POSTs a page to the subscription's print key, as a delivery's edition is POSTed. */
  post(sub: Subscription, page: Page, boundMs: number): ReturnType<typeof postToPrinter>;
  /** What every print job of the run is given. */
  jobs: JobRunner;
}

/** What became of a notice: its outcome ("printed", "offline", "off", "taken over", "would print", …) and why. */
export interface NoticeOutcome {
  sub: Subscription;
  outcome: string;
  detail: string;
}

/**
 * Does what the end notice of the subscription `id` needs at the run's
 * instant, if anything: gives it up, marks it off, or prints it as a print
 * job. Undefined when there was nothing to do, or another run is doing it.
 * Throws when the store fails (a claim left behind goes stale for a later run).
 */
export async function sendEndNotice(w: NoticeWork, id: string): Promise<NoticeOutcome | undefined> {
  const slot = noticeSlot(w.store, subscriptionKey(id));
  const read = await slot.read();
  const sub = slot.subscription();
  if (!read || !sub) return undefined;
  const next = noticeNext(read.value, w.at);
  if (next === "leave") return undefined;
  if (!w.on(sub.slug)) {
    if (w.dryRun) return { sub, outcome: "would not print", detail: "turned off (end_notice)" };
    const off = offNotice(read.value, w.at);
    return (await slot.write(off, read)) ? { sub, outcome: off.state, detail: off.detail } : undefined;
  }
  const done = await runJob(slipJob(w, sub, slot), w.jobs);
  if (done.step === "would") return { sub, outcome: "would print", detail: "would print the end slip" };
  if (done.step === "held" || done.step === "found" || done.step === "late") return undefined;
  if (done.step === "taken-over") return { sub, outcome: "taken over", detail: "another run took this end slip over" };
  if (w.dryRun) return { sub, outcome: "would not print", detail: "its tries are spent" };
  return { sub: slot.subscription() ?? sub, outcome: done.record.state, detail: done.record.detail };
}

/** The slip as a print job: its record is the subscription's own endNotice. */
function slipJob(
  w: NoticeWork,
  sub: Subscription,
  slot: JobSlot<EndNotice>,
): PrintJob<EndNotice, Page | { error: string }> {
  return {
    slot,
    owed: "due",
    service: printService(sub, w.sealKey),
    prepare: async () => {
      const name = await w.name(sub.slug);
      return typeof name === "string" ? slipPage(name, w.subscribeUrl(sub.slug)) : name;
    },
    page: (prepared) => ("error" in prepared ? undefined : prepared),
    send: (page, boundMs) => w.post(sub, page, boundMs),
    settle: (claimed, prepared, print) =>
      settleNotice(claimed, print ?? { error: "error" in prepared ? prepared.error : "not sent" }, new Date(w.at)),
    gaveUp: (notice) => gaveUpNotice(notice, w.at),
  };
}

/**
 * Works on an ended subscription's end notice for a delivery run, and adds its
 * line to the run's report; a store that fails is said in the line (the next runs do it again).
 */
export async function workOnEndNotice(run: RunSettings, report: RunReport, sub: Subscription): Promise<void> {
  try {
    const done = await sendEndNotice(noticeWork(run), sub.id);
    if (done) report.noticed(noticeLine(done.sub, run.o.at, done.outcome, done.detail));
  } catch (error) {
    report.noticed(noticeLine(sub, run.o.at, "error", `the store failed: ${(error as Error).message}`));
  }
}

/** What sending end notices needs of a run: its store and clock, meta.json's name, its print-key POST. */
function noticeWork(run: RunSettings): NoticeWork {
  const { o, cache } = run;
  return {
    store: o.store,
    at: o.at,
    dryRun: o.dryRun,
    sealKey: o.sealKey,
    jobs: run.jobs,
    on: (slug) => o.endNotice?.(slug) ?? true,
    subscribeUrl: (slug) => new URL(slug ? `/${slug}/subscribe/` : "/subscribe/", o.publicOrigin ?? o.origin).href,
    name: async (slug) => {
      const meta = await cache.metaOf(slug);
      return "error" in meta ? { error: meta.error } : meta.name;
    },
    post: (sub, page, boundMs) => postToPrinter({ ...o, timeoutMs: boundMs }, sub, page, page.from),
  };
}

/** The slip as the print key takes it: HTML in UTF-8, from the publication. */
function slipPage(name: string, subscribeUrl: string): Page {
  return {
    bytes: new TextEncoder().encode(endNoticePage(name, subscribeUrl)),
    type: "text/html; charset=utf-8",
    from: name,
  };
}

/**
 * Whether each publication of a built site prints the end slip: all do but
 * those whose publication.json says `"end_notice": false` (the site index's
 * noEndNotice); "" is the publication at the site root.
 */
export function endNoticesOf(site: string): (slug: string) => boolean {
  return (slug) => {
    const index = siteIndexOf(site);
    const name = slug || index.root || "";
    return !(index.noEndNotice ?? []).includes(name);
  };
}
