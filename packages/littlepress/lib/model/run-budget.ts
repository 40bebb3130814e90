// How a delivery run keeps to its time, whatever the printers do: a scheduled
// function is stopped after 30 seconds on Netlify, so a run has a budget, and
// starts no delivery that could outlast it. A delivery makes at most three
// requests one after the other (the publication's meta.json, its /edition/,
// the POST to the print key), each bounded, body and all, by the run's
// per-request timeout; so a delivery started before the budget less three
// timeouts ends within the budget. What is not started is left to the next run.

/** Per request, body included: with three requests a delivery, a delivery takes 15 s at most. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** A Netlify scheduled function is stopped after 30 s: the run keeps 5 s to spare. */
export const RUN_BUDGET_MS = 25_000;
/** A Netlify Background Function is stopped after 15 minutes. */
export const BACKGROUND_LIMIT_MS = 15 * 60_000;
/** A run in a background function (a batch of deliveries, the pushes of a deploy) keeps a minute to spare. */
export const BACKGROUND_BUDGET_MS = BACKGROUND_LIMIT_MS - 60_000;

/** Requests one delivery makes one after the other at most: meta.json, /edition/, the print key's POST. */
export const REQUESTS_PER_DELIVERY = 3;

/** A run's time, from its start (milliseconds on the run's own clock). */
export interface RunTimes {
  /** No delivery starts at or after this. */
  startBy: number;
  /** No subscription is read at or after this (they are left unchecked): one timeout for what is in flight. */
  readBy: number;
}

/** The times of a run started at `start`, or why the budget cannot hold a single delivery. */
export function runTimes(start: number, budgetMs: number, timeoutMs: number): RunTimes | { error: string } {
  if (!(timeoutMs > 0) || !(budgetMs > REQUESTS_PER_DELIVERY * timeoutMs))
    return {
      error:
        `a run's budget (${budgetMs} ms) must be more than ${REQUESTS_PER_DELIVERY} times ` +
        `its per-request timeout (${timeoutMs} ms), or no delivery could start`,
    };
  return { startBy: start + budgetMs - REQUESTS_PER_DELIVERY * timeoutMs, readBy: start + budgetMs - timeoutMs };
}
