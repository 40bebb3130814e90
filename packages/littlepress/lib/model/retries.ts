// When a claim on a print is taken to be a crashed run's, and how often and how
// soon a print that failed (an offline printer, an unreachable publication) is
// tried again: the same for a day's delivery, an end slip and a push edition.

/** How long a "sending" claim holds: older, its run is taken to have crashed and the next run resumes it. */
export const STALE_CLAIM_MS = 5 * 60_000;
/** A day's delivery is tried at most this often (an offline printer, an unreachable publication). */
export const MAX_ATTEMPTS = 24;
/** The wait before the first retry of an offline or failed delivery: the next scheduled run. */
export const RETRY_FIRST_MS = 15 * 60_000;
/** The longest wait between retries: a printer switched back on prints the day's edition within it. */
export const RETRY_MAX_MS = 2 * 60 * 60_000;
/** Runs are scheduled every 15 minutes, give or take: a retry due this much later is taken now. */
export const RETRY_EARLY_MS = 60_000;

/** The wait after the `attempts`th try of a delivery failed: 15 minutes, then 30, 60, 120, and 120 from then on. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

/** A print's state as its record keeps it: a delivery's, an end slip's, a push copy's. */
export interface PrintAttempts {
  state: string;
  /** When it last changed (ISO 8601); for "sending", when it was claimed. */
  at: string;
  attempts: number;
}

/**
 * Whether a print is due to be tried again at `at`, its tries not counted: an
 * offline or failed one once its retry delay is over (backing off, so that a
 * print key that keeps failing is not asked every run), a "sending" one once
 * its claim is stale.
 */
export function retryDue(rec: PrintAttempts, at: Date): boolean {
  const since = at.getTime() - Date.parse(rec.at);
  if (rec.state === "offline" || rec.state === "failed") return since >= retryDelayMs(rec.attempts) - RETRY_EARLY_MS;
  return rec.state === "sending" && since >= STALE_CLAIM_MS;
}

/** Whether a run may (re)claim a print at `at`: due again, with tries left. */
export const claimable = (rec: PrintAttempts, at: Date): boolean => rec.attempts < MAX_ATTEMPTS && retryDue(rec, at);
