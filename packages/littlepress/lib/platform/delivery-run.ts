// A delivery run: the platform's side, played for the kit's own subscribers.
// Every subscription due at the run's instant gets its day's /edition/
// request, asked over HTTP exactly as the platform asked; what is to print is
// POSTed to the subscriber's print key. Each delivery is claimed first (one
// record per subscription and date, created only if new), so overlapping runs
// never send twice, and a run that dies halfway leaves claims that the next
// run resumes once they are stale.
//
// Everything a run does is bounded: it starts no delivery after its time
// budget less the longest one can take (run-budget.ts) and leaves the rest to
// the next run; retries back off, and a print key failing day after day is
// paused (subscription.ts); and it prunes, a bounded number of deletions per
// run, what would otherwise pile up: delivery records older than
// keepDeliveriesDays (for the subscriptions it delivers to, after their
// day's first delivery), subscriptions that ended longer ago than that, the
// rate-limit counters of hours that are over, and the live index's stray keys.
//
// A subscription that a 410 ends owes its subscriber one end slip
// (end-notices.ts): sent right after, and by later runs while it is still to do.
import { addDays, utcDateOf } from "../model/dates.ts";
import { eachAtMost } from "../model/each-at-most.ts";
import { noticeAfter, noticeNext } from "../model/end-notice.ts";
import { editionAction, editionParams, type EditionAsks } from "../model/delivery-rules.ts";
import { printerName } from "../model/printer-name.ts";
import { DELIVERY_TIMEOUT_MS, RUN_BUDGET_MS, runTimes, type RunTimes } from "../model/run-budget.ts";
import {
  afterDelivery,
  claimable,
  deliveryDueAt,
  deliveryExpired,
  firstClaim,
  nextTryOn,
  PAUSED_TRY_EVERY_DAYS,
  pausedOn,
  reclaim,
  recordedEnd,
  settle,
  STALE_CLAIM_MS,
  subscriptionExpired,
  type DeliveryRecord,
  type DueDelivery,
  type EditionAnswer,
  type PrintResult,
  type Subscription,
  type SubscriptionChange,
} from "../model/subscription.ts";
import { sendEndNotice, type NoticeWork } from "./end-notices.ts";
import type { PrintKeyPolicy } from "./print-key-client.ts";
import { postToPrinter } from "./print-key-post.ts";
import { pruneRateLimits } from "./rate-limit-pruning.ts";
import { dropStraySeats, releaseSeat } from "./seats.ts";
import type { PruneBudget, StateStore, Stored } from "./state-store.ts";
import {
  deliveryKey,
  LIVE,
  liveKey,
  seatKey,
  SEATS,
  SLOTS,
  slotKey,
  SUBSCRIPTIONS,
  subscriptionKey,
  type LiveEntry,
} from "./store-keys.ts";
import { dropStrayIndexKeys, pruneDeliveries } from "./subscriptions.ts";
import { removeSubscription } from "./subscription-removal.ts";

export interface DeliveryRunOptions {
  store: StateStore;
  /** Where the publications are served ("https://example.netlify.app"): asked as the platform asks. */
  origin: string;
  /** The key the print keys are sealed under. */
  sealKey: Buffer;
  /** Where print keys may be, and how they are asked (lib/platform/print-key-client.ts). */
  printKeys: PrintKeyPolicy;
  /** The run's instant (the clock is passed in, so tests and --at control it). */
  at: Date;
  /** Only say what would be sent: no claims, no POSTs, nothing written or pruned. */
  dryRun?: boolean;
  /** Deliveries in flight at once (default DELIVERY_CONCURRENCY). */
  concurrency?: number;
  /** Per request, to the publication and to the print key, its body included (default DELIVERY_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * The run's time, measured from its start on the wall clock (default
   * RUN_BUDGET_MS): no delivery starts later than this less three timeouts
   * (run-budget.ts), so the run ends within it; what is left goes to the next run.
   */
  budgetMs?: number;
  /**
   * Delivery records older than this many days are deleted, and subscriptions
   * that ended longer ago (default KEEP_DELIVERIES_DAYS).
   */
  keepDeliveriesDays?: number;
  /** Deletions a run makes at most to prune what piles up (default PRUNES_PER_RUN); the rest goes on the next run. */
  prunesPerRun?: number;
  /**
   * Whether the publication `slug` prints the end slip when its series is
   * over (publication.json's `end_notice`; end-notices.ts's endNoticesOf
   * reads a built site's). Default: every publication does.
   */
  endNotice?: (slug: string) => boolean;
  /**
   * A first claim younger than this (ms on the run's clock) is settled from
   * the version its create answered, without reading it back before the POST
   * (default CLAIM_RECHECK_MS): no other run can take over a claim before it is stale.
   */
  claimRecheckMs?: number;
  /** The site's address for people, which the end slip's subscribe link names (default: `origin`). */
  publicOrigin?: string;
  fetch?: typeof fetch;
}

/** One line of a run's report. */
export interface DeliveryLine {
  subscription: string;
  printer: string;
  slug: string;
  date: string;
  deliveryCount: number;
  /** What happened, or for a dry run what would: "printed", "would print", "not-printed", "paused", … */
  outcome: string;
  detail: string;
  etag: string | null;
}

export interface DeliveryReport {
  at: string;
  subscriptions: number;
  /** Subscriptions due at the run's instant (the paused ones skipping the day not among them). */
  due: number;
  /** What the run did, one line per delivery it worked on. */
  lines: DeliveryLine[];
  /** The subscriptions due but paused, skipping the day (their print keys kept failing), one line each. */
  paused: DeliveryLine[];
  /** Due deliveries still to do that the run did not start, its time being up: the next run takes them. */
  left: number;
  /** Subscriptions the run did not even read, its time being up (some may be due): the next run reads them. */
  unchecked: number;
  /** Entries deleted as too old: delivery records, long-ended subscriptions, rate-limit counters, stray index keys. */
  pruned: number;
  /** The end slips the run worked on (or, dry, would), one line each: outcome "printed", "offline", "off", … */
  notices: DeliveryLine[];
}

/**
 * Deliveries in flight at once. A delivery mostly waits (the store, edition/,
 * the print key across the internet), so many at once: 48 ran 1,000
 * subscribers some 25% faster than 16 did (BENCHMARKS.md, "Delivery run").
 */
export const DELIVERY_CONCURRENCY = 48;
export { DELIVERY_TIMEOUT_MS, RUN_BUDGET_MS };
/** Half the time a claim holds (STALE_CLAIM_MS): a claim younger than this cannot have been taken over. */
export const CLAIM_RECHECK_MS = STALE_CLAIM_MS / 2;
/** How long delivery records are kept, in days (the desk's history shows them). */
export const KEEP_DELIVERIES_DAYS = 90;
/** Deletions a run makes at most to prune, and only before its last start time: the rest goes on the next run. */
export const PRUNES_PER_RUN = 500;

/** What meta.json says that a run needs: the sender's name and what to send. */
interface PublicationMeta extends EditionAsks {
  name: string;
}

/** The publication's answer to one /edition/ query, read whole: the page to print when it is a 200. */
interface FetchedEdition extends EditionAnswer {
  page?: { bytes: ArrayBuffer; type: string };
}

/**
 * What a run asks once and shares between deliveries: each publication's
 * meta.json, and each distinct /edition/ query (the spec makes the answer a
 * function of the query, so subscribers with the same settings, count and
 * local time get the same page; asked once per run, not once per subscriber).
 */
interface RunCache {
  metaOf(slug: string): Promise<PublicationMeta | { error: string }>;
  editionOf(url: URL): Promise<FetchedEdition>;
}

/** What the workers of one run share. */
export interface Run {
  o: DeliveryRunOptions & { timeoutMs: number };
  /** Deliveries in flight at once: POSTs to print keys at once. */
  concurrency: number;
  /** Holds the POSTs to print keys to `concurrency` at once. */
  posts: <R>(work: () => Promise<R>) => Promise<R>;
  indexes: RunIndexes;
  /** The live-index and schedule keys of the subscriptions read. */
  seen: Set<string>;
  /** Subscriptions whose delivery another run held (claimed, not yet stale, not settled). */
  held: Set<string>;
  lines: DeliveryLine[];
  paused: DeliveryLine[];
  due: number;
  left: number;
  unchecked: number;
  cache: RunCache;
  times: RunTimes;
  /** The run's wall clock, on which `times` are. */
  now: () => number;
  keepDays: number;
  /** Deletions still allowed this run (counted down by every pruning), and only before startBy. */
  prunes: PruneBudget;
  /** The end slips worked on so far. */
  notices: DeliveryLine[];
}

export async function runDeliveries(options: DeliveryRunOptions): Promise<DeliveryReport> {
  const { store } = options;
  // The index is listed before the subscriptions: a key that a subscribe writes in between is young, and kept.
  const indexed = new Set(options.dryRun ? [] : await store.list(LIVE));
  const slotted = new Set(options.dryRun ? [] : await store.list(SLOTS));
  const seated = new Set(options.dryRun ? [] : await store.list(SEATS));
  const run = openRun(options, { indexed, slotted, seated });
  const keys = await store.list(SUBSCRIPTIONS);
  // The same batches a scheduled run hands to background functions (delivery-batches.ts), one after the other.
  for (let i = 0; i < keys.length; i += SELF_HOSTED_BATCH)
    await deliverBatch(run, keys.slice(i, i + SELF_HOSTED_BATCH));
  if (!run.o.dryRun && run.now() < run.times.startBy) {
    // Upkeep that fails (the store) is left to the next run, which does it again: the report is not lost for it.
    try {
      // Only once every subscription was read can an index key be known to have none.
      if (!run.unchecked) {
        const strays = [...indexed, ...slotted].filter((key) => !run.seen.has(key));
        await dropStrayIndexKeys(store, run.o.at, strays, run.prunes);
        // Seats no subscription holds: a subscribe or a release cut short (young ones are left alone).
        await dropStraySeats(
          store,
          run.o.at,
          [...seated].filter((key) => !run.seen.has(key)),
          run.prunes,
        );
      }
      await pruneRateLimits(store, run.o.at, run.prunes, Math.min(8, run.concurrency));
    } catch {
      // see above
    }
  }
  return runReport(run, keys.length);
}

/** Subscriptions a self-hosted run (npm run deliver) works on per batch, one batch after the other. */
export const SELF_HOSTED_BATCH = 1_000;

/**
 * What a run knows of the indexes before it starts: the live index's keys and
 * the schedule's (listed by a self-hosted run, which reads every
 * subscription), or nothing (a batch, which adds what may be missing with
 * conditional creates when `repair`, and otherwise takes them to be there).
 */
export interface RunIndexes {
  indexed?: ReadonlySet<string>;
  slotted?: ReadonlySet<string>;
  /** The seats' keys (seats.ts), listed by a self-hosted run. */
  seated?: ReadonlySet<string>;
  /** A batch of the daily sweep: make sure each live subscription has its index and schedule keys. */
  repair?: boolean;
}

/** A run's state, for one or more batches of subscriptions (deliverBatch), then its report (runReport). */
export function openRun(options: DeliveryRunOptions, indexes: RunIndexes = {}): Run {
  const now = () => performance.now();
  const o = { ...options, timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS };
  const times = runTimes(now(), options.budgetMs ?? RUN_BUDGET_MS, o.timeoutMs);
  if ("error" in times) throw new RangeError(`runDeliveries: ${times.error}`);
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  return {
    o,
    times,
    now,
    concurrency,
    posts: gate(concurrency),
    indexes,
    keepDays: options.keepDeliveriesDays ?? KEEP_DELIVERIES_DAYS,
    prunes: { deletes: options.prunesPerRun ?? PRUNES_PER_RUN, inTime: () => now() < times.startBy },
    cache: {
      metaOf: once(
        (slug: string) => slug,
        (slug) => readMeta(o, slug),
      ),
      editionOf: once(
        (url: URL) => url.href,
        (url) => askEdition(o, url),
      ),
    },
    notices: [],
    seen: new Set(),
    held: new Set(),
    lines: [],
    paused: [],
    due: 0,
    left: 0,
    unchecked: 0,
  };
}

/**
 * One batch of a run: every subscription of `keys` (store keys,
 * "subscriptions/<id>") read, kept, and delivered to if due. The one code
 * that delivers, whether the batch runs in a background function (Netlify)
 * or in-process (npm run deliver). Idempotent: every delivery is claimed
 * first, so the same batch run twice, or two batches at once, print once.
 * Store reads and writes run `PREPARED_PER_POST` times as many at once as
 * POSTs do, so that the POSTs, at `concurrency` in flight, are what a batch waits on.
 */
export async function deliverBatch(run: Run, keys: readonly string[]): Promise<void> {
  // A store that fails outside a delivery (a subscription's read) fails the batch, once what is in flight is done.
  let failed: { error: unknown } | undefined;
  await eachAtMost(run.concurrency * PREPARED_PER_POST, keys, async (key) => {
    try {
      await deliverKey(run, key);
    } catch (error) {
      failed ??= { error };
    }
  });
  if (failed) throw failed.error;
}

/** One subscription of a batch: read, kept, and delivered to if due. */
async function deliverKey(run: Run, key: string): Promise<void> {
  const { o, times, now } = run;
  const { store, at } = o;
  if (now() >= times.readBy) return void run.unchecked++;
  const stored = await store.get<Subscription>(key);
  if (!stored) return;
  const sub = stored.value;
  run.seen.add(liveKey(sub.slug, sub.id));
  run.seen.add(slotKey(sub));
  if (sub.seat !== undefined) run.seen.add(seatKey(sub.slug, sub.seat));
  if (!o.dryRun && now() < times.startBy && !(await upkeep(run, sub))) return;
  // An ended subscription's end slip still to do (a crash, an offline printer): one request, started in time.
  if (sub.ended && noticeNext(sub.endNotice, at) !== "leave" && now() < times.startBy)
    return void (await endNotice(run, sub));
  const when = deliveryDueAt(sub, at);
  if (!when) return;
  if (pausedOn(sub, when.date)) return void run.paused.push(pausedLine(sub, when));
  run.due++;
  if (now() >= times.startBy) {
    // Out of time: whether it is still to do is all that is looked at (one read), for the report.
    if (await peek(o, sub, when).catch(() => true)) run.left++;
    return;
  }
  const line = await deliverOne(run, stored, when);
  if (line) run.lines.push(line);
}

/** The report of a run that read `subscriptions` subscriptions. */
export function runReport(run: Run, subscriptions: number): DeliveryReport {
  const byName = (a: DeliveryLine, b: DeliveryLine) =>
    a.slug.localeCompare(b.slug) || a.subscription.localeCompare(b.subscription);
  return {
    at: run.o.at.toISOString(),
    subscriptions,
    due: run.due,
    lines: run.lines.sort(byName),
    paused: run.paused.sort(byName),
    left: run.left,
    unchecked: run.unchecked,
    pruned: run.prunes.taken ?? 0,
    notices: run.notices.sort(byName),
  };
}

/**
 * Store work in flight per POST in flight (see deliverBatch): a delivery's four
 * store round trips (30 ms each on Blobs) take longer than its POST, so many more
 * deliveries read, claim and record than POST at once (4x left the POSTs waiting;
 * BENCHMARKS.md, "Delivery fan-out").
 */
export const PREPARED_PER_POST = 10;

/** At most `limit` holders at once: `run(work)` waits for a place. */
function gate(limit: number): <R>(work: () => Promise<R>) => Promise<R> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (active >= limit) await new Promise<void>((go) => waiting.push(go));
    else active++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * Keeps a subscription's entries right before its delivery: removes one that
 * ended longer ago than records are kept (false: it is gone, or going, with
 * the next run when the run's deletions ran out), and keeps the live index in
 * step with it (in it while live, out of it once ended; its seat given back once ended).
 */
async function upkeep(run: Run, sub: Subscription): Promise<boolean> {
  const { store, at } = run.o;
  try {
    if (subscriptionExpired(sub, at, run.keepDays)) {
      await removeSubscription(store, sub, run.prunes, at);
      return false;
    }
    const entry: LiveEntry = { at: sub.created };
    const { indexed, slotted, repair = false } = run.indexes;
    // A run that listed an index knows what to add or drop; a batch that did not adds and drops on a sweep only.
    for (const [key, listed] of [
      [liveKey(sub.slug, sub.id), indexed],
      [slotKey(sub), slotted],
    ] as const) {
      const there = listed ? listed.has(key) : undefined;
      if (!sub.ended && (there === undefined ? repair : !there)) await store.create(key, entry);
      if (sub.ended && (there ?? repair)) await store.delete(key);
    }
    if (sub.ended && sub.seat !== undefined) {
      const { seated } = run.indexes;
      if (seated ? seated.has(seatKey(sub.slug, sub.seat)) : repair) await releaseSeat(store, sub, at);
    }
  } catch {
    // The store failed: the next run does it again; the delivery goes on (if the store lets it).
  }
  return true;
}

/**
 * An ended subscription leaves the live index and the schedule, and gives back
 * its seat (what fails, a later run's upkeep does).
 */
async function dropKeys(store: StateStore, sub: Subscription): Promise<void> {
  await store.delete(liveKey(sub.slug, sub.id)).catch(() => undefined);
  await store.delete(slotKey(sub)).catch(() => undefined);
  await releaseSeat(store, sub, new Date()).catch(() => undefined);
}

/** The report's line for a paused subscription skipping the day. */
function pausedLine(sub: Subscription, when: DueDelivery): DeliveryLine {
  const since = sub.failing?.paused ?? when.date;
  return {
    subscription: sub.id,
    printer: sub.printer,
    slug: sub.slug,
    date: when.date,
    deliveryCount: sub.deliveryCount,
    outcome: "paused",
    detail: `${pauseWords(sub)}; next try on ${nextTryOn(since, when.date)}`,
    etag: null,
  };
}

const pauseWords = (sub: Pick<Subscription, "failing">) =>
  `paused since ${sub.failing?.paused}: the print key failed on ${sub.failing?.days} delivery days in a row, ` +
  `so it is tried every ${PAUSED_TRY_EVERY_DAYS}th day only`;

/** One subscription's delivery for the day `when`: claim, ask, print, record. Never throws. */
async function deliverOne(
  run: Run,
  stored: Stored<Subscription>,
  when: DueDelivery,
): Promise<DeliveryLine | undefined> {
  const { o, cache } = run;
  const sub = stored.value;
  // The name as the print key service gave it at subscribing: cleaned before any report shows it.
  const printer = printerName(sub.printer);
  const line = (rec: DeliveryRecord, outcome: string, detail: string, etag: string | null): DeliveryLine => ({
    subscription: sub.id,
    printer,
    slug: sub.slug,
    date: rec.date,
    deliveryCount: rec.deliveryCount,
    outcome,
    detail,
    etag,
  });
  let pruning: Promise<unknown> | undefined;
  try {
    const claimed = o.dryRun ? await peek(o, sub, when) : await claim(o, sub, when);
    if (claimed && "done" in claimed) return void (await finishEnd(run, stored, claimed.done));
    if (!claimed) return void run.held.add(sub.id);
    const { version: claimVersion, previous, ...rec } = claimed as Claimed;
    const claimedAt = run.now();
    // The day's first delivery prunes the subscription's old records (once a day, bounded, in time only), beside
    // the delivery rather than after it: the store round trips on a delivery's way are what a batch waits on.
    if (rec.attempts === 1 && !o.dryRun) {
      const expired = (date: string) => deliveryExpired(date, o.at, run.keepDays);
      pruning = pruneDeliveries(o.store, sub.id, expired, run.prunes).catch(() => false);
    }
    const meta = await cache.metaOf(sub.slug);
    const fetched: FetchedEdition =
      "error" in meta
        ? { status: null, etag: null, error: meta.error }
        : await cache.editionOf(editionUrl(o.origin, sub, rec, meta));
    const { page, ...edition } = fetched;
    const action = editionAction(edition.status, edition.etag, sub.lastEtag);
    if (o.dryRun) {
      const would = action === "print" ? `would print on ${printer}` : `would not print (${action})`;
      return line(rec, action === "print" ? "would print" : "would not print", would, edition.etag);
    }
    // The claim is this run's until it goes stale (STALE_CLAIM_MS): a first claim younger than
    // o.claimRecheckMs is settled from the version its create answered, without reading it back; an older one
    // (a slow edition/), or a reclaim, is read back before the POST. Either way one conditional write settles
    // the record after the POST: the window in which a crash prints a page twice is that one write.
    const fresh = claimVersion && run.now() - claimedAt < (o.claimRecheckMs ?? CLAIM_RECHECK_MS);
    const held = fresh ? claimVersion : await claimHeld(o.store, rec);
    const takenOver = () =>
      line(rec, "taken over", "another run took this delivery over (this one was too slow)", edition.etag);
    if (!held) return takenOver();
    let print: PrintResult | undefined;
    if (action === "print" && page && !("error" in meta)) {
      const { name } = meta;
      const posted = await run.posts(async () =>
        // Waiting for a place among the POSTs in flight may have taken the run past its time.
        run.now() < run.times.readBy - o.timeoutMs ? postToPrinter(o, sub, page, name) : "late",
      );
      if (posted === "late") {
        // Nothing was sent: the claim is undone (it is this run's, and fresh), and the next run takes the delivery.
        const key = deliveryKey(sub.id, rec.date);
        if (previous) await o.store.replace(key, previous, held);
        else await o.store.delete(key);
        run.left++;
        return undefined;
      }
      print = posted;
    }
    const settled = settle(sub, rec, edition, print, new Date(o.at.getTime()));
    const { record } = settled;
    // An end carries its notice in the same write: owed after a 410, impossible after an unknown key.
    const ends = settled.change.ended && !sub.ended;
    const change = ends ? { ...settled.change, endNotice: noticeAfter(record, o.at) } : settled.change;
    if (!(await o.store.replace(deliveryKey(sub.id, rec.date), record, held))) return takenOver();
    const after = await updateSubscription(o.store, stored, record, change);
    // Upkeep after the delivery; what fails of it (the store) the next runs do again (see upkeep).
    if (after?.ended && !sub.ended) {
      await dropKeys(o.store, sub);
      await endNotice(run, after);
    }
    const [outcome, detail] = pauseNews(sub, after, record);
    return line(record, outcome, detail, record.etag);
  } catch (error) {
    // The store failed under this one delivery: the claim stays, and goes stale for the next run to resume
    // (which settles it, delivery_count included: the record carries the count).
    return {
      subscription: sub.id,
      printer,
      slug: sub.slug,
      date: when.date,
      deliveryCount: sub.deliveryCount,
      outcome: "error",
      detail: `the store failed: ${(error as Error).message}`,
      etag: null,
    };
  } finally {
    await pruning;
  }
}

/** A settled delivery's outcome and detail, saying when it paused its subscription, or ended its pause. */
function pauseNews(before: Subscription, after: Subscription | undefined, record: DeliveryRecord): [string, string] {
  const was = before.failing?.paused;
  const is = after?.failing?.paused;
  if (!was && is && after) return ["paused", `${record.detail}; ${pauseWords(after)}`];
  if (was && is && after)
    return [record.state, `${record.detail}; still paused, next try on ${nextTryOn(is, addDays(record.date, 1))}`];
  if (was && after && !is) return [record.state, `${record.detail}; no longer paused`];
  return [record.state, record.detail];
}

/**
 * The day's delivery claimed by this run, with the version its claim was
 * written at when it was a first claim (a reclaim is read back before its
 * POST), or undefined when another run holds it; `done` with its record when
 * it is settled already.
 */
async function claim(
  o: DeliveryRunOptions,
  sub: Subscription,
  when: DueDelivery,
): Promise<Claimed | { done: DeliveryRecord } | undefined> {
  const key = deliveryKey(sub.id, when.date);
  const fresh = firstClaim(sub, when, o.at);
  const version = await o.store.createVersioned(key, fresh);
  if (version) return { ...fresh, version };
  const held = await o.store.get<DeliveryRecord>(key);
  if (held && held.value.state !== "sending" && !claimable(held.value, o.at)) return { done: held.value };
  if (!held || !claimable(held.value, o.at)) return undefined;
  const again = reclaim(held.value, o.at);
  return (await o.store.replace(key, again, held.version)) ? { ...again, previous: held.value } : undefined;
}

/** A claim: its record, the version a first claim was written at, the record a reclaim replaced. */
type Claimed = DeliveryRecord & { version?: string; previous?: DeliveryRecord };

/**
 * The version of this run's claim while it is still this run's, to settle it
 * from; undefined when a run so slow that its claim went stale was taken over
 * (the record is then left to the run that took it).
 */
async function claimHeld(store: StateStore, claimed: DeliveryRecord): Promise<string | undefined> {
  const held = await store.get<DeliveryRecord>(deliveryKey(claimed.subscription, claimed.date));
  const ours =
    held && held.value.state === "sending" && held.value.at === claimed.at && held.value.attempts === claimed.attempts;
  return ours ? held.version : undefined;
}

/**
 * A day's delivery found settled as an end (a 410, an unknown print key) while
 * its subscription is still live: the run that settled it died before its
 * second write. The end is written now, with its notice, and the slip sent.
 */
async function finishEnd(run: Run, stored: Stored<Subscription>, done: DeliveryRecord): Promise<void> {
  const { o } = run;
  const end = recordedEnd(stored.value, done);
  if (!end || stored.value.ended) return;
  const after = await updateSubscription(o.store, stored, done, { ...end, endNotice: noticeAfter(done, o.at) });
  if (!after?.ended) return;
  await dropKeys(o.store, after);
  await endNotice(run, after);
}

/**
 * Works on an ended subscription's end notice (end-notices.ts) and adds its
 * line to the run's; a store that fails is said in the line (the next runs do it again).
 */
async function endNotice(run: Run, sub: Subscription): Promise<void> {
  const line = (s: Subscription, outcome: string, detail: string): DeliveryLine => ({
    subscription: s.id,
    printer: printerName(s.printer),
    slug: s.slug,
    date: utcDateOf(new Date(s.ended?.at ?? run.o.at)),
    deliveryCount: s.deliveryCount,
    outcome,
    detail,
    etag: null,
  });
  try {
    const done = await sendEndNotice(noticeWork(run), sub.id);
    if (done) run.notices.push(line(done.sub, done.outcome, done.detail));
  } catch (error) {
    run.notices.push(line(sub, "error", `the store failed: ${(error as Error).message}`));
  }
}

/** What sending end notices needs of a run: its store and clock, meta.json's name, its print-key POST. */
function noticeWork(run: Run): NoticeWork {
  const { o, cache, posts } = run;
  return {
    store: o.store,
    at: o.at,
    dryRun: o.dryRun,
    on: (slug) => o.endNotice?.(slug) ?? true,
    subscribeUrl: (slug) => new URL(slug ? `/${slug}/subscribe/` : "/subscribe/", o.publicOrigin ?? o.origin).href,
    name: async (slug) => {
      const meta = await cache.metaOf(slug);
      return "error" in meta ? { error: meta.error } : meta.name;
    },
    post: (sub, page, from) => posts(() => postToPrinter(o, sub, page, from)),
  };
}

/** For a dry run: the delivery this run would claim, without claiming it. */
async function peek(o: DeliveryRunOptions, sub: Subscription, when: DueDelivery): Promise<DeliveryRecord | undefined> {
  const held = await o.store.get<DeliveryRecord>(deliveryKey(sub.id, when.date));
  if (!held) return firstClaim(sub, when, o.at);
  return claimable(held.value, o.at) ? reclaim(held.value, o.at) : undefined;
}

/**
 * Writes a delivery's effect on its subscription: first over the copy the run
 * read (nearly always still current), then from the latest stored copy (runs
 * and unsubscribes overlap). Answers the subscription as written (undefined:
 * it was unsubscribed meanwhile).
 */
async function updateSubscription(
  store: StateStore,
  read: Stored<Subscription>,
  rec: DeliveryRecord,
  change?: SubscriptionChange,
): Promise<Subscription | undefined> {
  const id = read.value.id;
  let latest: Stored<Subscription> | undefined = read;
  for (let tries = 0; tries < 5; tries++) {
    if (!latest) return undefined; // unsubscribed meanwhile
    const after = afterDelivery(latest.value, rec, change);
    if (await store.replace(subscriptionKey(id), after, latest.version)) return after;
    latest = await store.get<Subscription>(subscriptionKey(id));
  }
  throw new Error(`subscription ${id} kept changing under the run`);
}

async function readMeta(o: DeliveryRunOptions, slug: string): Promise<PublicationMeta | { error: string }> {
  const url = new URL(slug ? `/${slug}/meta.json` : "/meta.json", o.origin);
  try {
    const res = await timed(o, url, { headers: { Accept: "application/json" } });
    if (res.status !== 200) return { error: `meta.json answered ${res.status}` };
    const meta = (await res.json()) as Record<string, unknown>;
    return {
      name: typeof meta.name === "string" && meta.name ? meta.name : slug || "littlepress",
      byTime: meta.send_timezone_info === true,
      byCount: meta.send_delivery_count === true,
    };
  } catch (error) {
    return { error: `meta.json could not be read: ${reason(error)}` };
  }
}

/** The day's /edition/ request, with the parameters the platform sent. */
export function editionUrl(origin: string, sub: Subscription, rec: DeliveryRecord, asks: EditionAsks): URL {
  const url = new URL(sub.slug ? `/${sub.slug}/edition/` : "/edition/", origin);
  const params = editionParams(asks, {
    localDeliveryTime: rec.localDeliveryTime,
    deliveryCount: rec.deliveryCount,
    settings: sub.settings,
  });
  for (const [name, value] of params) url.searchParams.append(name, value);
  return url;
}

/** One /edition/ query's answer, its page read whole (editions are small) so deliveries can share it. */
async function askEdition(o: DeliveryRunOptions, url: URL): Promise<FetchedEdition> {
  try {
    const res = await timed(o, url);
    const answer = { status: res.status, etag: res.headers.get("ETag") };
    if (res.status !== 200) {
      await res.body?.cancel();
      return answer;
    }
    const type = res.headers.get("Content-Type") ?? "text/html; charset=utf-8";
    return { ...answer, page: { bytes: await res.arrayBuffer(), type } };
  } catch (error) {
    return { status: null, etag: null, error: `edition/ could not be reached: ${reason(error)}` };
  }
}

/** A request whose whole answer, body included (it is read under the same signal), takes at most the timeout. */
function timed(o: DeliveryRunOptions, url: URL, init: RequestInit = {}): Promise<Response> {
  return (o.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(o.timeoutMs ?? DELIVERY_TIMEOUT_MS) });
}

/** Why a request failed, in a few words: the error's code, never its URL. */
function reason(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string } };
  if (e.name === "TimeoutError") return "timed out";
  return e.cause?.code ?? e.name ?? "failed";
}

/** `work` memoised by `keyOf`: the first call's promise is shared by every later call with the same key. */
function once<A, R>(keyOf: (arg: A) => string, work: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
  const done = new Map<string, Promise<R>>();
  return (arg) => {
    const key = keyOf(arg);
    let result = done.get(key);
    if (!result) done.set(key, (result = work(arg)));
    return result;
  };
}
