import { describe, expect, it } from "vitest";
import type { PublicationIndex } from "../../lib/model/shard.ts";
import { openSealedShard } from "../../lib/model/shard.ts";
import { placeShards, type EncodedPublication } from "../../lib/build/shard-placement.ts";

/** A publication with shards of the given sizes (bytes), ids 00000, 00001, … */
function pub(slug: string, sizes: number[]): EncodedPublication {
  const ids = sizes.map((_, i) => String(i).padStart(5, "0"));
  const index = { slug, shards: ids.map((id) => ({ id, first: id, last: id })) } as unknown as PublicationIndex;
  return { index, shards: new Map(ids.map((id, i) => [id, Buffer.alloc(sizes[i]!, i + slug.length)])) };
}
const dataDir = (slug: string) => `_littlepress/${slug}`;
/** One build's key. */
const KEY = Buffer.alloc(32, 7);

describe("placeShards", () => {
  it("bundles everything that fits, and marks nothing remote", () => {
    const a = pub("a", [10, 10]);
    const files = placeShards([a], dataDir, 100);
    expect(files.map((f) => f.path)).toEqual([
      "_littlepress/a/shards/00000.shard",
      "_littlepress/a/shards/00001.shard",
    ]);
    expect(a.index.shards.every((r) => r.remote === undefined)).toBe(true);
  });

  it("shares the budget in turns, so a large publication cannot crowd out a small one", () => {
    const big = pub("big", [10, 10, 10, 10, 10]);
    const small = pub("small", [10, 10]);
    placeShards([big, small], dataDir, 40);
    expect(big.index.shards.map((r) => r.remote === undefined)).toEqual([true, true, false, false, false]);
    expect(small.index.shards.map((r) => r.remote === undefined)).toEqual([true, true]);
  });

  it("publishes the rest under /_littlepress-shards/ with a hash of their bytes in the name", () => {
    const a = pub("a", [10, 20]);
    const files = placeShards([a], dataDir, 15, KEY);
    const remote = a.index.shards[1]!.remote!;
    expect(remote).toMatch(/^\/_littlepress-shards\/a\/00001-[0-9a-f]{16}\.shard$/);
    expect(files[1]!.path).toBe(remote.slice(1));
    // Sealed with the build's key, which only the index (the functions' data) holds.
    expect(a.index.sealKey).toBe(KEY.toString("base64"));
    expect(files[1]!.bytes.includes(a.shards.get("00001")!)).toBe(false);
    expect(openSealedShard(files[1]!.bytes, KEY)).toEqual(a.shards.get("00001"));
    expect(() => openSealedShard(files[1]!.bytes, Buffer.alloc(32, 8))).toThrow();
    // The same bytes give the same name; other bytes another.
    const again = pub("a", [10, 20]);
    placeShards([again], dataDir, 15, KEY);
    expect(again.index.shards[1]!.remote).toBe(remote);
    const other = pub("a", [10, 21]);
    placeShards([other], dataDir, 15, KEY);
    expect(other.index.shards[1]!.remote).not.toBe(remote);
    // Another build's key: other bytes, another name.
    const rebuilt = pub("a", [10, 20]);
    placeShards([rebuilt], dataDir, 15);
    expect(rebuilt.index.shards[1]!.remote).not.toBe(remote);
  });

  it("stops bundling at the first shard over the budget: the later ones stay remote too", () => {
    const a = pub("a", [10, 50, 1]);
    placeShards([a], dataDir, 20);
    expect(a.index.shards.map((r) => r.remote === undefined)).toEqual([true, false, false]);
  });
});
