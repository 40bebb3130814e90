// GET /<slug>/edition/: which edition a request asks for, by its parameters
// and the day. The sample's route, which asks for no key, is sample-route.ts.
import { compareKeys, isDated, type EditionKey } from "../model/edition-key.ts";
import { requestedKey } from "../model/requested-key.ts";
import { utcDateOf, utcHourOf } from "../model/dates.ts";
import type { PublicationIndex } from "../model/shard.ts";
import { serveCopy, type EditionDecision } from "./edition-copy.ts";
import { editionEndpoint } from "./edition-endpoint.ts";
import type { PublishedPublication } from "./publication-store.ts";

export type { EditionDecision } from "./edition-copy.ts";

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
  return serveCopy(pub, shard, asked.key, params);
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
  if (!isDated(ix.by)) return serveCopy(pub, (await pub.shardFor(ix.first))!, ix.first, params);
  const today = ix.by === "utc_hour" ? utcHourOf(now) : utcDateOf(now);
  const shard = (await pub.shardAtOrBefore(today)) ?? (await pub.shardFor(ix.first))!;
  const latest = shard.keys.filter((k) => compareKeys(ix.by, k, today) <= 0).at(-1) ?? shard.keys[0]!;
  return serveCopy(pub, shard, latest, params);
}

/** GET /<slug>/edition/: today's edition for the query's delivery_count, date and settings. */
export const edition = editionEndpoint("edition", (pub, url) => decideEdition(pub, url.searchParams, new Date()));
