// One print job: every page the platform's side sends to a printer (a day's
// delivery, an end slip, a push copy, a print on a receipt printer) goes
// through the same lifecycle, written once here as pure transitions:
//
//   owed ──claim──▶ claimed ("sending") ──send──▶ printed
//                                          ├────▶ unknown   (sent, no answer: never resent)
//                                          ├────▶ offline / failed (surely not taken: retried, backing off)
//                                          └────▶ unknown-key (the print key is gone: never retried)
//
// A claim is a conditional write of the job's record (lib/platform/printing/
// print-job.ts does the writes), so overlapping runs never send the same job
// twice; a claim left by a run that died is taken over once it is stale. What
// the printer or print-key service said decides the rest:
// - it said it took the page: printed;
// - it surely did not take it (the connection was refused, nothing was sent,
//   it answered 504 offline or another error status): failed or offline, and
//   tried again later, backing off;
// - the page was sent and no answer came (a time-out after the body went, a
//   connection reset mid-answer): unknown. The service may be printing it now
//   (sirius renders before it answers, and goes on when the client hangs up),
//   so it is never sent again: one page prints once, or is said to be unknown.

/** The first retry waits for the next scheduled run. */
export const RETRY_FIRST_MS = 15 * 60_000;
/** The longest wait between retries: a printer switched back on prints the day's page within it. */
export const RETRY_MAX_MS = 2 * 60 * 60_000;
/** Runs are scheduled every 15 minutes, give or take: a retry due this much later is taken now. */
export const RETRY_EARLY_MS = 60_000;
/** A job is tried at most this often (an offline printer, an unreachable publication). */
export const MAX_ATTEMPTS = 24;
/** How long a claim holds: older, its run is taken to have died, and the next run resumes the job. */
export const STALE_CLAIM_MS = 5 * 60_000;

/** The state of a job that a run has claimed and is at work on. */
export const CLAIMED = "sending";

/**
 * What the printer or its print-key service said of a page sent to it:
 * - "sent": it took the page (sirius's 200);
 * - "offline": it could not print now (sirius's 504): not taken, tried again later;
 * - "unknown-key": the print key does not exist (404);
 * - `error`: surely not taken (refused, never sent, or an error status answered): tried again later;
 * - `unknown`: the page was sent and no answer came; it may have printed, so it is never sent again.
 */
export type PrintResult = "sent" | "offline" | "unknown-key" | { error: string } | { unknown: string };

/** A job's record, as each kind keeps it (a delivery record, an end notice, a push record). */
export interface JobRecord {
  /** CLAIMED, or what the last try came to ("printed", "offline", "failed", "unknown", …). */
  state: string;
  /** When it last changed (ISO 8601); for a claim, when it was claimed. */
  at: string;
  /** Claims made so far. */
  attempts: number;
  /** What happened, in words, for people. */
  detail: string;
}

/** Where a job's try ended, for every kind: the state its record takes, and what the print key's answer says of it. */
export type TryState = "printed" | "offline" | "failed" | "unknown" | "unknown-key";

/** The wait after the `attempts`th try failed: 15 minutes, then 30, 60, 120, and 120 from then on. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

/**
 * Whether a job is due to be tried again at `at`, its tries not counted: an
 * offline or failed one once its retry delay is over, a claim once it is
 * stale. Anything else (printed, unknown, settled for good) never is.
 */
export function retryDue(rec: JobRecord, at: Date): boolean {
  const since = at.getTime() - Date.parse(rec.at);
  if (rec.state === "offline" || rec.state === "failed") return since >= retryDelayMs(rec.attempts) - RETRY_EARLY_MS;
  return rec.state === CLAIMED && since >= STALE_CLAIM_MS;
}

/** Whether a run may claim the job again at `at`: due again, with tries left. */
export const claimable = (rec: JobRecord, at: Date): boolean => rec.attempts < MAX_ATTEMPTS && retryDue(rec, at);

/**
 * What a run does with a job at `at`: "claim" it (never tried, owed, due
 * again), "give-up" (due again, its tries spent), or "leave" it (settled, held
 * by another run, or not due yet). `owed` names the state of a job owed and not yet tried.
 */
export function jobNext(rec: JobRecord | undefined, at: Date, owed?: string): "claim" | "give-up" | "leave" {
  if (!rec || (owed !== undefined && rec.state === owed)) return "claim";
  if (!retryDue(rec, at)) return "leave";
  return rec.attempts >= MAX_ATTEMPTS ? "give-up" : "claim";
}

/** A job's first claim at `at`, for a kind whose record that claim makes (each kind adds its own fields). */
export function firstTry(at: Date): { state: typeof CLAIMED; at: string; attempts: number; detail: string } {
  return { state: CLAIMED, at: at.toISOString(), attempts: 1, detail: "claimed" };
}

/**
 * Whether a job may still print, now or on a later run: claimed, or offline or
 * failed, with tries left (false: settled for good, or its tries spent).
 */
export function jobOpen(rec: JobRecord): boolean {
  if (rec.attempts >= MAX_ATTEMPTS) return false;
  return rec.state === CLAIMED || rec.state === "offline" || rec.state === "failed";
}

/** The job claimed at `at`: one more try. */
export function claimJob<R extends JobRecord>(rec: R, at: Date): R {
  const detail = rec.attempts ? "claimed again" : "claimed";
  return { ...rec, state: CLAIMED, at: at.toISOString(), attempts: rec.attempts + 1, detail };
}

/** Whether `held` is still the claim `claimed` (this run's), as read back from the store. */
export const stillClaimed = (held: JobRecord | null | undefined, claimed: JobRecord): boolean =>
  !!held && held.state === CLAIMED && held.at === claimed.at && held.attempts === claimed.attempts;

/** The state a try ends in, and its words, from what the print key said. */
export function tryState(print: PrintResult): { state: TryState; detail: string } {
  if (print === "sent") return { state: "printed", detail: "sent to the printer" };
  if (print === "offline") return { state: "offline", detail: "printer offline (504)" };
  if (print === "unknown-key") return { state: "unknown-key", detail: "print key unknown (404)" };
  if ("unknown" in print)
    return { state: "unknown", detail: `${print.unknown}: it may have printed, so it is not sent again` };
  return { state: "failed", detail: print.error };
}

/**
 * Whether the printer's side was reached (it took the page) or not, for a streak of failing days; none: it cannot be
 * told.
 */
export function printKeyReached(print: PrintResult): "reached" | "failed" | undefined {
  if (print === "sent") return "reached";
  if (print === "unknown-key" || (typeof print === "object" && "unknown" in print)) return undefined;
  return "failed";
}
