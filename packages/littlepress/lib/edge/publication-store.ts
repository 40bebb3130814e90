import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isUtf8, type CharsetCodec } from "../model/charset.ts";
import { NO_SETTINGS, type ConfigValidator } from "../model/config-check.ts";
import type { ConfigField } from "../model/config-fields.ts";
import { compareKeys, type EditionKey } from "../model/edition-key.ts";
import {
  decodeShard,
  openSealedShard,
  SHARD_EXTENSION,
  shardDictionary,
  shardHash,
  type EditionShard,
  type PackedPublication,
  type PublicationIndex,
  type ShardRange,
} from "../model/shard.ts";
import { publicationDataDir, SAFE_SLUG } from "../model/site-paths.ts";
import { charsetCodec } from "./charset-codec.ts";
import { keptPerSite } from "./site-folder.ts";
import { freshRead, siteIndexOf, type Fresh } from "./site-index.ts";

/** A built publication as the functions use it: its index, its validator, and its shards on demand. */
export interface PublishedPublication {
  index: PublicationIndex;
  /** Compiled once per publication and process, never per request. */
  validate: ConfigValidator;
  /** What encodes its pages when its charset is not UTF-8 (iconv-lite); undefined for UTF-8. */
  codec?: CharsetCodec;
  /** The shard whose key range holds `key`, or undefined when none does. */
  shardFor(key: EditionKey): Promise<EditionShard | undefined>;
  /** The last shard that starts at or before `key` (for "the latest edition not after now"). */
  shardAtOrBefore(key: EditionKey): Promise<EditionShard | undefined>;
}

/**
 * Shards kept in memory per publication: every subscriber's "today" and more.
 * A shard in memory is its stored bytes (some 20 KiB) and the pages asked
 * for, so 512 of them cost some 10-15 MiB. A serial's subscribers each ask for
 * their own part, spread over all its shards: with 64 kept, the 266 shards of
 * an 8,500-part serial were read and opened again on most requests, and the
 * edition function decided 1,900 requests/s of the benchmark's mix in-process;
 * with 512, 19,000 (BENCHMARKS.md).
 */
export const SHARDS_IN_MEMORY = 512;

/** Opened publications, by site and slug; read again when the build replaces the index. */
const opened = new Map<string, Fresh<Promise<OpenedPublication | undefined>>>();

/**
 * Opens a built publication by slug ("" for the one at the site root);
 * undefined when the site has no such publication. Reads only the index, and
 * reads it again when the build has replaced it.
 * `origin` is the site's address as the request reached it ("https://…"):
 * shards that are not in the function bundle are fetched from there.
 */
export async function openPublication(
  slug: string,
  site: string,
  origin?: string,
): Promise<PublishedPublication | undefined> {
  if (slug === "") slug = siteIndexOf(site).root ?? "";
  if (!SAFE_SLUG.test(slug)) return undefined;
  const pub = await openSlug(site, slug);
  return pub && origin ? pub.at(origin) : pub;
}

function openSlug(site: string, slug: string): Promise<OpenedPublication | undefined> {
  const id = `${site}\u0000${slug}`;
  return freshRead(
    opened,
    id,
    () => path.join(publicationDataDir(site, slug), "index.json"),
    () => {
      const pending = load(site, slug);
      // A publication missing now may be built later (a test, a rebuild): do not remember misses.
      const forget = () => opened.get(id)?.value === pending && opened.delete(id);
      pending.then((p) => p ?? forget(), forget);
      return pending;
    },
  );
}

// A site rebuilt under `npm start`: its publications are opened again (site-folder.ts's forgetSite).
keptPerSite((site) => {
  for (const id of opened.keys()) if (id.startsWith(`${site}\u0000`)) opened.delete(id);
});

/**
 * The settings' validator. ajv, about half the edition function's import, is
 * imported the first time a publication with settings is opened: one without
 * any refuses whatever is sent, with no schema (NO_SETTINGS).
 */
let compiler: Promise<(fields: ConfigField[]) => ConfigValidator> | undefined;
async function settingsValidator(fields: ConfigField[]): Promise<ConfigValidator> {
  if (!fields.length) return NO_SETTINGS;
  compiler ??= import("../model/config-validator.ts").then((m) => m.compileConfigValidator);
  return (await compiler)(fields);
}

async function load(site: string, slug: string): Promise<OpenedPublication | undefined> {
  const dir = publicationDataDir(site, slug);
  let index: PublicationIndex;
  try {
    index = JSON.parse(await readFile(path.join(dir, "index.json"), "utf8")) as PublicationIndex;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  const ranges = new Map(index.shards.map((r) => [r.id, r]));
  const dictionary = shardDictionary(index);
  const key = index.sealKey === undefined ? undefined : Buffer.from(index.sealKey, "base64");
  // iconv-lite only for a publication in another charset than UTF-8 (charset-codec.ts).
  const codec = isUtf8(index.charset) ? undefined : await charsetCodec();
  const validate = await settingsValidator(index.fields);
  return published(
    index,
    async (id, origin) => {
      const range = ranges.get(id)!;
      const stored = await readStored(site, dir, range, origin);
      if (!range.remote) return decodeShard(stored, dictionary);
      if (!key) throw new Error(`shard ${range.remote} is sealed and the index holds no key`);
      return decodeShard(openSealedShard(stored, key), dictionary);
    },
    { codec, validate },
  );
}

/**
 * A shard's bytes: from the bundle, or for a remote one (sealed) from the
 * built site when it is on this disk (a local build), else from `origin`, the
 * site's address as the request reached it.
 */
async function readStored(site: string, dir: string, range: ShardRange, origin?: string): Promise<Buffer> {
  // Synchronous: a shard is some 20 KiB, read in microseconds, where a read on
  // libuv's threads costs half a millisecond in hops on a small machine.
  if (!range.remote) return readFileSync(path.join(dir, "shards", `${range.id}${SHARD_EXTENSION}`));
  try {
    return readFileSync(path.join(site, range.remote));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (!origin) throw new Error(`shard ${range.remote} is not bundled and the site's address is unknown`);
  const res = await fetch(new URL(range.remote, origin), { signal: AbortSignal.timeout(REMOTE_SHARD_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`shard ${range.remote}: ${res.status} from ${origin}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  // The name carries a hash of the bytes: a page that is not the shard
  // (a catch-all rewrite, another deploy) is refused.
  if (!range.remote.includes(`-${shardHash(bytes)}.`))
    throw new Error(`shard ${range.remote}: ${origin} answered with other bytes`);
  return bytes;
}

/** A remote shard that has not come in this long is given up on (the request gets a 204). */
const REMOTE_SHARD_TIMEOUT_MS = 4_000;

/**
 * A publication held in memory (tests, benchmarks): the same lookups without
 * files. `tools` as for published().
 */
export function publishedFromMemory({ index, shards }: PackedPublication, tools?: OpenWith): PublishedPublication {
  return published(index, (id) => Promise.resolve(shards.get(id)!), tools);
}

/**
 * A publication as opened: its lookups for a caller that gives no address,
 * and `at(origin)`, the same lookups for a request that reached the site at
 * `origin` ("https://…"), where shards missing from the bundle are fetched.
 * Both share one validator and one cache of shards.
 */
export interface OpenedPublication extends PublishedPublication {
  at(origin: string): PublishedPublication;
}

/**
 * What opening a publication takes besides its index, each imported by
 * openPublication only for a publication that needs it: a codec for a charset
 * other than UTF-8, and the validator of its settings when it has any.
 */
export interface OpenWith {
  codec?: CharsetCodec;
  validate?: ConfigValidator;
}

/** Reads a shard by id; `origin` is the site's address as the request reached it, when known. */
export type ReadShard = (id: string, origin?: string) => Promise<EditionShard>;

/**
 * The lookups over any way of reading a shard by id; shards are cached, the
 * least recently used dropped first. `codec` encodes the pages of a
 * publication whose charset is not UTF-8, and is needed for one.
 */
export function published(
  index: PublicationIndex,
  readShard: ReadShard,
  { codec, validate = NO_SETTINGS }: OpenWith = {},
): OpenedPublication {
  const name = index.slug || "/";
  if (!codec && !isUtf8(index.charset))
    throw new Error(`publication ${name} is in ${index.charset} and was opened without a codec (iconv-lite)`);
  if (validate === NO_SETTINGS && index.fields.length)
    throw new Error(`publication ${name} has settings and was opened without their validator (compileConfigValidator)`);
  const shard = cachedShards(readShard);
  const at = (origin?: string): PublishedPublication => ({
    index,
    validate,
    codec,
    async shardFor(key) {
      const range = index.shards[lastStartingBy(index, key)];
      return range && compareKeys(index.by, key, range.last) <= 0 ? shard(range.id, origin) : undefined;
    },
    async shardAtOrBefore(key) {
      const range = index.shards[lastStartingBy(index, key)];
      return range ? shard(range.id, origin) : undefined;
    },
  });
  // A site is reached at one address, or a few: the lookups for the last one
  // are kept, so a request does not make them again.
  let last: { origin: string; lookups: PublishedPublication } | undefined;
  const atOrigin = (origin: string) =>
    last?.origin === origin ? last.lookups : (last = { origin, lookups: at(origin) }).lookups;
  return { ...at(), at: atOrigin };
}

/** `readShard` with the last SHARDS_IN_MEMORY shards read kept, the least recently used dropped first. */
function cachedShards(readShard: ReadShard): ReadShard {
  const cache = new Map<string, Promise<EditionShard>>(); // insertion order doubles as recency
  return (id, origin) => {
    const kept = cache.get(id);
    if (kept) {
      cache.delete(id); // and set again below: the most recently used is last
      cache.set(id, kept);
      return kept;
    }
    const pending = readShard(id, origin);
    cache.set(id, pending);
    pending.catch(() => cache.get(id) === pending && cache.delete(id)); // a failed read is retried next time
    if (cache.size > SHARDS_IN_MEMORY) cache.delete(cache.keys().next().value!);
    return pending;
  };
}

/** The place in the index of the last shard starting at or before `key` (-1 for none), by binary search. */
function lastStartingBy(index: PublicationIndex, key: EditionKey): number {
  let lo = 0;
  let hi = index.shards.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(index.by, index.shards[mid]!.first, key) > 0) hi = mid - 1;
    else {
      found = mid;
      lo = mid + 1;
    }
  }
  return found;
}

/** Every prebuilt copy of a publication, in key order (for tools: the preview, tests). */
export async function* eachEdition(
  pub: PublishedPublication,
): AsyncGenerator<{ key: EditionKey; variant: string; etag: string; html: string }> {
  for (const range of pub.index.shards) {
    const shard = (await pub.shardFor(range.first))!;
    for (const key of shard.keys) {
      for (const [variant, copy] of Object.entries(shard.editions[key]!))
        yield { key, variant, etag: copy.etag, html: shard.bodies[copy.body]! };
    }
  }
}
