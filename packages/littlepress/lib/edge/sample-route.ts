// GET /<slug>/sample/: the edition shown to people browsing publications.
import { serveCopy, type EditionDecision } from "./edition-copy.ts";
import { editionEndpoint } from "./edition-endpoint.ts";
import type { PublishedPublication } from "./publication-store.ts";

/** The sample edition shown to people browsing publications, with the settings sent or the defaults. */
export async function decideSample(pub: PublishedPublication, params: URLSearchParams): Promise<EditionDecision> {
  const shard = await pub.shardFor(pub.index.sample);
  if (!shard || !Object.hasOwn(shard.editions, pub.index.sample))
    return { status: 204, reason: "the sample edition is missing" };
  return serveCopy(pub, shard, pub.index.sample, params);
}

/** GET /<slug>/sample/: the edition shown before subscribing, with default settings. */
export const sample = editionEndpoint("sample", (pub, url) => decideSample(pub, url.searchParams));
