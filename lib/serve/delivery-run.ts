// A delivery run: the platform's side, played for the kit's own subscribers.
// Every subscription due at the run's instant gets its day's /edition/
// request, asked over HTTP exactly as the platform asked; what is to print is
// POSTed to the subscriber's print key. Each delivery is claimed first (one
// record per subscription and date, created only if new), so overlapping runs
// never send twice, and a run that dies halfway leaves claims that the next
// run resumes once they are stale.
import { editionAction, editionParams, type EditionAsks } from "../model/delivery-rules.ts";
import { openPrintKey, printerName, printUrl } from "../model/print-key.ts";
import {
  afterDelivery,
  claimable,
  deliveryDueAt,
  firstClaim,
  reclaim,
  settle,
  type DeliveryRecord,
  type DueDelivery,
  type EditionAnswer,
  type PrintResult,
  type Subscription,
  type SubscriptionChange,
} from "../model/subscription.ts";
import { askPrintKey, type PrintKeyPolicy } from "./print-key-client.ts";
import type { StateStore, Stored } from "./state-store.ts";

export interface DeliveryRunOptions {
  store: StateStore;
  /** Where the publications are served ("https://example.netlify.app"): asked as the platform asks. */
  origin: string;
  /** The key the print keys are sealed under. */
  sealKey: Buffer;
  /** Where print keys may be, and how they are asked (lib/serve/print-key-client.ts). */
  printKeys: PrintKeyPolicy;
  /** The run's instant (the clock is passed in, so tests and --at control it). */
  at: Date;
  /** Only say what would be sent: no claims, no POSTs, nothing written. */
  dryRun?: boolean;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Per request, to the publication and to the print key. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** One line of a run's report. */
export interface DeliveryLine {
  subscription: string;
  printer: string;
  slug: string;
  date: string;
  deliveryCount: number;
  /** What happened, or for a dry run what would: "printed", "would print", "not-printed", … */
  outcome: string;
  detail: string;
  etag: string | null;
}

export interface DeliveryReport {
  at: string;
  subscriptions: number;
  due: number;
  lines: DeliveryLine[];
}

/**
 * Deliveries in flight at once. A delivery mostly waits (the store, edition/,
 * the print key across the internet), so many at once: 48 ran 1,000
 * subscribers some 25% faster than 16 did (BENCHMARKS.md, "Delivery run").
 */
export const DELIVERY_CONCURRENCY = 48;

export const SUBSCRIPTIONS = "subscriptions/";
export const subscriptionKey = (id: string) => `${SUBSCRIPTIONS}${id}`;
export const deliveriesOf = (id: string) => `deliveries/${id}/`;
const deliveryKey = (id: string, date: string) => `${deliveriesOf(id)}${date}`;

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

export async function runDeliveries(options: DeliveryRunOptions): Promise<DeliveryReport> {
  const { store, at, concurrency = DELIVERY_CONCURRENCY } = options;
  const keys = await store.list(SUBSCRIPTIONS);
  const cache: RunCache = {
    metaOf: once(
      (slug: string) => slug,
      (slug) => readMeta(options, slug),
    ),
    editionOf: once(
      (url: URL) => url.href,
      (url) => askEdition(options, url),
    ),
  };
  const lines: DeliveryLine[] = [];
  let due = 0;
  await eachAtMost(concurrency, keys, async (key) => {
    const stored = await store.get<Subscription>(key);
    const when = stored && deliveryDueAt(stored.value, at);
    if (!stored || !when) return;
    due++;
    const line = await deliverOne(options, stored, when, cache);
    if (line) lines.push(line);
  });
  lines.sort((a, b) => a.slug.localeCompare(b.slug) || a.subscription.localeCompare(b.subscription));
  return { at: at.toISOString(), subscriptions: keys.length, due, lines };
}

/** One subscription's delivery for the day `when`: claim, ask, print, record. Never throws. */
async function deliverOne(
  o: DeliveryRunOptions,
  stored: Stored<Subscription>,
  when: DueDelivery,
  cache: RunCache,
): Promise<DeliveryLine | undefined> {
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
    if (action === "print" && page && !("error" in meta)) print = await postToPrinter(o, sub, page, meta);
    const { record, change } = settle(sub, rec, edition, print, new Date(o.at.getTime()));
    if (!(await o.store.replace(deliveryKey(sub.id, rec.date), record, held))) return takenOver();
    await updateSubscription(o.store, stored, record, change);
    return line(record, record.state, record.detail, record.etag);
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

/** The day's delivery claimed by this run, or undefined when it is done or another run holds it. */
async function claim(o: DeliveryRunOptions, sub: Subscription, when: DueDelivery): Promise<DeliveryRecord | undefined> {
  const key = deliveryKey(sub.id, when.date);
  const fresh = firstClaim(sub, when, o.at);
  if (await o.store.create(key, fresh)) return fresh;
  const held = await o.store.get<DeliveryRecord>(key);
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

/** For a dry run: the delivery this run would claim, without claiming it. */
async function peek(o: DeliveryRunOptions, sub: Subscription, when: DueDelivery): Promise<DeliveryRecord | undefined> {
  const held = await o.store.get<DeliveryRecord>(deliveryKey(sub.id, when.date));
  if (!held) return firstClaim(sub, when, o.at);
  return claimable(held.value, o.at) ? reclaim(held.value, o.at) : undefined;
}

/**
 * Writes a delivery's effect on its subscription: first over the copy the run
 * read (nearly always still current), then from the latest stored copy (runs
 * and unsubscribes overlap).
 */
async function updateSubscription(
  store: StateStore,
  read: Stored<Subscription>,
  rec: DeliveryRecord,
  change?: SubscriptionChange,
): Promise<void> {
  const id = read.value.id;
  let latest: Stored<Subscription> | undefined = read;
  for (let tries = 0; tries < 5; tries++) {
    if (!latest) return; // unsubscribed meanwhile
    if (await store.replace(subscriptionKey(id), afterDelivery(latest.value, rec, change), latest.version)) return;
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

/** POSTs the edition to the print key, as sirius takes it. */
async function postToPrinter(
  o: DeliveryRunOptions,
  sub: Subscription,
  page: NonNullable<FetchedEdition["page"]>,
  meta: PublicationMeta,
): Promise<PrintResult> {
  let key: URL;
  try {
    key = openPrintKey(sub.printKey, o.sealKey);
  } catch {
    return { error: "the print key cannot be opened with this deploy's key (LITTLEPRESS_SEAL_KEY changed?)" };
  }
  const reply = await askPrintKey(
    printUrl(key, meta.name),
    { method: "POST", headers: { "Content-Type": page.type }, body: new Uint8Array(page.bytes) },
    o.printKeys,
  );
  // The reasons name no URL: a print key is a secret.
  if ("refused" in reply) return { error: `the print key was not sent to: ${reply.refused}` };
  if ("failed" in reply) return { error: `the print key ${reply.failed}` };
  if (reply.status === 200) return "sent";
  if (reply.status === 504) return "offline";
  if (reply.status === 404) return "unknown-key";
  return { error: `the print key answered ${reply.status}` };
}

function timed(o: DeliveryRunOptions, url: URL, init: RequestInit = {}): Promise<Response> {
  return (o.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(o.timeoutMs ?? 10_000) });
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

/** Runs `work` on every item, at most `limit` at once. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
