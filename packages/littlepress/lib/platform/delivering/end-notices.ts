// Sends a subscription's end notice (lib/model/end-notice.ts): the one slip
// that tells a subscriber the series is over and where to subscribe again.
// A delivery run calls it right after a 410 ends a subscription, and on every
// later run for an ended subscription whose notice is still to do (a crash, an
// offline printer). The slip goes through the same print-key client, with the
// same allow-list and checks, as every delivery (deliver-batch.ts's post).
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
import { postToPrinter, printService, type PrintKeyAccess } from "../printers/print-key-post.ts";
import { runJob, type JobRunner, type JobSlot, type Page, type PrintJob } from "../printing/print-job.ts";
import type { StateStore, Stored } from "../stores/state-store.ts";
import { subscriptionKey } from "../stores/store-keys.ts";
import type { RunCache } from "./asking.ts";
import { noticeLine, type DeliveryLine } from "./report-lines.ts";

/** What sending a notice needs of its run (a delivery run's settings hold it all: run-state.ts). */
export interface NoticeWork {
  store: StateStore;
  /** The run's instant. */
  at: Date;
  /** Only say what would be done. */
  dryRun: boolean;
  /** How a page reaches a print key: the deploy's sealing key, the print-key policy. */
  keys: PrintKeyAccess;
  /** The run's cache, which has each publication's meta.json (its name). */
  cache: Pick<RunCache, "metaOf">;
  /** What every print job of the run is given. */
  jobs: JobRunner;
  /** Whether the publication `slug` prints the slip (its publication.json's `end_notice`). */
  endNotice(slug: string): boolean;
  /** The publication's subscribe page, as people reach it. */
  subscribeUrl(slug: string): string;
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
  const { store, at, dryRun } = w;
  const slot = noticeSlot(store, subscriptionKey(id));
  const read = await slot.read();
  const sub = slot.subscription();
  if (!read || !sub) return undefined;
  const next = noticeNext(read.value, at);
  if (next === "leave") return undefined;
  if (!w.endNotice(sub.slug)) {
    if (dryRun) return { sub, outcome: "would not print", detail: "turned off (end_notice)" };
    const off = offNotice(read.value, at);
    return (await slot.write(off, read)) ? { sub, outcome: off.state, detail: off.detail } : undefined;
  }
  const job = slipJob(w, sub, slot);
  const done = await runJob(job, w.jobs);
  if (done.step === "would") return { sub, outcome: "would print", detail: "would print the end slip" };
  if (done.step === "held" || done.step === "found" || done.step === "late") return undefined;
  if (done.step === "taken-over") return { sub, outcome: "taken over", detail: "another run took this end slip over" };
  if (dryRun) return { sub, outcome: "would not print", detail: "its tries are spent" };
  return { sub: slot.subscription() ?? sub, outcome: done.record.state, detail: done.record.detail };
}

/** The slip as a print job: its record is the subscription's own endNotice. */
function slipJob(
  w: NoticeWork,
  sub: Subscription,
  slot: JobSlot<EndNotice>,
): PrintJob<EndNotice, Page | { error: string }> {
  const { at, keys, cache } = w;
  return {
    slot,
    owed: "due",
    service: printService(sub, keys.sealKey),
    prepare: async () => {
      const meta = await cache.metaOf(sub.slug);
      return "error" in meta ? { error: meta.error } : slipPage(meta.name, w.subscribeUrl(sub.slug));
    },
    page: (prepared) => ("error" in prepared ? undefined : prepared),
    send: (page, boundMs) => postToPrinter({ ...keys, timeoutMs: boundMs }, sub, page, page.from),
    settle: (claimed, prepared, print) =>
      settleNotice(claimed, print ?? { error: "error" in prepared ? prepared.error : "not sent" }, new Date(at)),
    gaveUp: (notice) => gaveUpNotice(notice, at),
  };
}

/** Writes to a subscription at most this many times in a row when other writers keep changing it. */
const WRITE_TRIES = 5;

/**
 * Where an end slip's job record is kept (the ESC/POS print server's slips
 * too): the subscription's own endNotice, written with the end that owes it,
 * so a subscription never ends without its slip being owed. Its claim and
 * settle replace the whole subscription under `key`, so one that another
 * writer changed meanwhile (a delivery's count, an unsubscribe's…) is read
 * again and written over while its notice is still the one the write was for.
 */
export function noticeSlot(
  store: StateStore,
  key: string,
): JobSlot<EndNotice> & { subscription(): Subscription | undefined } {
  let latest: Stored<Subscription> | undefined;
  const read = async () => {
    latest = await store.get<Subscription>(key);
    const notice = latest?.value.ended ? latest.value.endNotice : undefined;
    return notice && latest ? { value: notice, version: latest.version } : undefined;
  };
  return {
    read,
    subscription: () => latest?.value,
    // A notice is written with the end that owes it, never created here, and it always has a record to go back to.
    create: () => Promise.resolve(undefined),
    remove: () => Promise.resolve(),
    write: async (notice, over) => {
      for (let tries = 0; tries < WRITE_TRIES; tries++) {
        const current = latest?.version === over.version ? latest : await store.get<Subscription>(key);
        if (!current || JSON.stringify(current.value.endNotice) !== JSON.stringify(over.value)) return false;
        const value = { ...current.value, endNotice: notice };
        if (await store.replace(key, value, current.version)) {
          latest = { value, version: "" }; // read again before any later write over it
          return true;
        }
        latest = undefined;
      }
      return false;
    },
  };
}

/**
 * Works on an ended subscription's end notice for a delivery run: its line for
 * the run's report (none: nothing to do); a store that fails is said in the
 * line (the next runs do it again).
 */
export async function workOnEndNotice(w: NoticeWork, sub: Subscription): Promise<DeliveryLine | undefined> {
  const failed = (error: Error): NoticeOutcome => ({
    sub,
    outcome: "error",
    detail: `the store failed: ${error.message}`,
  });
  const done = await sendEndNotice(w, sub.id).catch(failed);
  return done && noticeLine(done.sub, w.at, done.outcome, done.detail);
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
