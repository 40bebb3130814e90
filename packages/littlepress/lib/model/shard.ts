import { createHash, createHmac } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { ConfigField } from "./config-fields.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";
import { openSealed, seal } from "./seal.ts";
import type { VariantId } from "./variants.ts";

// What the build hands the functions for one publication: a small index, read
// at cold start, and the editions packed in shards of consecutive keys, read
// only when a request needs one. Packing keeps the function bundle small
// (zip compresses across the editions of a shard) and the cold start flat
// however many editions there are.

/** Everything the functions know about a publication before reading any edition. */
export interface PublicationIndex {
  format: 4;
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
  /** The HTML every body is compressed against (see encodeShard): the publication's first edition. */
  dictionary: string;
  /**
   * The editions marked push (lib/model/push.ts), with the time of the build
   * that recorded them; absent when there are none.
   */
  push?: { built: string; editions: EditionKey[] };
  /**
   * Set when some shards are remote: the build's key (base64, 32 bytes) that
   * sealed them (sealShard). Only the functions hold it, in their data.
   */
  sealKey?: string;
}

export interface ShardRange {
  /** File name (without .shard) under the publication's shards/ folder. */
  id: string;
  first: EditionKey;
  last: EditionKey;
  /**
   * Set for a shard that did not fit in the function bundle: the URL path of
   * the same bytes published as a static file (lib/build/shard-placement.ts).
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

export interface PackedPublication {
  index: PublicationIndex;
  shards: Map<string, EditionShard>;
}

/**
 * A shard as stored: a compressed head (the keys, and for each key its copies
 * as [variant, body number, ETag, has slots]), then each body compressed on
 * its own. Bodies are deflated with the publication's dictionary (its first
 * edition: the layout, CSS and style every edition shares), which makes them
 * as small as a shard compressed whole, while a request inflates only the one
 * it answers with: some 30 microseconds, where a whole shard took half a
 * millisecond. `deflate` is the dictionary, or what compresses the parts (a
 * build that kept the parts it compressed before: lib/build/render-memory.ts).
 */
export function encodeShard(shard: EditionShard, deflate: Buffer | ShardDeflate): Buffer {
  const compress: ShardDeflate =
    typeof deflate === "function" ? deflate : (text, body) => (body ? deflateBody(text, deflate) : deflateHead(text));
  const ids = Object.keys(shard.bodies);
  const number = new Map(ids.map((id, i) => [id, i]));
  const parts = ids.map((id) => compress(shard.bodies[id]!, true));
  const ends: number[] = [];
  parts.reduce((end, part) => (ends.push(end + part.length), end + part.length), 0);
  const copies = shard.keys.map((key) =>
    Object.entries(shard.editions[key]!).map(([variant, c]) => [variant, number.get(c.body)!, c.etag, c.slots ? 1 : 0]),
  );
  const head = compress(JSON.stringify({ keys: shard.keys, copies, ends }), false);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  return Buffer.concat([length, head, ...parts]);
}

/** Reads a stored shard: only its head; a body is inflated the first time it is asked for. */
export function decodeShard(stored: Buffer, dictionary: Buffer): EditionShard {
  const headLength = stored.readUInt32BE(0);
  const head = JSON.parse(inflateRawSync(stored.subarray(4, 4 + headLength)).toString("utf8")) as StoredHead;
  const editions: EditionShard["editions"] = {};
  head.keys.forEach((key, i) => {
    const byVariant: Record<VariantId, PrebuiltEdition> = {};
    for (const [variant, body, etag, slots] of head.copies[i]!)
      byVariant[variant] = { body: String(body), etag, slots: slots === 1 };
    editions[key] = byVariant;
  });
  const start = 4 + headLength;
  const body = (i: number) =>
    inflateRawSync(stored.subarray(start + (head.ends[i - 1] ?? 0), start + head.ends[i]!), { dictionary }).toString(
      "utf8",
    );
  return { keys: head.keys, editions, bodies: lazyRecord(head.ends.length, body) };
}

interface StoredHead {
  keys: EditionKey[];
  copies: [VariantId, number, string, 0 | 1][][];
  /** Where each body ends, after the head. */
  ends: number[];
}

/** A record "0".."count-1" whose values are made on first read (a Proxy: no work per entry up front). */
function lazyRecord(count: number, make: (i: number) => string): Record<string, string> {
  const made: (string | undefined)[] = [];
  // "0".."count-1" exactly: a number that reads back as the same text.
  const index = (id: string | symbol) => {
    if (typeof id !== "string") return -1;
    const n = Number(id);
    return Number.isInteger(n) && n >= 0 && n < count && String(n) === id ? n : -1;
  };
  const value = (i: number) => (made[i] ??= make(i));
  return new Proxy(
    {},
    {
      get: (_, id) => {
        const i = index(id);
        return i < 0 ? undefined : value(i);
      },
      has: (_, id) => index(id) >= 0,
      ownKeys: () => Array.from({ length: count }, (_, i) => String(i)),
      getOwnPropertyDescriptor: (_, id) =>
        index(id) < 0 ? undefined : { value: value(index(id)), enumerable: true, configurable: true, writable: false },
    },
  );
}

/** Compresses a shard's part: a body (`body`, against the publication's dictionary) or its head. */
export type ShardDeflate = (text: string, body: boolean) => Buffer;

/** One body of a shard, compressed against the publication's dictionary (shardDictionary). */
export const deflateBody = (html: string, dictionary: Buffer): Buffer => deflateRawSync(html, { level: 9, dictionary });
/** A shard's head (its keys and copies), compressed on its own. */
export const deflateHead = (json: string): Buffer => deflateRawSync(json, { level: 9 });

/** A publication's compression dictionary: the end of its first body (deflate looks back 32 KiB at most). */
export function shardDictionary(index: PublicationIndex): Buffer {
  const bytes = Buffer.from(index.dictionary, "utf8");
  return bytes.subarray(Math.max(0, bytes.length - 32 * 1024));
}

export const SHARD_EXTENSION = ".shard";

/**
 * Seals a shard that is published as a static file: AES-256-GCM under the
 * build's key (seal.ts), so the public bytes tell nothing of editions not yet
 * due. The nonce is an HMAC of the bytes under the key (a synthetic IV): the
 * same bytes under the same key seal the same way, so their content-hashed
 * name is stable within a build, and a nonce never repeats for different bytes.
 */
export function sealShard(bytes: Buffer, key: Buffer): Buffer {
  return seal(bytes, key, createHmac("sha256", key).update(bytes).digest());
}

/** The shard's bytes from sealShard's; throws when they were not sealed under `key` or were altered. */
export const openSealedShard = openSealed;

/** What a published shard's name carries of its bytes, so a reader can tell it got that shard. */
export function shardHash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}
