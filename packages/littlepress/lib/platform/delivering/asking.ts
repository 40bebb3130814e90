// The "ask" stage of a delivery: a publication's meta.json and its /edition/
// answer, asked over HTTP exactly as the platform asked. A run asks each once
// and shares the answers between its deliveries (RunCache): the spec makes an
// edition a function of its query, so subscribers with the same settings,
// count and local time get the same page.
import { editionParams, type EditionAsks } from "../../model/delivery-rules.ts";
import type { DeliveryRecord, EditionAnswer } from "../../model/delivery-record.ts";
import type { Subscription } from "../../model/subscription.ts";

/** What meta.json says that a run needs: the sender's name and what to send. */
export interface PublicationMeta extends EditionAsks {
  name: string;
}

/** The publication's answer to one /edition/ query, read whole: the page to print when it is a 200. */
export interface FetchedEdition extends EditionAnswer {
  page?: { bytes: ArrayBuffer; type: string };
}

/** What asking needs: where the publications are, how long a request may take (the run's setting), the fetch to use. */
export interface AskOptions {
  origin: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** What a run asks once and shares between deliveries: each publication's meta.json, each distinct /edition/ query. */
export interface RunCache {
  metaOf(slug: string): Promise<PublicationMeta | { error: string }>;
  editionOf(url: URL): Promise<FetchedEdition>;
}

export function runCache(o: AskOptions): RunCache {
  return {
    metaOf: once(
      (slug: string) => slug,
      (slug) => readMeta(o, slug),
    ),
    editionOf: once(
      (url: URL) => url.href,
      (url) => askEdition(o, url),
    ),
  };
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

async function readMeta(o: AskOptions, slug: string): Promise<PublicationMeta | { error: string }> {
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

/** One /edition/ query's answer, its page read whole (editions are small) so deliveries can share it. */
async function askEdition(o: AskOptions, url: URL): Promise<FetchedEdition> {
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
function timed(o: AskOptions, url: URL, init: RequestInit = {}): Promise<Response> {
  return (o.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(o.timeoutMs) });
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
