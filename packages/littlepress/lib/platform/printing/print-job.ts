// The one runner of print jobs (lib/model/print-job.ts's lifecycle): a day's
// delivery, an end slip and a push copy all claim, send and settle here, and
// only say where their record is kept, what to print and how to send it.
//
//   claim:  one conditional write of the job's record (created if new, or
//           taken over from the version read), so overlapping runs never both send;
//   prepare: what to print (an edition asked, a slip made), while claimed;
//   check:  the claim read back before the send, unless it is a first claim
//           young enough that no other run can have taken it over;
//   send:   within the print service's in-flight limit (in-flight.ts) and the
//           run's time, which bounds how long the send may wait for its answer;
//   settle: one conditional write of what happened.
//
// A run that dies between a send and its settle leaves a claim that a later
// run takes over once stale: that page can print twice. That one write is the
// window; everywhere else a run that dies sends nothing twice.
import { CLAIMED, claimJob, jobNext, stillClaimed, type JobRecord, type PrintResult } from "../../model/print-job.ts";
import type { Stored } from "../stores/state-store.ts";
import type { ServiceLimits } from "./in-flight.ts";

/** Where a job's record is kept: read with its version, written only over what was read. */
export interface JobSlot<R extends JobRecord> {
  read(): Promise<Stored<R> | undefined>;
  /** Writes a first claim where nothing is yet: its version, or undefined when another run was first. */
  create(rec: R): Promise<string | undefined>;
  /** Writes `rec` over `over` (as read): false when another writer changed it first. */
  write(rec: R, over: Stored<R>): Promise<boolean>;
  /** Takes back a first claim that sent nothing. */
  remove(): Promise<void>;
}

/** A page as a printer takes it, and who it is from (the publication's name, which sirius prints in its header). */
export interface Page {
  bytes: ArrayBuffer | Uint8Array;
  type: string;
  from: string;
}

/** One job: where its record is, and what claiming it leads to. `A` is what preparing it gives. */
export interface PrintJob<R extends JobRecord, A> {
  slot: JobSlot<R>;
  /** The record of a first claim, for a job never tried; none: the job's record is always there (owed). */
  first?(): R;
  /** The state of a job owed and not tried yet ("due" for an end slip). */
  owed?: string;
  /** The print service the page goes to (its origin), whose in-flight limit the send waits for. */
  service: string;
  /** What to print, once claimed (the edition asked, the slip made). */
  prepare(claimed: R): Promise<A>;
  /** The page to send from what was prepared; undefined: nothing to print. */
  page(prepared: A): Page | undefined;
  /** Sends the page, waiting at most `boundMs` for the answer. */
  send(page: Page, boundMs: number): Promise<PrintResult>;
  /** The claimed record with what happened (`print` undefined: nothing was sent). */
  settle(claimed: R, prepared: A, print: PrintResult | undefined): R;
  /** The record once its tries are spent; none: it is left as it is. */
  gaveUp?(rec: R): R;
}

/** What a run gives every job: its clock, its limits and its time. */
export interface JobRunner {
  /** The run's instant, which the records are dated with. */
  at: Date;
  /** The run's wall clock (ms). */
  now(): number;
  /** A first claim younger than this (on `now`) is settled from the version its write answered. */
  recheckMs: number;
  limits: ServiceLimits;
  /** How long a send may take if started now, within the run's time; undefined: too late to start one. */
  sendWindow(): number | undefined;
  /** Only say what would be done: nothing claimed, sent or written. */
  dryRun?: boolean;
}

/** What became of a job in one run. */
export type JobRun<R extends JobRecord, A> =
  /** Claimed, sent (or not, with nothing to print), and settled: `record` as written. */
  | { step: "settled"; record: R; prepared: A }
  /** Nothing to do: settled already, or not due yet. */
  | { step: "found"; record: R }
  /** Another run holds its claim. */
  | { step: "held" }
  /** Its tries were spent: `record` as written (or as found, for a kind that keeps nothing of it). */
  | { step: "gave-up"; record: R }
  /** The run's time was up before the send: the claim was given back. */
  | { step: "late" }
  /** This run was so slow that another took its claim over: `record` is what it came to, not written. */
  | { step: "taken-over"; record: R }
  /** A dry run's: what would be claimed, and what preparing it gave. */
  | { step: "would"; record: R; prepared: A };

/** Runs one job: claim, prepare, check, send, settle. Throws when the store fails (a claim left goes stale). */
export async function runJob<R extends JobRecord, A>(job: PrintJob<R, A>, runner: JobRunner): Promise<JobRun<R, A>> {
  // A job never tried is claimed by creating its record, with no read first: the common case takes one write.
  const fresh = runner.dryRun ? undefined : job.first?.();
  const version = fresh && (await job.slot.create(fresh));
  if (fresh && version) return claimed(job, runner, { value: fresh, version }, undefined);
  const held = await job.slot.read();
  const next = jobNext(held?.value, runner.at, job.owed);
  if (next === "leave")
    return held!.value.state === CLAIMED ? { step: "held" } : { step: "found", record: held!.value };
  if (next === "give-up") {
    // Its tries are spent: the record as it ends (a kind that keeps nothing of it leaves it as found).
    if (!job.gaveUp) return { step: "found", record: held!.value };
    const record = job.gaveUp(held!.value);
    return runner.dryRun || (await job.slot.write(record, held!)) ? { step: "gave-up", record } : { step: "held" };
  }
  const base = held ? claimJob(held.value, runner.at) : job.first?.();
  // Gone between the create and the read (or a kind whose record is always there, and it went): not ours.
  if (!base || (!held && !runner.dryRun)) return { step: "held" };
  if (runner.dryRun) return { step: "would", record: base, prepared: await job.prepare(base) };
  return (await job.slot.write(base, held!))
    ? claimed(job, runner, { value: base, version: "" }, held)
    : { step: "held" };
}

/** A job this run has claimed (`held`: the record it took over): prepared, checked, sent and settled. */
async function claimed<R extends JobRecord, A>(
  job: PrintJob<R, A>,
  runner: JobRunner,
  claim: Stored<R>,
  held: Stored<R> | undefined,
): Promise<JobRun<R, A>> {
  const claimedAt = runner.now();
  const prepared = await job.prepare(claim.value);
  const ours = await stillOurs(job, claim, !held && runner.now() - claimedAt < runner.recheckMs);
  if (!ours) return { step: "taken-over", record: job.settle(claim.value, prepared, undefined) };
  const page = job.page(prepared);
  const print = page ? await send(job, page, runner) : undefined;
  if (print === "late") {
    await (held ? job.slot.write(held.value, ours) : job.slot.remove());
    return { step: "late" };
  }
  const record = job.settle(claim.value, prepared, print);
  return (await job.slot.write(record, ours)) ? { step: "settled", record, prepared } : { step: "taken-over", record };
}

/** The claim as the store holds it while it is still this run's; a young first claim is taken as it was written. */
async function stillOurs<R extends JobRecord>(
  job: PrintJob<R, unknown>,
  claim: Stored<R>,
  young: boolean,
): Promise<Stored<R> | undefined> {
  if (young) return claim;
  const held = await job.slot.read();
  return held && stillClaimed(held.value, claim.value) ? held : undefined;
}

/** The send, once the service has room for it, unless the run's time was up by then ("late": nothing sent). */
function send<R extends JobRecord>(job: PrintJob<R, unknown>, page: Page, runner: JobRunner) {
  return runner.limits(job.service).run(
    async (): Promise<PrintResult | "late"> => {
      const bound = runner.sendWindow();
      return bound === undefined ? "late" : job.send(page, bound);
    },
    // An answer the service gave after doing its work; anything else counts against its limit.
    (print) => print === "late" || print === "sent" || print === "offline" || print === "unknown-key",
  );
}
