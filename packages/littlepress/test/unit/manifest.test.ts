import { describe, expect, it } from "vitest";
import { publicationSource } from "../helpers/publication-source.ts";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { ContentError } from "../../lib/model/content-error.ts";
import type { EditionKey, EditionsBy } from "../../lib/model/edition-key.ts";
import { editionEtag } from "../../lib/model/etag.ts";
import { packPublication, SHARD_SIZE, type RenderedEdition } from "../../lib/build/pack.ts";
import {
  decodeShard,
  encodeShard,
  shardDictionary,
  type EditionShard,
  type PackedPublication,
} from "../../lib/model/shard.ts";
import type { PublicationSource } from "../../lib/build/site.ts";
import { slotToken } from "../../lib/model/text-slots.ts";
import { variantsOf, type Variant } from "../../lib/model/variants.ts";

const FIELDS: ConfigField[] = [
  {
    type: "select",
    name: "lang",
    label: "Language",
    required: true,
    options: [
      ["English", "en"],
      ["Français", "fr"],
    ],
  },
  { type: "text", name: "name", label: "Name", required: false },
];
const [EN, FR] = variantsOf(FIELDS) as [Variant, Variant];
const PLAIN: Variant = { id: "", values: {} };

function source(
  fields: ConfigField[] = FIELDS,
  keys: EditionKey[] = ["0", "1"],
  by: EditionsBy = "delivery_count",
  sampleKey: EditionKey = "1",
): PublicationSource {
  return publicationSource({ slug: "tales", by, keys, fields, ends: true, sample: sampleKey });
}

const render = (key: string, variant: Variant, html: string): RenderedEdition => ({
  source: `content/tales/editions/${key}.md`,
  key,
  variant,
  html,
});

/** The one shard of a packed publication that holds `key`. */
function shardOf(packed: PackedPublication, key: EditionKey): EditionShard {
  const found = [...packed.shards.values()].filter((s) => s.keys.includes(key));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The HTML a copy points at, checking the pointer resolves. */
function htmlOf(shard: EditionShard, key: EditionKey, variant: string): string {
  const copy = shard.editions[key]?.[variant];
  expect(copy).toBeDefined();
  expect(Object.hasOwn(shard.bodies, copy!.body)).toBe(true);
  return shard.bodies[copy!.body]!;
}

describe("packPublication", () => {
  it("indexes the settings and packs one prebuilt copy per key and variant", () => {
    const packed = packPublication(source(), [
      render("0", EN, "<p>Zero</p>"),
      render("0", FR, "<p>Zéro</p>"),
      render("1", EN, "<p>One</p>"),
      render("1", FR, "<p>Un</p>"),
    ]);
    expect(packed.index).toEqual({
      format: 4,
      slug: "tales",
      by: "delivery_count",
      ends: true,
      charset: "utf-8",
      fields: FIELDS,
      sample: "1",
      count: 2,
      first: "0",
      last: "1",
      shards: [{ id: expect.any(String), first: "0", last: "1" }],
      dictionary: "<p>Zero</p>", // the first page: what the publication's bodies are compressed against
    });
    expect([...packed.shards.keys()]).toEqual([packed.index.shards[0]!.id]);
    const shard = packed.shards.get(packed.index.shards[0]!.id)!;
    expect(shard.keys).toEqual(["0", "1"]);
    expect(Object.keys(shard.editions)).toEqual(["0", "1"]);
    expect(Object.keys(shard.editions["0"]!)).toEqual([EN.id, FR.id]);
    expect(shard.editions["0"]![FR.id]).toEqual({
      body: expect.any(String),
      etag: editionEtag("0", FR.id, "<p>Zéro</p>"),
      slots: false,
    });
    expect(htmlOf(shard, "0", EN.id)).toBe("<p>Zero</p>");
    expect(htmlOf(shard, "0", FR.id)).toBe("<p>Zéro</p>");
    expect(htmlOf(shard, "1", EN.id)).toBe("<p>One</p>");
    expect(htmlOf(shard, "1", FR.id)).toBe("<p>Un</p>");
    // Four different pages, four bodies: nothing shared that should not be.
    expect(Object.keys(shard.bodies)).toHaveLength(4);
  });

  it("stores identical HTML once per shard, shared by variants and keys, with different ETags", () => {
    const packed = packPublication(source(), [
      render("0", EN, "<p>Same</p>"),
      render("0", FR, "<p>Same</p>"),
      render("1", EN, "<p>Same</p>"),
      render("1", FR, "<p>Other</p>"),
    ]);
    const shard = shardOf(packed, "0");
    const zeroEn = shard.editions["0"]![EN.id]!;
    const zeroFr = shard.editions["0"]![FR.id]!;
    const oneEn = shard.editions["1"]![EN.id]!;
    expect(zeroFr.body).toBe(zeroEn.body);
    expect(oneEn.body).toBe(zeroEn.body);
    expect(shard.editions["1"]![FR.id]!.body).not.toBe(zeroEn.body);
    expect(Object.values(shard.bodies).sort()).toEqual(["<p>Other</p>", "<p>Same</p>"]);
    // Same body, but still different ETags: key and variant are part of them.
    expect(new Set([zeroEn.etag, zeroFr.etag, oneEn.etag]).size).toBe(3);
    expect(zeroFr.etag).toBe(editionEtag("0", FR.id, "<p>Same</p>"));
    expect(oneEn.etag).toBe(editionEtag("1", EN.id, "<p>Same</p>"));
  });

  it("keeps each shard self-contained: HTML shared across shards is stored in each", () => {
    const keys = Array.from({ length: SHARD_SIZE + 1 }, (_, i) => String(i));
    const packed = packPublication(
      source([], keys, "delivery_count", "0"),
      keys.map((k) => render(k, PLAIN, "<p>Same every day</p>")),
    );
    expect(packed.shards.size).toBe(2);
    for (const shard of packed.shards.values()) {
      expect(Object.values(shard.bodies)).toEqual(["<p>Same every day</p>"]);
      for (const key of shard.keys) expect(htmlOf(shard, key, "")).toBe("<p>Same every day</p>");
    }
  });

  it("marks copies with text slots", () => {
    const packed = packPublication(source(), [
      render("0", EN, `<p>Hi ${slotToken("name")}</p>`),
      render("0", FR, "<p>Salut</p>"),
    ]);
    const shard = shardOf(packed, "0");
    expect(shard.editions["0"]![EN.id]!.slots).toBe(true);
    expect(shard.editions["0"]![FR.id]!.slots).toBe(false);
    // The slot is kept in the stored HTML, to be filled per request.
    expect(htmlOf(shard, "0", EN.id)).toBe(`<p>Hi ${slotToken("name")}</p>`);
  });

  it("throws a ContentError naming the source for a misused text setting", () => {
    let error: unknown;
    try {
      packPublication(source(), [
        render("0", EN, `<script>var n="${slotToken("name")}"</script>`),
        render("1", EN, `<p>${slotToken("name").toUpperCase()}</p>`),
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContentError);
    const problems = (error as ContentError).problems;
    expect(problems.map((p) => p.file)).toEqual(["content/tales/editions/0.md", "content/tales/editions/1.md"]);
    // The setting printed inside <script> by name; the upper-cased one cannot be told.
    expect(problems.map((p) => p.field)).toEqual(["config.name", "config"]);
    expect(problems.every((p) => p.fix.length > 0)).toBe(true);
    expect((error as ContentError).message).toContain("content/tales/editions/0.md");
  });

  it("refuses a text setting in an href, naming the source, the setting and the fix", () => {
    let error: unknown;
    try {
      packPublication(source(), [render("0", EN, `<a href="https://x.example/${slotToken("name")}">x</a>`)]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).problems).toEqual([
      {
        file: "content/tales/editions/0.md",
        field: "config.name",
        problem: expect.stringMatching(/the href attribute of <a>, which holds a URL/),
        fix: expect.stringMatching(/^print it in the page text/),
      },
    ]);
  });

  it("refuses misuse even in an edition of a later shard", () => {
    const keys = Array.from({ length: SHARD_SIZE + 3 }, (_, i) => String(i));
    const renders = keys.map((k) =>
      render(k, EN, k === String(SHARD_SIZE + 1) ? `<style>/*${slotToken("name")}*/</style>` : `<p>${k}</p>`),
    );
    expect(() => packPublication(source(FIELDS, keys, "delivery_count", "0"), renders)).toThrow(ContentError);
    try {
      packPublication(source(FIELDS, keys, "delivery_count", "0"), renders);
    } catch (e) {
      expect((e as ContentError).problems.map((p) => p.file)).toEqual([`content/tales/editions/${SHARD_SIZE + 1}.md`]);
    }
  });

  it("reports the same misuse once per source file, not once per variant", () => {
    const bad = `<style>/*${slotToken("name")}*/</style>`;
    expect(() => packPublication(source(), [render("0", EN, bad), render("0", FR, bad)])).toThrow(ContentError);
    try {
      packPublication(source(), [render("0", EN, bad), render("0", FR, bad)]);
    } catch (e) {
      expect((e as ContentError).problems).toHaveLength(1);
    }
  });

  it("survives a JSON round trip", () => {
    const packed = packPublication(source([]), [render("0", PLAIN, "<p>x</p>"), render("1", PLAIN, "<p>y</p>")]);
    expect(JSON.parse(JSON.stringify(packed.index))).toEqual(packed.index);
    for (const shard of packed.shards.values()) {
      const back = JSON.parse(JSON.stringify(shard)) as EditionShard;
      expect(back).toEqual(shard);
      expect(back.bodies[back.editions["0"]![""]!.body]).toBe("<p>x</p>");
    }
  });
});

describe("packPublication: shards", () => {
  const plain = (keys: EditionKey[], by: EditionsBy = "delivery_count") =>
    packPublication(
      source([], keys, by, keys[0]),
      keys.map((k) => render(k, PLAIN, `<p>${k}</p>`)),
    );

  it("orders delivery counts as numbers, not as text (2 before 10)", () => {
    const packed = plain(["10", "2", "1", "0", "100"]);
    expect(packed.index).toMatchObject({ count: 5, first: "0", last: "100" });
    expect(packed.index.shards).toEqual([{ id: expect.any(String), first: "0", last: "100" }]);
    expect([...packed.shards.values()][0]!.keys).toEqual(["0", "1", "2", "10", "100"]);
  });

  it("splits the keys in key order into shards of SHARD_SIZE", () => {
    const n = 2 * SHARD_SIZE + 5;
    // Listed as text sorts them: 0, 1, 10, 100, 101, …
    const keys = Array.from({ length: n }, (_, i) => String(i)).sort();
    const packed = plain(keys);
    expect(packed.index.count).toBe(n);
    expect(packed.index.first).toBe("0");
    expect(packed.index.last).toBe(String(n - 1));
    expect(packed.index.shards.map((r) => [r.first, r.last])).toEqual([
      ["0", String(SHARD_SIZE - 1)],
      [String(SHARD_SIZE), String(2 * SHARD_SIZE - 1)],
      [String(2 * SHARD_SIZE), String(n - 1)],
    ]);
    const ids = packed.index.shards.map((r) => r.id);
    expect(new Set(ids).size).toBe(3);
    expect([...packed.shards.keys()]).toEqual(ids);
    // Ids sort as the shards do, so a folder listing is in key order too.
    expect([...ids].sort()).toEqual(ids);
    const all: string[] = [];
    for (const range of packed.index.shards) {
      const shard = packed.shards.get(range.id)!;
      expect(shard.keys.length).toBe(range.id === ids.at(-1) ? 5 : SHARD_SIZE);
      expect(shard.keys[0]).toBe(range.first);
      expect(shard.keys.at(-1)).toBe(range.last);
      expect(Object.keys(shard.editions).sort()).toEqual([...shard.keys].sort());
      for (const key of shard.keys) expect(htmlOf(shard, key, "")).toBe(`<p>${key}</p>`);
      all.push(...shard.keys);
    }
    expect(all).toEqual(Array.from({ length: n }, (_, i) => String(i)));
  });

  it("puts exactly SHARD_SIZE editions in one shard, and one more in a second", () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => String(i));
    expect(plain(keys(SHARD_SIZE)).index.shards).toHaveLength(1);
    const more = plain(keys(SHARD_SIZE + 1));
    expect(more.index.shards.map((r) => [r.first, r.last])).toEqual([
      ["0", String(SHARD_SIZE - 1)],
      [String(SHARD_SIZE), String(SHARD_SIZE)],
    ]);
  });

  it("orders dated keys chronologically, and indexes the sample", () => {
    const days = ["2026-12-01", "2026-01-31", "2026-11-09", "2025-12-31"];
    const packed = packPublication(
      source([], days, "utc_date", "2026-11-09"),
      days.map((k) => render(k, PLAIN, `<p>${k}</p>`)),
    );
    expect(packed.index).toMatchObject({
      by: "utc_date",
      sample: "2026-11-09",
      count: 4,
      first: "2025-12-31",
      last: "2026-12-01",
    });
    expect([...packed.shards.values()][0]!.keys).toEqual(["2025-12-31", "2026-01-31", "2026-11-09", "2026-12-01"]);
  });

  it("stores a shard and reads it back as it was, multibyte text and identical copies included", () => {
    const bonjour = "<p>Bonjour, Zoë</p>";
    const pages = [bonjour, "<p>日本語の朝</p>", bonjour, "<p>\u2728 \u{1F4DC} scroll</p>"];
    const packed = packPublication(
      source([]),
      pages.map((html, i) => render(String(i), PLAIN, html)),
    );
    for (const shard of packed.shards.values()) {
      const dictionary = shardDictionary(packed.index);
      const back = decodeShard(encodeShard(shard, dictionary), dictionary);
      expect(back.keys).toEqual(shard.keys);
      for (const key of shard.keys) {
        for (const [variant, copy] of Object.entries(shard.editions[key]!)) {
          const read = back.editions[key]![variant]!;
          expect({ etag: read.etag, slots: read.slots, html: back.bodies[read.body] }).toEqual({
            etag: copy.etag,
            slots: copy.slots,
            html: shard.bodies[copy.body],
          });
        }
      }
      // Identical copies are still stored once.
      expect(Object.keys(back.bodies)).toHaveLength(Object.keys(shard.bodies).length);
      expect(Object.hasOwn(back.bodies, "0")).toBe(true);
      expect(Object.hasOwn(back.bodies, String(Object.keys(shard.bodies).length))).toBe(false);
      for (const key of back.keys) expect(back.bodies[back.editions[key]![""]!.body]).toBe(pages[Number(key)]);
    }
  });
});
