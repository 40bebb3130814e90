// One subscription's delivery for its day, top-down: claim it (claims.ts), ask
// the publication (asking.ts), post the page to the print key
// (../printers/print-key-post.ts), settle the record and the subscription
// (settling.ts). Never throws: a store that fails under a delivery is its
// report line, and its claim goes stale for the next run to resume.
import { editionAction, type EditionAction } from "../../model/delivery-rules.ts";
import {
  deliveryExpired,
  type DeliveryRecord,
  type DueDelivery,
  type EditionAnswer,
  type PrintResult,
  type Subscription,
} from "../../model/subscription.ts";
import { printerName } from "../../model/printer-name.ts";
import { postToPrinter } from "../printers/print-key-post.ts";
import type { Stored } from "../stores/state-store.ts";
import { pruneDeliveries } from "../stores/subscriptions.ts";
import { editionUrl, type FetchedEdition } from "./asking.ts";
import { claim, CLAIM_RECHECK_MS, claimHeld, peek, undoClaim, type Claimed } from "./claims.ts";
import { lineOf, storeFailedLine, type DeliveryLine } from "./report-lines.ts";
import type { Run } from "./run.ts";
import { finishSettled, settleDelivery, takenOver } from "./settling.ts";

/** What asking gave: the answer, its page, what to do with it, and who it is from (meta.json's name, once read). */
export interface Asked {
  edition: EditionAnswer;
  page?: FetchedEdition["page"];
  action: EditionAction;
  from?: string;
}

/** One subscription's delivery for the day `when`: claim, ask, print, record. */
export async function deliverOne(
  run: Run,
  stored: Stored<Subscription>,
  when: DueDelivery,
): Promise<DeliveryLine | undefined> {
  const { o } = run;
  const sub = stored.value;
  let pruning: Promise<unknown> | undefined;
  try {
    const claimed = o.dryRun ? await peek(o.store, o.at, sub, when) : await claim(o.store, o.at, sub, when);
    if (claimed && "done" in claimed) return void (await finishSettled(run, stored, claimed.done));
    if (!claimed) return void run.held.add(sub.id);
    const claimedAt = run.now();
    // The day's first delivery prunes the subscription's old records (once a day, bounded, in time only), beside
    // the delivery rather than after it: the store round trips on a delivery's way are what a batch waits on.
    if (claimed.attempts === 1 && !o.dryRun) pruning = pruneOldRecords(run, sub);
    const asked = await ask(run, sub, claimed);
    if (o.dryRun) return dryRunLine(sub, claimed, asked);
    return await printAndSettle(run, stored, claimed, claimedAt, asked);
  } catch (error) {
    return storeFailedLine(sub, when, error);
  } finally {
    await pruning;
  }
}

/** The publication's meta.json and the day's edition, both from the run's cache, and what the answer means. */
async function ask(run: Run, sub: Subscription, rec: DeliveryRecord): Promise<Asked> {
  const meta = await run.cache.metaOf(sub.slug);
  const fetched: FetchedEdition =
    "error" in meta
      ? { status: null, etag: null, error: meta.error }
      : await run.cache.editionOf(editionUrl(run.o.origin, sub, rec, meta));
  const { page, ...edition } = fetched;
  const action = editionAction(edition.status, edition.etag, sub.lastEtag);
  return { edition, page, action, ...(!("error" in meta) && { from: meta.name }) };
}

/**
 * Posts what is to print and settles the claim. The claim is this run's until it goes stale (STALE_CLAIM_MS): a
 * first claim younger than o.claimRecheckMs is settled from the version its create answered, without reading it
 * back; an older one (a slow edition/), or a reclaim, is read back before the POST. Either way one conditional
 * write settles the record after the POST: the window in which a crash prints a page twice is that one write.
 */
async function printAndSettle(
  run: Run,
  stored: Stored<Subscription>,
  claimed: Claimed,
  claimedAt: number,
  asked: Asked,
): Promise<DeliveryLine | undefined> {
  const { o } = run;
  const sub = stored.value;
  const { version, previous, ...rec } = claimed;
  const fresh = version && run.now() - claimedAt < (o.claimRecheckMs ?? CLAIM_RECHECK_MS);
  const held = fresh ? version : await claimHeld(o.store, rec);
  if (!held) return takenOver(sub, rec, asked.edition.etag);
  let print: PrintResult | undefined;
  if (asked.action === "print" && asked.page && asked.from !== undefined) {
    const posted = await post(run, sub, asked.page, asked.from);
    if (posted === "late") {
      // Nothing was sent: the claim is undone (it is this run's, and fresh), and the next run takes the delivery.
      await undoClaim(o.store, rec, previous, held);
      run.left++;
      return undefined;
    }
    print = posted;
  }
  return settleDelivery(run, stored, rec, asked.edition, print, held);
}

/** The POST to the print key, once there is a place among those in flight, unless that took the run past its time. */
function post(run: Run, sub: Subscription, page: NonNullable<Asked["page"]>, from: string) {
  const { o } = run;
  return run.posts(async () =>
    run.now() < run.times.readBy - o.timeoutMs ? postToPrinter(o, sub, page, from) : ("late" as const),
  );
}

/** The subscription's delivery records older than the run keeps, deleted (bounded by the run's budget). */
function pruneOldRecords(run: Run, sub: Subscription): Promise<unknown> {
  const { o } = run;
  const expired = (date: string) => deliveryExpired(date, o.at, run.keepDays);
  // A store that fails here fails the delivery's own writes too, and says so there; the next day prunes again.
  return pruneDeliveries(o.store, sub.id, expired, run.prunes).catch(() => false);
}

/** A dry run's line: what would be done. */
function dryRunLine(sub: Subscription, rec: DeliveryRecord, asked: Asked): DeliveryLine {
  const prints = asked.action === "print";
  const detail = prints ? `would print on ${printerName(sub.printer)}` : `would not print (${asked.action})`;
  return lineOf(sub, rec, prints ? "would print" : "would not print", detail, asked.edition.etag);
}
