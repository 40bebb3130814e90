import { compareKeys, isDated, requestedKey, type EditionKey } from "../model/edition-key.ts";
import { utcDateOf, utcHourOf } from "../model/dates.ts";
import type { EditionShard, PrebuiltEdition, PublicationIndex } from "../model/shard.ts";
import type { PublishedPublication } from "./publication-store.ts";
import { subscriberSettings } from "../model/subscriber.ts";

/** What /edition/ answers, decided before any byte is written. */
export type EditionDecision =
  | {
      status: 200;
      key: EditionKey;
      etag: string;
      html: string;
      slots: boolean;
      values: Map<string, string>;
      /** The prebuilt copy picked: the answer keeps its page's encoded bytes for as long as its shard is kept. */
      copy: PrebuiltEdition;
    }
  /** Nothing to print now; `reason` says why (sent in a header, never taken from the request). */
  | { status: 204; reason: string }
  /** The finite series is over for this subscriber. */
  | { status: 410; reason: string };

/** Picks the edition for a request's parameters, following the spec and the publication's `editions`. */
export async function decideEdition(
  pub: PublishedPublication,
  params: URLSearchParams,
  now: Date,
): Promise<EditionDecision> {
  const ix = pub.index;
  const asked = requestedKey(ix.by, params);
  if (asked.kind === "invalid") return { status: 204, reason: asked.reason };
  if (asked.kind === "absent") return serveLatest(pub, params, now);
  const shard = await pub.shardFor(asked.key);
  if (!shard || !Object.hasOwn(shard.editions, asked.key)) return missing(ix, asked.key);
  return serve(pub, shard, asked.key, params);
}

/** The sample edition shown to people browsing publications, with the settings sent or the defaults. */
export async function decideSample(pub: PublishedPublication, params: URLSearchParams): Promise<EditionDecision> {
  const shard = await pub.shardFor(pub.index.sample);
  if (!shard || !Object.hasOwn(shard.editions, pub.index.sample))
    return { status: 204, reason: "the sample edition is missing" };
  return serve(pub, shard, pub.index.sample, params);
}

function serve(
  pub: PublishedPublication,
  shard: EditionShard,
  key: EditionKey,
  params: URLSearchParams,
): EditionDecision {
  const settings = subscriberSettings(pub.index.fields, params, pub.validate);
  const edition = shard.editions[key]![settings.variantId];
  if (!edition) return { status: 204, reason: "this edition was not built for these settings" };
  return {
    status: 200,
    key,
    etag: edition.etag,
    html: shard.bodies[edition.body]!,
    slots: edition.slots,
    values: settings.values,
    copy: edition,
  };
}

function missing(ix: PublicationIndex, key: EditionKey): EditionDecision {
  if (compareKeys(ix.by, key, ix.last) > 0) {
    return ix.ends
      ? { status: 410, reason: `the series ended with edition ${ix.last}` }
      : { status: 204, reason: `no edition after ${ix.last} yet` };
  }
  if (compareKeys(ix.by, key, ix.first) < 0) return { status: 204, reason: `the first edition is ${ix.first}` };
  return { status: 204, reason: `no edition for ${key}` };
}

/**
 * A request without its key (a browser, or the platform's validator) gets
 * edition 0, or the latest dated edition not after now (the first, when all
 * are still to come).
 */
async function serveLatest(pub: PublishedPublication, params: URLSearchParams, now: Date): Promise<EditionDecision> {
  const ix = pub.index;
  if (!isDated(ix.by)) return serve(pub, (await pub.shardFor(ix.first))!, ix.first, params);
  const today = ix.by === "utc_hour" ? utcHourOf(now) : utcDateOf(now);
  const shard = (await pub.shardAtOrBefore(today)) ?? (await pub.shardFor(ix.first))!;
  const latest = shard.keys.filter((k) => compareKeys(ix.by, k, today) <= 0).at(-1) ?? shard.keys[0]!;
  return serve(pub, shard, latest, params);
}
