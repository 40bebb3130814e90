// One subscriber's copy of a push edition (push-run.ts), as a print job
// (lib/platform/printing/print-job.ts): its record pushed/<id>/<edition>,
// the copy /edition/ would answer for the subscriber's settings, sent to its
// print key from the publication's name.
import { printerName } from "../../model/printer-name.ts";
import { jobOpen } from "../../model/print-job.ts";
import { firstPushClaim, settlePush, type PushRecord } from "../../model/push.ts";
import { DELIVERY_TIMEOUT_MS, sendWindow, SEND_WINDOW_TIMEOUTS } from "../../model/run-budget.ts";
import type { Subscription } from "../../model/subscription.ts";
import { editionAnswer } from "../../edge/edition-answer.ts";
import { serveCopy } from "../../edge/edition-copy.ts";
import { postToPrinter, printService } from "../printers/print-key-post.ts";
import { serviceLimits } from "../printing/in-flight.ts";
import { runJob, type JobRunner, type Page, type PrintJob } from "../printing/print-job.ts";
import { recordSlot } from "../printing/record-slot.ts";
import { pushedKey } from "../stores/store-keys.ts";
import type { EditionKey } from "../../model/edition-key.ts";
import type { EditionShard } from "../../model/shard.ts";
import type { PublishedPublication } from "../../edge/publication-store.ts";
import type { PrintKeyPolicy } from "../printers/print-key-client.ts";
import type { StateStore } from "../stores/state-store.ts";

/** Copies worked on at once, and the most pages in flight to one print service (default of a run's). */
export const PUSH_CONCURRENCY = 16;

/** What a copy needs of its run (push-run.ts's CopyRun). */
export interface CopyRun {
  store: StateStore;
  sealKey: Buffer;
  printKeys: PrintKeyPolicy;
  at: Date;
  dryRun?: boolean;
  concurrency?: number;
  timeoutMs?: number;
  endBy?: number;
}

/** One line of a push run's report: one copy. */
export interface PushLine {
  slug: string;
  edition: EditionKey;
  subscription: string;
  printer: string;
  /** "printed", "offline", "not-printed", "would print", "taken over", "error", … */
  outcome: string;
  detail: string;
}

/** A push edition found in the built site. */
export interface FoundPush {
  slug: string;
  edition: EditionKey;
  built: string;
  pub: PublishedPublication;
  /** Its shard, read once per run before any copy is rendered (none: not in the built site). */
  shard?: EditionShard;
}

/** What every copy's print job is given: the run's instant and clock, its services' limits, its time. */
export function copyRunner(o: CopyRun): JobRunner {
  const now = () => performance.now();
  const times = { endBy: o.endBy ?? Infinity, sendMinMs: SEND_WINDOW_TIMEOUTS * DELIVERY_TIMEOUT_MS };
  return {
    at: o.at,
    now,
    recheckMs: 0, // a copy's claim is always read back before its send
    limits: serviceLimits(o.concurrency ?? PUSH_CONCURRENCY, now),
    sendWindow: () => sendWindow(times, now(), o.timeoutMs),
    dryRun: o.dryRun,
  };
}

/** Whether the run may still start a copy: time for a send is left. */
const inTime = (o: CopyRun) =>
  o.endBy === undefined || performance.now() < o.endBy - SEND_WINDOW_TIMEOUTS * DELIVERY_TIMEOUT_MS;

export function lineOf(push: FoundPush, sub: Subscription, outcome: string, detail: string): PushLine {
  return {
    slug: push.slug,
    edition: push.edition,
    subscription: sub.id,
    printer: printerName(sub.printer),
    outcome,
    detail,
  };
}

/**
 * One subscription's copy of a push, as a print job: claim, render, print,
 * settle. Its line says what happened ("done": settled before, nothing to say;
 * "left": the run's time was up), and `open` whether it may still print on a later run.
 */
export async function pushOne(
  o: CopyRun,
  jobs: JobRunner,
  push: FoundPush,
  sub: Subscription,
  name: string,
): Promise<PushLine & { open: boolean }> {
  const line = (outcome: string, detail: string, open: boolean) => ({ ...lineOf(push, sub, outcome, detail), open });
  if (!inTime(o)) return line("left", "the run's time was up", true);
  const done = await runJob(copyJob(o, push, sub, name), jobs);
  switch (done.step) {
    case "found":
    case "gave-up":
      return line("done", done.record.detail, jobOpen(done.record));
    case "held":
      return line("done", "another run claimed it", true);
    case "late":
      return line("left", "the run's time was up", true);
    case "would":
      return "nothing" in done.prepared
        ? line("would not print", done.prepared.nothing, false)
        : line("would print", `would print on ${printerName(sub.printer)}`, true);
    case "taken-over":
      return line("taken over", "another run took this copy over", true);
    case "settled":
      return line(done.record.state, done.record.detail, jobOpen(done.record));
  }
}

/** A subscriber's copy of a push edition as a print job. */
function copyJob(
  o: CopyRun,
  push: FoundPush,
  sub: Subscription,
  name: string,
): PrintJob<PushRecord, ReturnType<typeof renderFor>> {
  return {
    slot: recordSlot(o.store, pushedKey(sub.id, push.edition)),
    first: () => firstPushClaim(sub.id, push.slug, push.edition, o.at),
    service: printService(sub, o.sealKey),
    prepare: (): Promise<ReturnType<typeof renderFor>> => Promise.resolve(renderFor(push, sub)),
    page: (copy): Page | undefined => ("nothing" in copy ? undefined : { ...copy, from: name }),
    send: (page, boundMs) => postToPrinter({ ...o, timeoutMs: boundMs }, sub, page, page.from),
    settle: (claimed, copy, print) =>
      settlePush(
        claimed,
        print ?? ("nothing" in copy ? copy : { error: "not sent" }),
        "etag" in copy ? copy.etag : null,
        new Date(o.at.getTime()),
      ),
  };
}

/** The copy of the push edition built for the subscriber's settings, as /edition/ would answer it. */
function renderFor(
  push: FoundPush,
  sub: Subscription,
): { bytes: Uint8Array; type: string; etag: string } | { nothing: string } {
  const { shard } = push;
  if (!shard) return { nothing: `edition ${push.edition} is not in the built site` };
  const decision = serveCopy(push.pub, shard, push.edition, new URLSearchParams(sub.settings));
  const answer = editionAnswer(push.pub, decision, "GET");
  if (answer.status !== 200 || !answer.body)
    return { nothing: decision.status === 200 ? "nothing to print" : decision.reason };
  return {
    bytes: answer.body,
    type: answer.headers["Content-Type"] ?? "text/html; charset=utf-8",
    etag: answer.headers.ETag ?? "",
  };
}
