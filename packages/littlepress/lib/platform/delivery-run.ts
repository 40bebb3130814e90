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
import { openPrintKey, printUrl } from "../model/print-key.ts";
import { printerName } from "../model/printer-name.ts";
import { runTimes, type RunTimes } from "../model/run-budget.ts";
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
  subscriptionExpired,
  type DeliveryRecord,
  type DueDelivery,
  type EditionAnswer,
  type PrintResult,
  type Subscription,
  type SubscriptionChange,
} from "../model/subscription.ts";
import { sendEndNotice, type NoticeWork } from "./end-notices.ts";
import { askPrintKey, type PrintKeyPolicy } from "./print-key-client.ts";
import { pruneRateLimits } from "./rate-limit-pruning.ts";
import { takeDelete, type PruneBudget, type StateStore, type Stored } from "./state-store.ts";
import { deliveryKey, LIVE, liveKey, SUBSCRIPTIONS, subscriptionKey, type LiveEntry } from "./store-keys.ts";
import { pruneDeliveries, removeSubscription } from "./subscriptions.ts";

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
/** Per request, body included: with three requests a delivery, a delivery takes 15 s at most. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** A Netlify scheduled function is stopped after 30 s: the run keeps 5 s to spare. */
export const RUN_BUDGET_MS = 25_000;
/** How long delivery records are kept, in days (the desk's history shows them). */
export const KEEP_DELIVERIES_DAYS = 90;
/** Deletions a run makes at most to prune, and only before its last start time: the rest goes on the next run. */
export const PRUNES_PER_RUN = 500;
/** A live-index key without a subscription is left alone this long: its subscribe may still be writing. */
const INDEX_GRACE_MS = 60 * 60_000;

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
interface Run {
  o: DeliveryRunOptions & { timeoutMs: number };
  cache: RunCache;
  times: RunTimes;
  /** The run's wall clock, on which `times` are. */
  now: () => number;
  keepDays: number;
  /** Deletions still allowed this run (counted down by every pruning), and only before startBy. */
  prunes: PruneBudget;
  /** The live index's keys when the run started (none for a dry run, which keeps no index). */
  indexed: ReadonlySet<string>;
  /** The end slips worked on so far. */
  notices: DeliveryLine[];
}

export async function runDeliveries(options: DeliveryRunOptions): Promise<DeliveryReport> {
  const { store, at, concurrency = DELIVERY_CONCURRENCY } = options;
  const now = () => performance.now();
  const o = { ...options, timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS };
  const times = runTimes(now(), options.budgetMs ?? RUN_BUDGET_MS, o.timeoutMs);
  if ("error" in times) throw new RangeError(`runDeliveries: ${times.error}`);
  // The index is listed before the subscriptions: a key that a subscribe writes in between is young, and kept.
  const indexed = new Set(o.dryRun ? [] : await store.list(LIVE));
  const keys = await store.list(SUBSCRIPTIONS);
  const run: Run = {
    o,
    times,
    now,
    indexed,
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
  };
  const seen = new Set<string>();
  const lines: DeliveryLine[] = [];
  const paused: DeliveryLine[] = [];
  let due = 0;
  let left = 0;
  let unchecked = 0;
  await eachAtMost(concurrency, keys, async (key) => {
    if (now() >= times.readBy) return void unchecked++;
    const stored = await store.get<Subscription>(key);
    if (!stored) return;
    const sub = stored.value;
    seen.add(liveKey(sub.slug, sub.id));
    if (!o.dryRun && now() < times.startBy && !(await upkeep(run, sub))) return;
    // An ended subscription's end slip still to do (a crash, an offline printer): one request, started in time.
    if (sub.ended && noticeNext(sub.endNotice, at) !== "leave" && now() < times.startBy)
      return void (await endNotice(run, sub));
    const when = deliveryDueAt(sub, at);
    if (!when) return;
    if (pausedOn(sub, when.date)) return void paused.push(pausedLine(sub, when));
    due++;
    if (now() >= times.startBy) {
      // Out of time: whether it is still to do is all that is looked at (one read), for the report.
      if (await peek(o, sub, when).catch(() => true)) left++;
      return;
    }
    const line = await deliverOne(run, stored, when);
    if (line) lines.push(line);
  });
  if (!o.dryRun && now() < times.startBy) {
    // Upkeep that fails (the store) is left to the next run, which does it again: the report is not lost for it.
    try {
      // Only once every subscription was read can an index key be known to have none.
      if (!unchecked)
        await dropStrayIndexKeys(
          run,
          [...indexed].filter((key) => !seen.has(key)),
        );
      await pruneRateLimits(store, at, run.prunes, Math.min(8, concurrency));
    } catch {
      // see above
    }
  }
  const byName = (a: DeliveryLine, b: DeliveryLine) =>
    a.slug.localeCompare(b.slug) || a.subscription.localeCompare(b.subscription);
  return {
    at: at.toISOString(),
    subscriptions: keys.length,
    due,
    lines: lines.sort(byName),
    paused: paused.sort(byName),
    left,
    unchecked,
    pruned: run.prunes.taken ?? 0,
    notices: run.notices.sort(byName),
  };
}

/**
 * Keeps a subscription's entries right before its delivery: removes one that
 * ended longer ago than records are kept (false: it is gone, or going, with
 * the next run when the run's deletions ran out), and keeps the live index in
 * step with it (in it while live, out of it once ended).
 */
async function upkeep(run: Run, sub: Subscription): Promise<boolean> {
  const { store, at } = run.o;
  try {
    if (subscriptionExpired(sub, at, run.keepDays)) {
      await removeSubscription(store, sub, run.prunes);
      return false;
    }
    const key = liveKey(sub.slug, sub.id);
    const entry: LiveEntry = { at: sub.created };
    if (!sub.ended && !run.indexed.has(key)) await store.create(key, entry);
    if (sub.ended && run.indexed.has(key)) await store.delete(key);
  } catch {
    // The store failed: the next run does it again; the delivery goes on (if the store lets it).
  }
  return true;
}

/**
 * Deletes index keys whose subscription is gone (a subscribe that died
 * between its two writes, an unsubscribe or a removal cut short), once they
 * are older than INDEX_GRACE_MS: a younger one may belong to a subscribe
 * still writing.
 */
async function dropStrayIndexKeys(run: Run, strays: string[]): Promise<void> {
  const { store, at } = run.o;
  for (const key of strays) {
    const entry = await store.get<LiveEntry>(key);
    if (entry && !(Date.parse(entry.value.at) < at.getTime() - INDEX_GRACE_MS)) continue;
    if (!takeDelete(run.prunes)) return;
    await store.delete(key);
  }
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
  try {
    const rec = o.dryRun ? await peek(o, sub, when) : await claim(o, sub, when);
    if (rec && "done" in rec) return void (await finishEnd(run, stored, rec.done));
    if (!rec) return undefined;
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
    // The claim is checked (and its version kept) before the POST, so that after it one conditional write
    // settles the record: the window in which a crash prints a page twice is that one write.
    const held = await claimHeld(o.store, rec);
    const takenOver = () =>
      line(rec, "taken over", "another run took this delivery over (this one was too slow)", edition.etag);
    if (!held) return takenOver();
    let print: PrintResult | undefined;
    if (action === "print" && page && !("error" in meta)) print = await postToPrinter(o, sub, page, meta.name);
    const settled = settle(sub, rec, edition, print, new Date(o.at.getTime()));
    const { record } = settled;
    // An end carries its notice in the same write: owed after a 410, impossible after an unknown key.
    const ends = settled.change.ended && !sub.ended;
    const change = ends ? { ...settled.change, endNotice: noticeAfter(record, o.at) } : settled.change;
    if (!(await o.store.replace(deliveryKey(sub.id, rec.date), record, held))) return takenOver();
    const after = await updateSubscription(o.store, stored, record, change);
    // Upkeep after the delivery; what fails of it (the store) the next runs do again (see upkeep).
    if (after?.ended && !sub.ended) {
      await o.store.delete(liveKey(sub.slug, sub.id)).catch(() => undefined);
      await endNotice(run, after);
    }
    // The day's first delivery prunes the subscription's old records (once a day, bounded, in time only).
    if (rec.attempts === 1) {
      const expired = (date: string) => deliveryExpired(date, o.at, run.keepDays);
      await pruneDeliveries(o.store, sub.id, expired, run.prunes).catch(() => false);
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
 * The day's delivery claimed by this run, or undefined when another run holds
 * it; `done` with its record when it is settled already.
 */
async function claim(
  o: DeliveryRunOptions,
  sub: Subscription,
  when: DueDelivery,
): Promise<DeliveryRecord | { done: DeliveryRecord } | undefined> {
  const key = deliveryKey(sub.id, when.date);
  const fresh = firstClaim(sub, when, o.at);
  if (await o.store.create(key, fresh)) return fresh;
  const held = await o.store.get<DeliveryRecord>(key);
  if (held && held.value.state !== "sending" && !claimable(held.value, o.at)) return { done: held.value };
  if (!held || !claimable(held.value, o.at)) return undefined;
  const again = reclaim(held.value, o.at);
  return (await o.store.replace(key, again, held.version)) ? again : undefined;
}

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
  await o.store.delete(liveKey(after.slug, after.id)).catch(() => undefined);
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
    const done = await sendEndNotice(noticeWork(run.o, run.cache), sub.id);
    if (done) run.notices.push(line(done.sub, done.outcome, done.detail));
  } catch (error) {
    run.notices.push(line(sub, "error", `the store failed: ${(error as Error).message}`));
  }
}

/** What sending end notices needs of a run: its store and clock, meta.json's name, its print-key POST. */
function noticeWork(o: DeliveryRunOptions & { timeoutMs: number }, cache: RunCache): NoticeWork {
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
    post: (sub, page, from) => postToPrinter(o, sub, page, from),
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

/** POSTs a page (an edition, an end slip) to the print key, as sirius takes it, from the publication `from`. */
async function postToPrinter(
  o: DeliveryRunOptions,
  sub: Subscription,
  page: NonNullable<FetchedEdition["page"]>,
  from: string,
): Promise<PrintResult> {
  let key: URL;
  try {
    key = openPrintKey(sub.printKey, o.sealKey);
  } catch {
    return { error: "the print key cannot be opened with this deploy's key (LITTLEPRESS_SEAL_KEY changed?)" };
  }
  const reply = await askPrintKey(
    printUrl(key, from),
    { method: "POST", headers: { "Content-Type": page.type }, body: new Uint8Array(page.bytes) },
    // Within the run's own per-request bound, which its time budget counts on.
    { ...o.printKeys, timeoutMs: Math.min(o.printKeys.timeoutMs ?? Infinity, o.timeoutMs ?? DELIVERY_TIMEOUT_MS) },
  );
  // The reasons name no URL: a print key is a secret.
  if ("refused" in reply) return { error: `the print key was not sent to: ${reply.refused}` };
  if ("failed" in reply) return { error: `the print key ${reply.failed}` };
  if (reply.status === 200) return "sent";
  if (reply.status === 504) return "offline";
  if (reply.status === 404) return "unknown-key";
  return { error: `the print key answered ${reply.status}` };
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
