import { promisify } from "node:util";
import { brotliCompress, brotliDecompressSync, constants as zlib } from "node:zlib";
import type { ConfigField } from "./config-fields.ts";
import { ContentError, uniqueProblems, type ContentProblem } from "./content-error.ts";
import { compareKeys, type EditionKey, type EditionsBy } from "./edition-key.ts";
import { contentHash, editionEtag } from "./etag.ts";
import type { PublicationSource } from "./site.ts";
import { hasSlots, slotMisuse } from "./text-slots.ts";
import type { Variant, VariantId } from "./variants.ts";

// What the build hands the functions for one publication: a small index, read
// at cold start, and the editions packed in shards of consecutive keys, read
// only when a request needs one. Packing keeps the function bundle small
// (zip compresses across the editions of a shard) and the cold start flat
// however many editions there are.

/** Editions per shard: a shard is read whole, so it stays small (about 100 KiB of HTML, far less compressed). */
export const SHARD_SIZE = 32;

/** Everything the functions know about a publication before reading any edition. */
export interface PublicationIndex {
  format: 2;
  slug: string;
  by: EditionsBy;
  ends: boolean;
  charset: string;
  fields: ConfigField[];
  /** The edition shown at /sample/. */
  sample: EditionKey;
  count: number;
  first: EditionKey;
  last: EditionKey;
  /** The shards in key order; each covers the keys from `first` to `last`. */
  shards: ShardRange[];
}

export interface ShardRange {
  /** File name (without .json.br) under the publication's shards/ folder. */
  id: string;
  first: EditionKey;
  last: EditionKey;
  /**
   * Set for a shard that did not fit in the function bundle: the URL path of
   * the same bytes published as a static file (lib/shard-placement.ts).
   */
  remote?: string;
}

/** A run of consecutive editions, every variant, with their HTML. */
export interface EditionShard {
  /** The keys in this shard, in order. */
  keys: EditionKey[];
  /** For each key, the prebuilt copy of each variant. */
  editions: Record<EditionKey, Record<VariantId, PrebuiltEdition>>;
  /** The HTML of the copies, by content hash: identical copies are stored once. */
  bodies: Record<string, string>;
}

/** One rendered edition copy as the router serves it. */
export interface PrebuiltEdition {
  /** Key of its HTML in the shard's `bodies`. */
  body: string;
  /** Quoted ETag; for editions with text slots the router derives the subscriber's ETag from it. */
  etag: string;
  /** Whether the HTML has text slots to fill per request. */
  slots: boolean;
}

/** One page Eleventy rendered: which edition, which variant, and the HTML. */
export interface RenderedEdition {
  source: string;
  key: EditionKey;
  variant: Variant;
  html: string;
}

export interface PackedPublication {
  index: PublicationIndex;
  shards: Map<string, EditionShard>;
}

/**
 * A shard as stored: Brotli-compressed JSON. Brotli's window compresses
 * across all the editions of a shard (their layout and CSS are the same), so
 * the function bundle holds about a third of what zip alone would make of it.
 */
export async function encodeShard(shard: EditionShard): Promise<Buffer> {
  // Asynchronous: the shards of a build are compressed on libuv's threads, side by side.
  const json = JSON.stringify(shard);
  // A window of 256 KiB covers a shard (about 100 KiB of JSON) and keeps each encoder small.
  return compress(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_LGWIN]: 18, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json) } });
}
const compress = promisify(brotliCompress);

export function decodeShard(stored: Buffer): EditionShard {
  return JSON.parse(brotliDecompressSync(stored).toString("utf8")) as EditionShard;
}

export const SHARD_EXTENSION = ".json.br";

/**
 * Packs a publication's rendered editions (in key order, then variant order)
 * into its index and shards, refusing text settings used other than printed.
 */
export function packPublication(pub: PublicationSource, renders: RenderedEdition[]): PackedPublication {
  const problems: ContentProblem[] = [];
  const byKey = new Map<EditionKey, RenderedEdition[]>();
  for (const r of renders) {
    for (const problem of slotMisuse(r.html, pub.fields)) problems.push({ file: r.source, field: "config", problem, fix: "see “Text settings in templates” in the README" });
    byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  }
  if (problems.length) throw new ContentError(uniqueProblems(problems));
  const keys = pub.editions.list.map((e) => e.key).sort((a, b) => compareKeys(pub.editions.by, a, b));
  const shards = new Map<string, EditionShard>();
  const ranges: ShardRange[] = [];
  for (let start = 0; start < keys.length; start += SHARD_SIZE) {
    const run = keys.slice(start, start + SHARD_SIZE);
    const id = String(ranges.length).padStart(5, "0");
    shards.set(id, packShard(run, byKey));
    ranges.push({ id, first: run[0]!, last: run.at(-1)! });
  }
  const index: PublicationIndex = {
    format: 2,
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
  };
  return { index, shards };
}

function packShard(keys: EditionKey[], byKey: Map<EditionKey, RenderedEdition[]>): EditionShard {
  const shard: EditionShard = { keys, editions: {}, bodies: {} };
  for (const key of keys) {
    const copies: Record<VariantId, PrebuiltEdition> = {};
    for (const r of byKey.get(key) ?? []) {
      const body = contentHash(r.html).slice(0, 20);
      shard.bodies[body] = r.html;
      copies[r.variant.id] = { body, etag: editionEtag(key, r.variant.id, r.html), slots: hasSlots(r.html) };
    }
    shard.editions[key] = copies;
  }
  return shard;
}
