// Packing: a publication's rendered editions become its index and its shards
// (the format is lib/model/shard.ts). Only the build packs; the functions read.
import { ContentError, uniqueProblems, type ContentProblem } from "../model/content-error.ts";
import { compareKeys, type EditionKey } from "../model/edition-key.ts";
import { contentHash, editionEtag } from "../model/etag.ts";
import type { EditionShard, PackedPublication, PrebuiltEdition, PublicationIndex, ShardRange } from "../model/shard.ts";
import { slotMisuse } from "./slot-misuse.ts";
import { hasSlots } from "../model/text-slots.ts";
import type { Variant, VariantId } from "../model/variants.ts";
import { workOut, type Remember } from "./render-memory.ts";
import type { PublicationSource } from "./site.ts";

/** Editions per shard: a shard is read whole, so it stays small (about 100 KiB of HTML, far less compressed). */
export const SHARD_SIZE = 32;

/** One page Eleventy rendered: which edition, which variant, and the HTML. */
export interface RenderedEdition {
  source: string;
  key: EditionKey;
  variant: Variant;
  html: string;
}

/**
 * Packs a publication's rendered editions (in key order, then variant order)
 * into its index and shards, refusing text settings used other than printed
 * where escaping makes them safe. The index lists the push editions, with
 * `built`, the build's time.
 */
export function packPublication(
  pub: PublicationSource,
  renders: RenderedEdition[],
  built: Date = new Date(),
  remember: Remember = workOut,
): PackedPublication {
  const byKey = rendersByKey(pub, renders, remember);
  const keys = pub.editions.list.map((e) => e.key).sort((a, b) => compareKeys(pub.editions.by, a, b));
  const shards = new Map<string, EditionShard>();
  const ranges: ShardRange[] = [];
  for (let start = 0; start < keys.length; start += SHARD_SIZE) {
    const run = keys.slice(start, start + SHARD_SIZE);
    const id = String(ranges.length).padStart(5, "0");
    shards.set(id, packShard(run, byKey, remember));
    ranges.push({ id, first: run[0]!, last: run.at(-1)! });
  }
  const index: PublicationIndex = {
    format: 4,
    slug: pub.slug,
    by: pub.editions.by,
    ends: pub.editions.ends,
    charset: pub.charset,
    fields: pub.fields,
    sample: pub.sampleKey,
    count: keys.length,
    first: keys[0] ?? "",
    last: keys.at(-1) ?? "",
    shards: ranges,
    dictionary: renders[0]?.html ?? "",
  };
  // The push editions, and when this build recorded them (a run stamps a push with the first build it sees).
  const push = pub.editions.list.filter((e) => e.push).map((e) => e.key);
  if (push.length) index.push = { built: built.toISOString(), editions: push };
  return { index, shards };
}

/**
 * Each edition's rendered copies, by key; a text setting used other than
 * printed where escaping makes it safe (slot-misuse.ts) fails the build.
 */
function rendersByKey(
  pub: PublicationSource,
  renders: RenderedEdition[],
  remember: Remember,
): Map<EditionKey, RenderedEdition[]> {
  const problems: ContentProblem[] = [];
  const byKey = new Map<EditionKey, RenderedEdition[]>();
  const misuseFact = `slot misuse with ${JSON.stringify(pub.fields)}`;
  for (const r of renders) {
    for (const misuse of remember(r.html, misuseFact, () => slotMisuse(r.html, pub.fields)))
      problems.push({ file: r.source, ...misuse });
    byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  }
  if (problems.length) throw new ContentError(uniqueProblems(problems));
  return byKey;
}

function packShard(keys: EditionKey[], byKey: Map<EditionKey, RenderedEdition[]>, remember: Remember): EditionShard {
  const shard: EditionShard = { keys, editions: {}, bodies: {} };
  for (const key of keys) {
    const copies: Record<VariantId, PrebuiltEdition> = {};
    for (const { html, variant } of byKey.get(key) ?? []) {
      const body = remember(html, "hash", () => contentHash(html)).slice(0, 20);
      shard.bodies[body] = html;
      const etag = remember(html, `etag ${key} ${variant.id}`, () => editionEtag(key, variant.id, html));
      copies[variant.id] = { body, etag, slots: remember(html, "slots", () => hasSlots(html)) };
    }
    shard.editions[key] = copies;
  }
  return shard;
}
