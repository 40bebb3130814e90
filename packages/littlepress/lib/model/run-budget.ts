// How a delivery run keeps to its time, whatever the printers do: a function
// is stopped at its limit (30 seconds for a scheduled one on Netlify, 15
// minutes for a background one), so a run has a budget, and starts no
// delivery that could outlast it. A delivery asks the publication twice, one
// request after the other (its meta.json, its /edition/), each bounded, body
// and all, by the run's per-request timeout; then it sends the page to the
// print key. sirius answers a print only once it has rendered the page and
// loaded its images (platform.md: 0.3-1.7 s alone, 7-11 s with 48 at once), so
// a send may wait as long as the run has left, up to PRINT_TIMEOUT_MS, and
// starts only with at least two timeouts left: a send cut off after its page
// went out is "unknown" (print-job.ts), never sent again, so it gets all the
// time there is. What is not started is left to the next run.

/** Per request to the publication, body included. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** The longest a send waits for the print service's answer (it renders first). */
export const PRINT_TIMEOUT_MS = 120_000;
/** A Netlify scheduled function is stopped after 30 s: the run keeps 5 s to spare. */
export const RUN_BUDGET_MS = 25_000;
/** A Netlify Background Function is stopped after 15 minutes. */
export const BACKGROUND_LIMIT_MS = 15 * 60_000;
/** A run in a background function (a batch of deliveries, the pushes of a deploy) keeps a minute to spare. */
export const BACKGROUND_BUDGET_MS = BACKGROUND_LIMIT_MS - 60_000;

/** Requests to the publication one delivery makes one after the other: meta.json, /edition/. */
export const ASKS_PER_DELIVERY = 2;
/** A send starts only with this many timeouts of the run left: time for a loaded service to render. */
export const SEND_WINDOW_TIMEOUTS = 2;
/** A delivery's timeouts in all: its asks, then the shortest window its send starts with. */
export const REQUESTS_PER_DELIVERY = ASKS_PER_DELIVERY + SEND_WINDOW_TIMEOUTS;

/** A run's time, from its start (milliseconds on the run's own clock). */
export interface RunTimes {
  /** No delivery starts at or after this. */
  startBy: number;
  /** No subscription is read at or after this (they are left unchecked): one timeout for what is in flight. */
  readBy: number;
  /** The run's end: no send waits past it. */
  endBy: number;
  /** The shortest window a send starts with. */
  sendMinMs: number;
}

/** The times of a run started at `start`, or why the budget cannot hold a single delivery. */
export function runTimes(start: number, budgetMs: number, timeoutMs: number): RunTimes | { error: string } {
  if (!(timeoutMs > 0) || !(budgetMs > REQUESTS_PER_DELIVERY * timeoutMs))
    return {
      error:
        `a run's budget (${budgetMs} ms) must be more than ${REQUESTS_PER_DELIVERY} times ` +
        `its per-request timeout (${timeoutMs} ms), or no delivery could start`,
    };
  return {
    startBy: start + budgetMs - REQUESTS_PER_DELIVERY * timeoutMs,
    readBy: start + budgetMs - timeoutMs,
    endBy: start + budgetMs,
    sendMinMs: SEND_WINDOW_TIMEOUTS * timeoutMs,
  };
}

/**
 * How long a send started at `now` may wait for its answer: what is left of
 * the run, at most `printTimeoutMs`; undefined when less than the shortest
 * window is left (the send does not start).
 */
export function sendWindow(
  times: Pick<RunTimes, "endBy" | "sendMinMs">,
  now: number,
  printTimeoutMs = PRINT_TIMEOUT_MS,
): number | undefined {
  const left = times.endBy - now;
  return left < times.sendMinMs ? undefined : Math.min(left, printTimeoutMs);
}
