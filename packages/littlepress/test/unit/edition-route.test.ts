import { describe, expect, it } from "vitest";
import { publicationSource } from "../helpers/publication-source.ts";
import type { ChoiceField, ConfigField, TextField } from "../../lib/model/config-fields.ts";
import { compileConfigValidator } from "../../lib/model/config-validator.ts";
import type { EditionKey, EditionsBy } from "../../lib/model/edition-key.ts";
import { decideEdition, type EditionDecision } from "../../lib/edge/edition-route.ts";
import { decideSample } from "../../lib/edge/sample-route.ts";
import { editionEtag } from "../../lib/model/etag.ts";
import { packPublication, SHARD_SIZE, type RenderedEdition } from "../../lib/build/pack.ts";
import type { EditionShard, PublicationIndex } from "../../lib/model/shard.ts";
import { published, publishedFromMemory, type PublishedPublication } from "../../lib/edge/publication-store.ts";
import type { PublicationSource } from "../../lib/build/site.ts";
import { slotToken } from "../../lib/model/text-slots.ts";
import { variantsOf } from "../../lib/model/variants.ts";

const lang: ChoiceField = {
  type: "select",
  name: "lang",
  label: "Language",
  required: true,
  default: "fr",
  options: [
    ["English", "en"],
    ["Français", "fr"],
  ],
};
const size: ChoiceField = {
  type: "radio",
  name: "size",
  label: "Size",
  required: false,
  options: [
    ["Small", "s"],
    ["Large", "l"],
  ],
};
const name: TextField = {
  type: "text",
  name: "name",
  label: "Name",
  required: false,
  default: "friend",
  max_length: 10,
};

/**
 * The HTML of one prebuilt copy: it names its key and variant,
 * and has a slot when the publication has text settings.
 */
const page = (key: EditionKey, variant: string, fields: ConfigField[] = []) =>
  `<p>${key} ${variant || "default"}${fields.some((f) => f.type === "text") ? ` ${slotToken("name")}` : ""}</p>`;

interface Options {
  ends?: boolean;
  fields?: ConfigField[];
  sample?: EditionKey;
  /** Leaves out the copies this says were not built. */
  skip?: (key: EditionKey, variant: string) => boolean;
}

function source(by: EditionsBy, keys: EditionKey[], opts: Options = {}): PublicationSource {
  return publicationSource({
    by,
    keys,
    ...(opts.fields && { fields: opts.fields }),
    ...(opts.ends !== undefined && { ends: opts.ends }),
    ...(opts.sample && { sample: opts.sample }),
  });
}

/** A publication whose every key has a prebuilt copy per variant (unless skipped), told apart by their HTML. */
function publication(by: EditionsBy, keys: EditionKey[], opts: Options = {}): PublishedPublication {
  const fields = opts.fields ?? [];
  const renders: RenderedEdition[] = [];
  for (const key of keys) {
    for (const variant of variantsOf(fields)) {
      if (!opts.skip?.(key, variant.id))
        renders.push({ source: `content/test/editions/${key}.md`, key, variant, html: page(key, variant.id, fields) });
    }
  }
  return publishedFromMemory(packPublication(source(by, keys, opts), renders), {
    validate: compileConfigValidator(fields),
  });
}

const NOW = new Date("2026-11-22T12:00:00Z");
const decide = (pub: PublishedPublication, query: string, now = NOW): Promise<EditionDecision> =>
  decideEdition(pub, new URLSearchParams(query), now);

function served(d: EditionDecision): Extract<EditionDecision, { status: 200 }> {
  if (d.status !== 200) throw new Error(`expected 200, got ${d.status}: ${d.reason}`);
  return d;
}

function refused(d: EditionDecision, status: 204 | 410): string {
  expect(d.status).toBe(status);
  if (d.status === 200) return "";
  expect(typeof d.reason).toBe("string");
  expect(d.reason.length).toBeGreaterThan(0);
  return d.reason;
}

/** Checks a 200 serves the copy of `key` for `variant`, with that copy's HTML and ETag. */
function expectCopy(d: EditionDecision, key: EditionKey, variant: string, fields: ConfigField[] = []) {
  const ok = served(d);
  expect(ok.key).toBe(key);
  expect(ok.html).toBe(page(key, variant, fields));
  expect(ok.etag).toBe(editionEtag(key, variant, page(key, variant, fields)));
  expect(ok.slots).toBe(fields.some((f) => f.type === "text"));
}

const time = (t: string) => `local_delivery_time=${encodeURIComponent(t)}`;

describe("decideEdition: delivery_count", () => {
  const serial = publication("delivery_count", ["0", "1", "2", "5", "10"], { ends: true });
  const open = publication("delivery_count", ["0", "1", "2"], { ends: false });

  it("serves the edition of the count", async () => {
    for (const key of ["0", "1", "2", "5", "10"]) expectCopy(await decide(serial, `delivery_count=${key}`), key, "");
  });

  it("treats leading zeros as the same count", async () => {
    expect(served(await decide(serial, "delivery_count=05")).key).toBe("5");
  });

  it("answers 204 for a gap between editions", async () => {
    expect(refused(await decide(serial, "delivery_count=3"), 204)).toContain("3");
    refused(await decide(serial, "delivery_count=9"), 204);
  });

  it("answers 410 past the last edition when the series ends", async () => {
    expect(refused(await decide(serial, "delivery_count=11"), 410)).toContain("10");
    refused(await decide(serial, "delivery_count=99999999999999999999"), 410);
  });

  it("answers 204 past the last edition when the series does not end", async () => {
    refused(await decide(open, "delivery_count=3"), 204);
    refused(await decide(open, "delivery_count=1000"), 204);
  });

  it("answers 204 with a reason for an invalid count", async () => {
    for (const raw of ["-1", "1.5", "abc", "%203"]) {
      expect(refused(await decide(serial, `delivery_count=${raw}`), 204)).toBe(
        "delivery_count is not a non-negative integer",
      );
    }
  });

  it("never echoes the request into the reason", async () => {
    expect(refused(await decide(serial, "delivery_count=<script>"), 204)).not.toContain("<script>");
  });

  it("serves edition 0 when delivery_count is absent or empty", async () => {
    expect(served(await decide(serial, "")).key).toBe("0");
    expect(served(await decide(serial, "delivery_count=")).key).toBe("0");
  });

  it("serves the first edition when absent and there is no edition 0", async () => {
    const late = publication("delivery_count", ["3", "4"], { ends: true });
    expect(served(await decide(late, "")).key).toBe("3");
    refused(await decide(late, "delivery_count=0"), 204);
  });

  it("does not depend on the time", async () => {
    expect(served(await decide(serial, "delivery_count=2", new Date("1999-01-01T00:00:00Z"))).key).toBe("2");
  });

  it("ignores local_delivery_time", async () => {
    expect(served(await decide(serial, `delivery_count=1&${time("2030-01-01T07:00:00Z")}`)).key).toBe("1");
  });

  it("does not count from 1: count 0 is the first edition", async () => {
    expectCopy(await decide(serial, "delivery_count=0"), "0", "");
  });
});

describe.each([
  ["local_date", "2026-11-20", "2026-11-22", "2026-11-25"],
  ["utc_date", "2026-11-20", "2026-11-22", "2026-11-25"],
] as const)("decideEdition: %s", (by, first, middle, last) => {
  const ended = publication(by, [first, middle, last], { ends: true });
  const open = publication(by, [first, middle, last], { ends: false });

  it("serves the edition of the day", async () => {
    for (const key of [first, middle, last]) expectCopy(await decide(ended, time(`${key}T07:00:00Z`)), key, "");
  });

  it("answers 204 on a day without an edition", async () => {
    expect(refused(await decide(ended, time("2026-11-21T07:00:00Z")), 204)).toContain("2026-11-21");
  });

  it("answers 204 before the first edition", async () => {
    expect(refused(await decide(ended, time("2026-11-01T07:00:00Z")), 204)).toContain(first);
  });

  it("answers 410 after the last edition when the series ends, 204 when it does not", async () => {
    expect(refused(await decide(ended, time("2026-11-26T07:00:00Z")), 410)).toContain(last);
    refused(await decide(open, time("2026-11-26T07:00:00Z")), 204);
  });

  it("answers 204 with the parser's reason for an invalid time", async () => {
    expect(refused(await decide(ended, time("2026-02-30T07:00:00Z")), 204)).toMatch(/impossible date/);
    expect(refused(await decide(ended, "local_delivery_time=yesterday"), 204)).toMatch(/ISO 8601/);
  });

  it("serves the latest edition not after now when local_delivery_time is absent", async () => {
    expect(served(await decide(ended, "", new Date("2026-11-23T12:00:00Z"))).key).toBe(middle);
    expect(served(await decide(ended, "", new Date("2026-11-22T00:00:00Z"))).key).toBe(middle);
    expect(served(await decide(ended, "", new Date("2026-11-21T23:59:59Z"))).key).toBe(first);
    expect(served(await decide(ended, "", new Date("2030-01-01T00:00:00Z"))).key).toBe(last);
  });

  it("serves the first edition when absent and every edition is in the future", async () => {
    expect(served(await decide(ended, "", new Date("2020-01-01T00:00:00Z"))).key).toBe(first);
  });

  it("ignores delivery_count", async () => {
    expect(served(await decide(ended, `delivery_count=0&${time(`${middle}T07:00:00Z`)}`)).key).toBe(middle);
  });
});

describe("decideEdition: local_date vs utc_date", () => {
  const t = time("2026-11-21T23:00:00-05:00"); // 2026-11-22T04:00Z

  it("local_date uses the date as the printer wrote it", async () => {
    const pub = publication("local_date", ["2026-11-21", "2026-11-22"]);
    expect(served(await decide(pub, t)).key).toBe("2026-11-21");
  });

  it("utc_date uses the UTC date", async () => {
    const pub = publication("utc_date", ["2026-11-21", "2026-11-22"]);
    expect(served(await decide(pub, t)).key).toBe("2026-11-22");
  });

  it("accepts the + that arrived as a space", async () => {
    const pub = publication("utc_date", ["2026-11-21", "2026-11-22"]);
    expect(served(await decide(pub, "local_delivery_time=2026-11-22T00:30:00+01:00")).key).toBe("2026-11-21");
  });
});

describe("decideEdition: utc_hour", () => {
  const hourly = publication("utc_hour", ["2026-11-22T06", "2026-11-22T07", "2026-11-22T09"], { ends: true });

  it("serves the edition of the UTC hour", async () => {
    expect(served(await decide(hourly, time("2026-11-22T08:00:00+01:00"))).key).toBe("2026-11-22T07");
    expect(served(await decide(hourly, time("2026-11-22T09:59:59Z"))).key).toBe("2026-11-22T09");
  });

  it("answers 204 in a gap, 410 after the last hour", async () => {
    refused(await decide(hourly, time("2026-11-22T08:00:00Z")), 204);
    refused(await decide(hourly, time("2026-11-22T10:00:00Z")), 410);
    refused(await decide(hourly, time("2026-11-22T05:00:00Z")), 204);
  });

  it("serves the latest hour not after now when absent", async () => {
    expect(served(await decide(hourly, "", new Date("2026-11-22T08:30:00Z"))).key).toBe("2026-11-22T07");
    expect(served(await decide(hourly, "", new Date("2026-11-22T06:00:00Z"))).key).toBe("2026-11-22T06");
    expect(served(await decide(hourly, "", new Date("2026-11-21T00:00:00Z"))).key).toBe("2026-11-22T06");
  });
});

describe("decideEdition: default edition with many keys", () => {
  it("finds the latest key not after now among many", async () => {
    const keys = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    const pub = publication("utc_date", keys);
    expect(served(await decide(pub, "", new Date("2026-07-04T12:00:00Z"))).key).toBe("2026-07-04");
    expect(served(await decide(pub, "", new Date("2026-01-01T00:00:00Z"))).key).toBe("2026-01-01");
    expect(served(await decide(pub, "", new Date("2026-12-31T23:59:59Z"))).key).toBe("2026-12-31");
    const sparse = publication(
      "utc_date",
      keys.filter((_, i) => i % 7 === 0),
    );
    expect(served(await decide(sparse, "", new Date("2026-01-10T12:00:00Z"))).key).toBe("2026-01-08");
  });
});

describe("decideEdition: variants and settings", () => {
  const fields = [lang, name, size];
  const pub = publication("delivery_count", ["0", "1"], { ends: true, fields });

  it("picks the variant from the query parameters", async () => {
    const d = served(await decide(pub, "delivery_count=1&lang=en&size=l&name=Ada"));
    expectCopy(d, "1", "lang=en&size=l", fields);
    expect(d.values).toEqual(
      new Map([
        ["lang", "en"],
        ["name", "Ada"],
        ["size", "l"],
      ]),
    );
    expect([...d.values.keys()]).toEqual(["lang", "name", "size"]);
  });

  it("falls back to the default for an unknown option value", async () => {
    const d = served(await decide(pub, "delivery_count=1&lang=de&size=xl"));
    expectCopy(d, "1", "lang=fr&size=s", fields);
    expect(d.values.get("lang")).toBe("fr");
    expect(d.values.get("size")).toBe("s");
  });

  it("falls back to the defaults when no settings are sent (a browser)", async () => {
    const d = served(await decide(pub, ""));
    expectCopy(d, "0", "lang=fr&size=s", fields);
    expect(d.values.get("name")).toBe("friend");
  });

  it("keeps good settings when another one is bad", async () => {
    const d = served(await decide(pub, "delivery_count=0&lang=en&size=huge&name=Ada"));
    expectCopy(d, "0", "lang=en&size=s", fields);
    expect(d.values.get("name")).toBe("Ada");
  });

  it("falls back for a text value that validate_config would refuse", async () => {
    const d = served(await decide(pub, `delivery_count=0&lang=en&name=${"x".repeat(11)}`));
    expect(d.values.get("name")).toBe("friend");
  });

  it("passes text values through raw, with the slots unfilled; filling is the slot filler's job", async () => {
    const d = served(await decide(pub, "delivery_count=0&name=%3Cb%3E"));
    expect(d.values.get("name")).toBe("<b>");
    expect(d.html).toContain(slotToken("name"));
    expect(d.slots).toBe(true);
  });

  it("ignores unknown parameters", async () => {
    const d = served(await decide(pub, "delivery_count=0&lang=en&utm_source=x&colour=red"));
    expectCopy(d, "0", "lang=en&size=s", fields);
  });

  it("gives each copy its own ETag", async () => {
    const etags = new Set<string>();
    for (const q of [
      "delivery_count=0&lang=en",
      "delivery_count=0&lang=fr",
      "delivery_count=1&lang=en",
      "delivery_count=0&lang=en&size=l",
    ])
      etags.add(served(await decide(pub, q)).etag);
    expect(etags.size).toBe(4);
  });

  it("answers 204 when the edition has no copy for the settings", async () => {
    const partial = publication("delivery_count", ["0"], {
      fields: [lang],
      skip: (key, variant) => key === "0" && variant === "lang=en",
    });
    expect(refused(await decide(partial, "delivery_count=0&lang=en"), 204)).toMatch(/not built/);
    expectCopy(await decide(partial, "delivery_count=0&lang=fr"), "0", "lang=fr", [lang]);
  });

  it("does not find editions on the prototype chain of shards read from JSON", async () => {
    const packed = packPublication(
      source("delivery_count", ["0", "2"]),
      ["0", "2"].map((key) => ({ source: `${key}.md`, key, variant: { id: "", values: {} }, html: page(key, "") })),
    );
    const index = JSON.parse(JSON.stringify(packed.index)) as PublicationIndex;
    const pub2 = published(index, (id) =>
      Promise.resolve(JSON.parse(JSON.stringify(packed.shards.get(id))) as EditionShard),
    );
    expectCopy(await decide(pub2, "delivery_count=0"), "0", "");
    // 1 is inside the shard's range, but not one of its editions.
    expect(refused(await decide(pub2, "delivery_count=1"), 204)).toContain("1");
    refused(await decide(pub2, "delivery_count=3"), 204);
  });
});

describe("decideSample", () => {
  const fields = [lang, name];
  const pub = publication("delivery_count", ["0", "1", "2"], { ends: true, sample: "1", fields });

  it("serves the sample edition whatever the count or time", async () => {
    expect(served(await decideSample(pub, new URLSearchParams(""))).key).toBe("1");
    expect(served(await decideSample(pub, new URLSearchParams("delivery_count=2"))).key).toBe("1");
    expect(served(await decideSample(pub, new URLSearchParams("delivery_count=99"))).key).toBe("1");
  });

  it("uses the settings sent, falling back to the defaults", async () => {
    expectCopy(await decideSample(pub, new URLSearchParams("lang=en&name=Ada")), "1", "lang=en", fields);
    const d = served(await decideSample(pub, new URLSearchParams("lang=xx")));
    expectCopy(d, "1", "lang=fr", fields);
    expect(d.values.get("name")).toBe("friend");
  });

  it("serves a dated sample", async () => {
    const daily = publication("local_date", ["2026-11-20", "2026-11-21"], { sample: "2026-11-21" });
    expect(served(await decideSample(daily, new URLSearchParams(time("2026-11-20T07:00:00Z")))).key).toBe("2026-11-21");
  });

  it("serves a sample from a later shard", async () => {
    const keys = Array.from({ length: SHARD_SIZE + 10 }, (_, i) => String(i));
    const big = publication("delivery_count", keys, { sample: String(SHARD_SIZE + 3) });
    expectCopy(await decideSample(big, new URLSearchParams("")), String(SHARD_SIZE + 3), "");
  });

  it("answers 204 when the sample is after every shard", async () => {
    const lost = publication("delivery_count", ["0", "1", "2"], { sample: "9" });
    refused(await decideSample(lost, new URLSearchParams("")), 204);
  });

  it("answers 204, not a crash, when the sample falls in a gap inside a shard's range", async () => {
    const lost = publication("delivery_count", ["0", "1", "5"], { sample: "3" });
    refused(await decideSample(lost, new URLSearchParams("")), 204);
  });
});

// Publications of more than two shards, with gaps exactly where one shard ends and the next begins.

const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
const hour = (i: number) => new Date(Date.UTC(2026, 0, 1, i)).toISOString().slice(0, 13);
/** Positions 0 … n-1, skipping `gap` positions at the end of each of the first two shards. */
const spread = (n: number, gap: number) =>
  Array.from({ length: n }, (_, i) => i + (i >= SHARD_SIZE ? gap : 0) + (i >= 2 * SHARD_SIZE ? gap : 0));

describe("decideEdition across shards: delivery_count", () => {
  const counts = spread(2 * SHARD_SIZE + 10, 7).map(String); // gaps 128…134 and 263…269
  const ended = publication("delivery_count", counts, { ends: true });
  const open = publication("delivery_count", counts, { ends: false });

  it("packs more than two shards with the gaps at their boundaries", () => {
    expect(ended.index.shards.length).toBe(3);
    expect(ended.index.shards[0]!.last).toBe(String(SHARD_SIZE - 1));
    expect(ended.index.shards[1]!.first).toBe(String(SHARD_SIZE + 7));
    expect(ended.index.shards[2]!.first).toBe(String(2 * SHARD_SIZE + 14));
  });

  it("finds the first and the last key of every shard", async () => {
    for (const range of ended.index.shards) {
      expectCopy(await decide(ended, `delivery_count=${range.first}`), range.first, "");
      expectCopy(await decide(ended, `delivery_count=${range.last}`), range.last, "");
    }
  });

  it("finds every key, in numeric order across shards", async () => {
    for (const key of counts) expect(served(await decide(ended, `delivery_count=${key}`)).key).toBe(key);
    expect(served(await decide(ended, `delivery_count=000${SHARD_SIZE + 7}`)).key).toBe(String(SHARD_SIZE + 7));
  });

  it("answers 204 for a count between two shards' ranges", async () => {
    for (const gap of [SHARD_SIZE, SHARD_SIZE + 3, SHARD_SIZE + 6, 2 * SHARD_SIZE + 7, 2 * SHARD_SIZE + 13]) {
      expect(refused(await decide(ended, `delivery_count=${gap}`), 204)).toContain(String(gap));
    }
  });

  it("answers 410 past the last edition when the series ends, 204 when it does not", async () => {
    const after = String(Number(counts.at(-1)) + 1);
    expect(refused(await decide(ended, `delivery_count=${after}`), 410)).toContain(counts.at(-1)!);
    refused(await decide(ended, "delivery_count=99999999999999999999"), 410);
    refused(await decide(open, `delivery_count=${after}`), 204);
  });

  it("serves edition 0 when delivery_count is absent", async () => {
    expectCopy(await decide(ended, ""), "0", "");
  });
});

describe("decideEdition across shards: dated", () => {
  const days = spread(2 * SHARD_SIZE + 10, 5).map(day);
  const ended = publication("utc_date", days, { ends: true });
  const open = publication("utc_date", days, { ends: false });
  const at = (d: string, t = "12:00:00Z") => new Date(`${d}T${t}`);
  const lastOfFirst = day(SHARD_SIZE - 1);
  const firstOfSecond = day(SHARD_SIZE + 5);
  const lastOfSecond = day(2 * SHARD_SIZE + 4);

  it("packs more than two shards with the gaps at their boundaries", () => {
    expect(ended.index.shards.map((r) => [r.first, r.last])).toEqual([
      [day(0), lastOfFirst],
      [firstOfSecond, lastOfSecond],
      [day(2 * SHARD_SIZE + 10), days.at(-1)],
    ]);
  });

  it("finds the first and the last key of every shard", async () => {
    for (const range of ended.index.shards) {
      expectCopy(await decide(ended, time(`${range.first}T07:00:00Z`)), range.first, "");
      expectCopy(await decide(ended, time(`${range.last}T07:00:00Z`)), range.last, "");
    }
  });

  it("answers 204 for a day between two shards' ranges", async () => {
    for (const gap of [day(SHARD_SIZE), day(SHARD_SIZE + 4), day(2 * SHARD_SIZE + 5), day(2 * SHARD_SIZE + 9)]) {
      expect(refused(await decide(ended, time(`${gap}T07:00:00Z`)), 204)).toContain(gap);
    }
  });

  it("answers 410 past the last edition when the series ends, 204 when it does not, 204 before the first", async () => {
    const after = day(2 * SHARD_SIZE + 10 + 10);
    expect(refused(await decide(ended, time(`${after}T07:00:00Z`)), 410)).toContain(days.at(-1)!);
    refused(await decide(open, time(`${after}T07:00:00Z`)), 204);
    expect(refused(await decide(ended, time("2025-12-31T07:00:00Z")), 204)).toContain(day(0));
  });

  it("when absent, serves the latest edition of the earlier shard while now is in a gap between shards", async () => {
    expectCopy(await decide(ended, "", at(day(SHARD_SIZE))), lastOfFirst, "");
    expectCopy(await decide(ended, "", at(day(SHARD_SIZE + 4), "23:59:59Z")), lastOfFirst, "");
    expectCopy(await decide(ended, "", at(day(2 * SHARD_SIZE + 7))), lastOfSecond, "");
  });

  it("when absent, serves the edition of today at either end of a shard", async () => {
    expectCopy(await decide(ended, "", at(lastOfFirst)), lastOfFirst, "");
    expectCopy(await decide(ended, "", at(firstOfSecond, "00:00:00Z")), firstOfSecond, "");
    expectCopy(await decide(ended, "", at(day(SHARD_SIZE + 8))), day(SHARD_SIZE + 8), "");
  });

  it("when absent, serves the last edition once all are past, the first while all are to come", async () => {
    expectCopy(await decide(ended, "", at("2030-01-01")), days.at(-1)!, "");
    expectCopy(await decide(ended, "", at("2020-01-01")), day(0), "");
    expectCopy(await decide(ended, "", at("2025-12-31", "23:59:59Z")), day(0), "");
  });

  it("does the same by the hour", async () => {
    const hours = spread(2 * SHARD_SIZE + 10, 5).map(hour);
    const hourly = publication("utc_hour", hours, { ends: true });
    expect(hourly.index.shards).toHaveLength(3);
    expectCopy(await decide(hourly, "", new Date(Date.UTC(2026, 0, 1, SHARD_SIZE + 2, 30))), hour(SHARD_SIZE - 1), "");
    expectCopy(await decide(hourly, "", new Date(Date.UTC(2026, 0, 1, SHARD_SIZE + 5))), hour(SHARD_SIZE + 5), "");
    expectCopy(await decide(hourly, "", new Date(Date.UTC(2025, 11, 31, 23))), hour(0), "");
    refused(await decide(hourly, time(`${hour(SHARD_SIZE + 1)}:15:00Z`)), 204);
    refused(await decide(hourly, time(`${hour(3 * SHARD_SIZE)}:15:00Z`)), 410);
  });
});
