// Which shards travel with the functions and which are published as static
// files. Netlify refuses a function whose zip is over 50 MB, and compressed
// editions cost about 600 bytes each: past some 70,000 editions a site's
// shards no longer fit. The first ones of each publication, in key order, go
// in the bundle up to a budget; the rest are published under
// /_littlepress-shards/ with their content hash in the name, and the
// functions fetch them from the site itself when asked for one. Those are
// sealed (AES-256-GCM) with a key of the build's that only the functions'
// data holds: anyone may fetch them, nobody but the functions can read them.
import { randomBytes } from "node:crypto";
import { SHARD_EXTENSION, sealShard, shardHash, type PublicationIndex } from "../model/shard.ts";
import { PUBLIC_SHARDS_DIR } from "../model/site-paths.ts";

/**
 * Shard bytes the function bundle may carry, all publications together: 40 MiB
 * leaves room under Netlify's 50 MB for the code and the indexes.
 */
export const BUNDLE_BUDGET_BYTES = 40 * 2 ** 20;

/** A publication's shards, compressed, before they are written. */
export interface EncodedPublication {
  index: PublicationIndex;
  /** Stored bytes by shard id, one per index.shards entry. */
  shards: Map<string, Buffer>;
}

/** Where one shard's bytes go, relative to the built site's folder. */
export interface ShardFile {
  path: string;
  bytes: Buffer;
}

/** A new key for sealing a build's remote shards (32 random bytes). */
export const newSealKey = (): Buffer => randomBytes(32);

/**
 * Places every shard, marking the ones past the budget as remote in their
 * publication's index, sealed with `key`, which the index then carries. The
 * budget is shared fairly: each publication in turn gets its next shard in,
 * so a large one cannot crowd out a small one.
 */
export function placeShards(
  publications: EncodedPublication[],
  dataDir: (slug: string) => string,
  budget = BUNDLE_BUDGET_BYTES,
  key: Buffer = newSealKey(),
): ShardFile[] {
  const files: ShardFile[] = [];
  let used = 0;
  let full = false;
  const longest = Math.max(0, ...publications.map((p) => p.index.shards.length));
  for (let i = 0; i < longest; i++) {
    for (const { index, shards } of publications) {
      const range = index.shards[i];
      if (!range) continue;
      const bytes = shards.get(range.id)!;
      full ||= used + bytes.length > budget;
      if (!full) {
        used += bytes.length;
        files.push({ path: `${dataDir(index.slug)}/shards/${range.id}${SHARD_EXTENSION}`, bytes });
        continue;
      }
      const sealed = sealShard(bytes, key);
      range.remote = `/${PUBLIC_SHARDS_DIR}/${index.slug}/${range.id}-${shardHash(sealed)}${SHARD_EXTENSION}`;
      index.sealKey = key.toString("base64");
      files.push({ path: range.remote.slice(1), bytes: sealed });
    }
  }
  return files;
}
