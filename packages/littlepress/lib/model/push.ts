// Push editions: BERG's platform printed push publications as soon as there
// was news. Here an author marks one edition push (front matter `push: true`,
// or a data row's `push` column); the build records it in the publication's
// index, and the next delivery run (or `npm run push`) prints it once to every
// subscription that was live when it was published, with its own settings,
// outside the daily delivery (no delivery_count, no last ETag moved).
//
// Which subscriptions get it: live ones (not ended when the run comes to
// them) made before the push was published, that is before the build that
// first carried it (the first run that sees a push stamps it with its build's
// time, once, in the store: a later rebuild does not move it). A subscription
// made after that does not get it.
//
// Once per subscription and push edition: one claim record each, created only
// if new (a conditional write), settled after the print key answered, retried
// like a delivery when the printer is offline, taken over from a run that
// died once stale. The one gap is the deliveries': a run that dies after the
// print key took the page and before the one write that settles its claim
// leaves a claim that a later run takes over, and that page prints twice.
import type { EditionKey } from "./edition-key.ts";
import { firstTry, tryState, type PrintResult } from "./print-job.ts";

/**
 * Where one subscription's copy of a push edition stands:
 * - "sending": claimed by a run at work (or one that crashed: taken over once stale);
 * - "printed": the printer took it;
 * - "not-printed": nothing to print for this subscriber (no copy built for its settings);
 * - "offline", "failed": the printer was offline, or the print key could not be reached:
 *   retried by later runs, backing off as deliveries do, up to MAX_ATTEMPTS tries;
 * - "unknown": the copy was sent and no answer came: it may have printed, so it is not sent again;
 * - "unknown-key": the print key no longer exists (404); not retried (the next delivery ends it).
 */
export type PushState = "sending" | "printed" | "not-printed" | "offline" | "failed" | "unknown" | "unknown-key";

/** One subscription's copy of one push edition: the store keeps one per subscription and edition. */
export interface PushRecord {
  subscription: string;
  slug: string;
  edition: EditionKey;
  state: PushState;
  /** When it last changed (ISO 8601); for "sending", when it was claimed. */
  at: string;
  attempts: number;
  etag: string | null;
  /** What happened, in words, for the report and the desk. */
  detail: string;
}

/** A push edition as the store keeps it once a run has seen it. */
export interface PushEntry {
  slug: string;
  edition: EditionKey;
  /** The time of the build that first carried it: subscriptions made after it do not get it. */
  published: string;
  /** When a run found nothing more to do for it (every copy settled); later runs skip it. */
  done?: string;
}

/** What a push mark says: front matter's `push: true`, or a data row's cell ("true", "yes", "1"; empty is no). */
export function pushMark(value: unknown): boolean | { problem: string; fix: string } {
  if (value === undefined || value === null || value === false || value === 0) return false;
  if (value === true || value === 1) return true;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (["true", "yes", "1"].includes(v)) return true;
    if (["", "false", "no", "0"].includes(v)) return false;
  }
  return {
    problem: `push is ${JSON.stringify(value)}, which is neither true nor false`,
    fix: "write push: true to print this edition at once to every subscriber (or leave it out)",
  };
}

/** Whether the subscription gets the push published at `published`: live, and made before it. */
export function pushEligible(sub: { ended: unknown; created: string }, published: string): boolean {
  return !sub.ended && Date.parse(sub.created) <= Date.parse(published);
}

export function firstPushClaim(subscription: string, slug: string, edition: EditionKey, at: Date): PushRecord {
  return { subscription, slug, edition, etag: null, ...firstTry(at) };
}

/** The record after the print key answered (or after there was nothing to print: `print` undefined, with why). */
export function settlePush(
  rec: PushRecord,
  print: PrintResult | { nothing: string },
  etag: string | null,
  at: Date,
): PushRecord {
  const base = { ...rec, at: at.toISOString(), etag };
  if (typeof print === "object" && "nothing" in print) return { ...base, state: "not-printed", detail: print.nothing };
  return { ...base, ...tryState(print) };
}
