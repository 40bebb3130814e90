import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { publicationSource } from "../helpers/publication-source.ts";
import type { EditionKey } from "../../lib/model/edition-key.ts";
import { decideEdition } from "../../lib/edge/edition-route.ts";
import { publicationDataDir, siteDataDir } from "../../lib/model/site-paths.ts";
import { packPublication, SHARD_SIZE } from "../../lib/build/pack.ts";
import {
  encodeShard,
  SHARD_EXTENSION,
  shardDictionary,
  type EditionShard,
  type PackedPublication,
} from "../../lib/model/shard.ts";
import {
  eachEdition,
  openPublication,
  published,
  publishedFromMemory,
  SHARDS_IN_MEMORY,
} from "../../lib/edge/publication-store.ts";
import { RECHECK_MS } from "../../lib/edge/site-index.ts";
import type { PublicationSource } from "../../lib/build/site.ts";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { compileConfigValidator } from "../../lib/model/config-validator.ts";

const PLAIN = { id: "", values: {} };

/** A delivery_count publication of `shards` full shards, with the even counts only (so each odd count is a gap). */
function packed(shards: number): PackedPublication {
  const keys = Array.from({ length: shards * SHARD_SIZE }, (_, i) => String(2 * i));
  const source = publicationSource({ slug: "many", keys, ends: true, sample: "0" });
  return packPublication(
    source,
    keys.map((key) => ({ source: `content/many/editions/${key}.md`, key, variant: PLAIN, html: `<p>${key}</p>` })),
  );
}

const BIG = packed(SHARDS_IN_MEMORY + 2);

/** The publication over a readShard that records every read, and fails the reads it is told to. */
function counting(pack: PackedPublication = BIG) {
  const reads: string[] = [];
  const failing = new Set<string>();
  const pub = published(pack.index, async (id) => {
    reads.push(id);
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (failing.delete(id)) throw new Error(`cannot read shard ${id}`);
    return pack.shards.get(id)!;
  });
  const id = (n: number) => pack.index.shards[n]!.id;
  /** Reads the shard at position n, through a key in its middle. */
  const touch = (n: number) => pub.shardFor(String(2 * (n * SHARD_SIZE + 5)));
  const readsOf = (n: number) => reads.filter((r) => r === id(n)).length;
  return { pub, reads, failing, id, touch, readsOf };
}

describe("published: shard lookups", () => {
  it("finds the shard whose range holds a key, at both ends of every shard", async () => {
    const { pub } = counting();
    expect(pub.index).toBe(BIG.index);
    for (const range of BIG.index.shards) {
      expect(await pub.shardFor(range.first)).toBe(BIG.shards.get(range.id));
      expect(await pub.shardFor(range.last)).toBe(BIG.shards.get(range.id));
    }
  });

  it("finds no shard, and reads none, for a key outside every range", async () => {
    const { pub, reads } = counting();
    const boundary = BIG.index.shards[0]!.last; // the next count is in the gap before shard 1
    expect(await pub.shardFor(String(Number(boundary) + 1))).toBeUndefined();
    expect(await pub.shardFor(String(Number(BIG.index.last) + 1))).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it("finds the last shard starting at or before a key, even in a gap or past the end", async () => {
    const { pub } = counting();
    const [s0, s1] = BIG.index.shards as [(typeof BIG.index.shards)[0], (typeof BIG.index.shards)[0]];
    expect(await pub.shardAtOrBefore(String(Number(s0.last) + 1))).toBe(BIG.shards.get(s0.id));
    expect(await pub.shardAtOrBefore(s1.first)).toBe(BIG.shards.get(s1.id));
    expect(await pub.shardAtOrBefore("999999999")).toBe(BIG.shards.get(BIG.index.shards.at(-1)!.id));
  });

  it("finds no shard at or before a key before the first", async () => {
    const days = ["2026-01-02", "2026-01-03"];
    const source: PublicationSource = {
      slug: "d",
      name: "D",
      description: "D",
      owner_email: "t@example.com",
      delivered_on: "Daily",
      publication_api_version: "1.0",
      external_configuration: false,
      charset: "utf-8",
      fields: [],
      strict_variables: true,
      markdown: { breaks: false },
      editions: {
        by: "utc_date",
        ends: false,
        list: days.map((key) => ({ key, file: `${key}.md`, data: { date: key }, body: "", bodyLine: 4 })),
      },
      sampleKey: days[0]!,
    };
    const pub = publishedFromMemory(
      packPublication(
        source,
        days.map((key) => ({ source: `${key}.md`, key, variant: PLAIN, html: key })),
      ),
    );
    expect(await pub.shardAtOrBefore("2026-01-01")).toBeUndefined();
    expect(await pub.shardFor("2026-01-01")).toBeUndefined();
    expect((await pub.shardAtOrBefore("2026-01-02"))?.keys).toEqual(days);
  });

  it("reads only the shard holding the edition a request asks for", async () => {
    const { pub, reads, id } = counting();
    const key = String(2 * (5 * SHARD_SIZE + 7));
    const d = await decideEdition(pub, new URLSearchParams(`delivery_count=${key}`), new Date());
    expect(d.status === 200 && d.html).toBe(`<p>${key}</p>`);
    expect(reads).toEqual([id(5)]);
  });

  it("lists every copy in key order", async () => {
    const small = packed(2);
    const all: EditionKey[] = [];
    for await (const e of eachEdition(publishedFromMemory(small))) {
      expect(e.html).toBe(`<p>${e.key}</p>`);
      expect(e.variant).toBe("");
      all.push(e.key);
    }
    expect(all).toEqual(Array.from({ length: 2 * SHARD_SIZE }, (_, i) => String(2 * i)));
  });
});

describe("published: the shard cache", () => {
  it("reads a shard once, however many lookups need it", async () => {
    const { pub, reads, id, touch } = counting();
    const first = await touch(3);
    expect(await touch(3)).toBe(first);
    expect(await pub.shardFor(BIG.index.shards[3]!.first)).toBe(first);
    expect(await pub.shardAtOrBefore(BIG.index.shards[3]!.last)).toBe(first);
    expect(reads).toEqual([id(3)]);
  });

  it("reads a shard once when lookups for it arrive together", async () => {
    const { reads, id, touch } = counting();
    const [a, b, c] = await Promise.all([touch(2), touch(2), touch(2)]);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(reads).toEqual([id(2)]);
  });

  it(`keeps ${SHARDS_IN_MEMORY} shards`, async () => {
    const { reads, touch } = counting();
    for (let n = 0; n < SHARDS_IN_MEMORY; n++) await touch(n);
    for (let n = SHARDS_IN_MEMORY - 1; n >= 0; n--) await touch(n);
    expect(reads).toHaveLength(SHARDS_IN_MEMORY);
  });

  it("drops the least recently used shard past that, and reads it again when needed", async () => {
    const { reads, touch, readsOf } = counting();
    for (let n = 0; n <= SHARDS_IN_MEMORY; n++) await touch(n);
    expect(reads).toHaveLength(SHARDS_IN_MEMORY + 1);
    expect(readsOf(0)).toBe(1);
    await touch(0);
    expect(readsOf(0)).toBe(2);
    // Reading 0 again dropped 1, now the least recently used; 2 is still there.
    expect(readsOf(1)).toBe(1);
    await touch(2);
    expect(readsOf(2)).toBe(1);
    await touch(1);
    expect(readsOf(1)).toBe(2);
  });

  it("keeps a recently used shard and drops the one used least recently instead", async () => {
    const { touch, readsOf } = counting();
    for (let n = 0; n < SHARDS_IN_MEMORY; n++) await touch(n);
    await touch(0); // 0 is now the most recently used, 1 the least
    expect(readsOf(0)).toBe(1);
    await touch(SHARDS_IN_MEMORY);
    await touch(0);
    expect(readsOf(0)).toBe(1);
    await touch(1);
    expect(readsOf(1)).toBe(2);
  });

  it("does not cache a failed read: the next lookup reads again", async () => {
    const { reads, failing, id, touch } = counting();
    failing.add(id(4));
    await expect(touch(4)).rejects.toThrow(`cannot read shard ${id(4)}`);
    const shard = await touch(4);
    expect(shard).toBe(BIG.shards.get(id(4)));
    expect(reads).toEqual([id(4), id(4)]);
    await touch(4);
    expect(reads).toEqual([id(4), id(4)]);
  });

  it("gives every lookup waiting on a failed read the failure, then reads again", async () => {
    const { reads, failing, id, touch } = counting();
    failing.add(id(1));
    const results = await Promise.allSettled([touch(1), touch(1)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(reads).toEqual([id(1)]);
    expect(await touch(1)).toBe(BIG.shards.get(id(1)));
    expect(reads).toEqual([id(1), id(1)]);
  });

  it("keeps the other shards cached when a read fails", async () => {
    const { reads, failing, id, touch } = counting();
    await touch(0);
    failing.add(id(1));
    await expect(touch(1)).rejects.toThrow();
    await touch(0);
    expect(reads).toEqual([id(0), id(1)]);
  });

  it("keeps a cache per publication", async () => {
    const a = counting();
    const b = counting();
    await a.touch(0);
    await b.touch(0);
    expect(a.reads).toHaveLength(1);
    expect(b.reads).toHaveLength(1);
  });

  it("reads shards from memory with publishedFromMemory", async () => {
    const pub = publishedFromMemory(BIG);
    const shard = (await pub.shardFor("0")) as EditionShard;
    expect(shard).toBe(BIG.shards.get(BIG.index.shards[0]!.id));
    expect(pub.validate({}).badFields.size).toBe(0);
  });
});

/** Writes a built publication "serial" of `count` editions into `site`, as the build does. */
function writeSite(site: string, count: number, charset = "utf-8") {
  const keys = Array.from({ length: count }, (_, i) => String(i));
  const pack = packPublication(
    { ...publicationSource({ slug: "serial", keys }), charset },
    keys.map((key) => ({ source: `${key}.md`, key, variant: PLAIN, html: `<p>Part ${key}</p>` })),
  );
  const dir = publicationDataDir(site, "serial");
  mkdirSync(path.join(dir, "shards"), { recursive: true });
  const dictionary = shardDictionary(pack.index);
  for (const [id, shard] of pack.shards)
    writeFileSync(path.join(dir, "shards", `${id}${SHARD_EXTENSION}`), encodeShard(shard, dictionary));
  // The build replaces the index (a new file), as the swap of _site.next does.
  writeFileSync(path.join(dir, "index.json.new"), JSON.stringify(pack.index));
  renameSync(path.join(dir, "index.json.new"), path.join(dir, "index.json"));
}

/** A fresh folder for a built site, removed with its functions' data after `use`. */
async function withSite(use: (site: string) => Promise<void>) {
  const site = mkdtempSync(path.join(os.tmpdir(), "littlepress-store-"));
  try {
    await use(site);
  } finally {
    rmSync(site, { recursive: true, force: true });
    rmSync(siteDataDir(site), { recursive: true, force: true });
  }
}

describe("openPublication on a site that is rebuilt under it", () => {
  it("keeps the index it read for a moment, then reads the new one", async () => {
    await withSite(async (site) => {
      writeSite(site, 3);
      const first = await openPublication("serial", site);
      expect(first?.index.count).toBe(3);
      writeSite(site, 5);
      expect(await openPublication("serial", site)).toBe(first); // checked at most once a second
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS + 50));
      const second = await openPublication("serial", site);
      expect(second?.index.count).toBe(5);
      const decision = await decideEdition(second!, new URLSearchParams({ delivery_count: "4" }), new Date());
      expect(decision).toMatchObject({ status: 200, html: "<p>Part 4</p>" });
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS + 50));
      expect(await openPublication("serial", site)).toBe(second); // unchanged file: the same publication
    });
  });
});

// iconv-lite is loaded only for a publication whose charset needs it (test/integration/edition.test.ts
// checks that a UTF-8 request never loads it); the pages are encoded with it (test/unit/http.test.ts).
describe("the charset codec", () => {
  it("is given to a publication opened in a charset other than UTF-8, and to none in UTF-8", async () => {
    await withSite(async (site) => {
      writeSite(site, 1, "shift_jis");
      const codec = (await openPublication("serial", site))?.codec;
      expect(codec && [...codec.encode("日", "shift_jis")]).toEqual([0x93, 0xfa]);
    });
    await withSite(async (site) => {
      writeSite(site, 1);
      const pub = await openPublication("serial", site);
      expect(pub?.index.charset).toBe("utf-8");
      expect(pub?.codec).toBeUndefined();
    });
  });

  it("is needed for a publication in another charset: without one, it is not opened", () => {
    const pack = packPublication({ ...publicationSource({ slug: "sjis", keys: ["0"] }), charset: "shift_jis" }, [
      { source: "0.md", key: "0", variant: PLAIN, html: "<p>日</p>" },
    ]);
    expect(() => publishedFromMemory(pack)).toThrow(
      /sjis is in shift_jis and was opened without a codec \(iconv-lite\)/,
    );
    expect(publishedFromMemory(pack, { codec: iconv }).codec).toBe(iconv);
  });

  it("a publication with settings needs their validator: without one, it is not opened", () => {
    const fields: ConfigField[] = [{ type: "text", name: "who", label: "Name", required: false }];
    const pack = packPublication({ ...publicationSource({ slug: "asks", keys: ["0"] }), fields }, [
      { source: "0.md", key: "0", variant: PLAIN, html: "<p>Hi</p>" },
    ]);
    expect(() => publishedFromMemory(pack)).toThrow(/asks has settings and was opened without their validator/);
    const validate = compileConfigValidator(fields);
    expect(publishedFromMemory(pack, { validate }).validate).toBe(validate);
  });
});
