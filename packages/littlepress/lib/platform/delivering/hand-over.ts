// The hand-over stage: a batch of subscriptions as the store keeps it, and as
// the scheduled run hands it to a background function. A batch is kept
// (batches/<not before>.<id>) from before it is handed over until it is done:
// a batch whose function died, or whose deliveries must be tried again (an
// offline printer, an unreachable publication, an end slip to retry), is
// handed over again by the first run after its "not before" (scheduled-run.ts).
//
// A batch is handed over by name only, signed: an HMAC-SHA256, under a key
// derived from the site's sealing key (LITTLEPRESS_SEAL_KEY), over the body
// (the batch's store key and the run's instant). The background function
// refuses anything else, and an instant more than MAX_SKEW_MS from its own
// clock (an old signed body replayed). What a batch delivers comes from the
// store (its subscriptions, their sealed print keys) and the site's own
// address: the body names no URL, so an invocation cannot make the site fetch
// anything it would not fetch on its schedule.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { BACKGROUND_LIMIT_MS } from "../../model/run-budget.ts";

/** A batch as kept in the store. */
export interface StoredBatch {
  /** Subscription ids. */
  ids: string[];
  /** A sweep's batch: repairs the indexes of its subscriptions. */
  repair?: boolean;
  /** When it was first planned (ISO 8601). */
  made: string;
  /** How many times it was handed over. */
  handed: number;
}

/** What a signed body says: which batch to run, at which instant. */
export interface BatchCall {
  batch: string;
  at: string;
}

export const BATCHES = "batches/";
/** A batch handed over and not finished by then died with its function: the next run hands it over again. */
export const BATCH_RETRY_MS = BACKGROUND_LIMIT_MS + 60_000;
/** A batch's deliveries still to try (offline printers, …) are handed over again this much later. */
export const BATCH_AGAIN_MS = 15 * 60_000;
/** A batch older than this is dropped: its day's deliveries are over, and the next day's are planned anew. */
export const BATCH_MAX_AGE_MS = 26 * 60 * 60_000;
/** A signed body whose instant is further than this from the background function's clock is refused. */
export const MAX_SKEW_MS = 20 * 60_000;
/** The background function's name (functions/deliver-background.mts), and its address on a site. */
export const BATCH_FUNCTION = "deliver-background";
export const batchFunctionUrl = (origin: string) => new URL(`/.netlify/functions/${BATCH_FUNCTION}`, origin);
/** The header that carries a body's signature. */
export const SIGNATURE_HEADER = "X-Littlepress-Signature";
/** A hand-over that Netlify has not answered in this long failed: the batch is kept for a later run. */
const HAND_TIMEOUT_MS = 10_000;

/** A batch's key: batches/<not before, UTC, to the second>.<random id>. */
export const batchKey = (notBefore: number, id: string) =>
  `${BATCHES}${new Date(notBefore).toISOString().replace(/[-:]|\.\d+Z$/g, "")}.${id}`;
const BATCH_KEY = /^batches\/(\d{8}T\d{6})\.([A-Za-z0-9_-]{1,32})$/;

/** When a kept batch may be handed over (ms), from its key; undefined when the key is not a batch's. */
export function notBeforeOf(key: string): number | undefined {
  const m = BATCH_KEY.exec(key);
  if (!m) return undefined;
  const t = m[1]!;
  return Date.parse(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 11)}:${t.slice(11, 13)}:${t.slice(13, 15)}Z`);
}

export const newId = () => randomBytes(9).toString("base64url");

/** The key batches are signed with: derived from the sealing key, never the sealing key itself. */
function signingKey(sealKey: Buffer): Buffer {
  return createHmac("sha256", sealKey).update("littlepress delivery batches v1").digest();
}

/** A batch call as the body a background function takes, and its signature. */
export function signBatchCall(call: BatchCall, sealKey: Buffer): { body: string; signature: string } {
  const body = JSON.stringify({ batch: call.batch, at: call.at });
  return { body, signature: createHmac("sha256", signingKey(sealKey)).update(body).digest("hex") };
}

/**
 * The batch call a body says, when `signature` is its signature under
 * `sealKey`, it names a batch, and its instant is within MAX_SKEW_MS of
 * `now`; else why not (never more than that: the answer goes nowhere).
 */
export function openBatchCall(
  body: string,
  signature: string | null,
  sealKey: Buffer,
  now: Date,
): BatchCall | { refused: string } {
  const expected = createHmac("sha256", signingKey(sealKey)).update(body).digest();
  const given = Buffer.from(signature ?? "", "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { refused: "not signed" };
  let call: Partial<BatchCall>;
  try {
    call = JSON.parse(body) as Partial<BatchCall>;
  } catch {
    return { refused: "not JSON" }; // the reason is all the log needs
  }
  if (typeof call.batch !== "string" || notBeforeOf(call.batch) === undefined) return { refused: "no batch" };
  const at = Date.parse(String(call.at));
  if (!Number.isFinite(at) || Math.abs(at - now.getTime()) > MAX_SKEW_MS) return { refused: "out of time" };
  return { batch: call.batch, at: new Date(at).toISOString() };
}

/**
 * Hands a batch to the site's background function (batches.ts's deliverBackground): a signed POST, which
 * Netlify answers 202 at once. Throws when it is not taken (the plan keeps the batch).
 */
export function handOverByPost(origin: string, sealKey: Buffer): (call: BatchCall) => Promise<void> {
  return async (call) => {
    const { body, signature } = signBatchCall(call, sealKey);
    const res = await fetch(batchFunctionUrl(origin), {
      method: "POST",
      headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature },
      body,
      signal: AbortSignal.timeout(HAND_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.status !== 202) throw new Error(`deliver-background answered ${res.status}`);
  };
}
