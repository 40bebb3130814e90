import { describe, expect, it } from "vitest";
import type { ChoiceField, ConfigField, TextField } from "../../lib/config-fields.ts";
import { compileConfigValidator } from "../../lib/config-validator.ts";
import type { EditionKey, EditionsBy } from "../../lib/edition-key.ts";
import { decideEdition, decideSample, type EditionDecision } from "../../lib/edition-route.ts";
import type { Manifest, PrebuiltEdition } from "../../lib/manifest.ts";
import type { PublishedPublication } from "../../lib/publication-store.ts";
import { variantsOf } from "../../lib/variants.ts";

const lang: ChoiceField = { type: "select", name: "lang", label: "Language", required: true, default: "fr", options: [["English", "en"], ["Français", "fr"]] };
const size: ChoiceField = { type: "radio", name: "size", label: "Size", required: false, options: [["Small", "s"], ["Large", "l"]] };
const name: TextField = { type: "text", name: "name", label: "Name", required: false, default: "friend", max_length: 10 };

/** A publication whose every key has a prebuilt copy per variant, with a file name that tells them apart. */
function publication(by: EditionsBy, keys: EditionKey[], opts: { ends?: boolean; fields?: ConfigField[]; sample?: EditionKey } = {}): PublishedPublication {
  const fields = opts.fields ?? [];
  const editions: Manifest["editions"] = {};
  for (const key of keys) {
    const copies: Record<string, PrebuiltEdition> = {};
    for (const v of variantsOf(fields)) copies[v.id] = { file: `${key}/${v.id || "default"}.html`, etag: `"${key}-${v.id}"`, slots: fields.some((f) => f.type === "text") };
    editions[key] = copies;
  }
  const manifest: Manifest = { format: 1, slug: "test", by, ends: opts.ends ?? false, charset: "utf-8", fields, keys, sample: opts.sample ?? keys[0]!, editions };
  return { manifest, validate: compileConfigValidator(fields), body: async (file) => `<p>${file}</p>` };
}

const NOW = new Date("2026-11-22T12:00:00Z");
const decide = (pub: PublishedPublication, query: string, now = NOW): EditionDecision => decideEdition(pub, new URLSearchParams(query), now);

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

const time = (t: string) => `local_delivery_time=${encodeURIComponent(t)}`;

describe("decideEdition: delivery_count", () => {
  const serial = publication("delivery_count", ["0", "1", "2", "5", "10"], { ends: true });
  const open = publication("delivery_count", ["0", "1", "2"], { ends: false });

  it("serves the edition of the count", () => {
    for (const key of ["0", "1", "2", "5", "10"]) {
      const d = served(decide(serial, `delivery_count=${key}`));
      expect(d.key).toBe(key);
      expect(d.edition.file).toBe(`${key}/default.html`);
    }
  });

  it("treats leading zeros as the same count", () => {
    expect(served(decide(serial, "delivery_count=05")).key).toBe("5");
  });

  it("answers 204 for a gap between editions", () => {
    expect(refused(decide(serial, "delivery_count=3"), 204)).toContain("3");
    refused(decide(serial, "delivery_count=9"), 204);
  });

  it("answers 410 past the last edition when the series ends", () => {
    expect(refused(decide(serial, "delivery_count=11"), 410)).toContain("10");
    refused(decide(serial, "delivery_count=99999999999999999999"), 410);
  });

  it("answers 204 past the last edition when the series does not end", () => {
    refused(decide(open, "delivery_count=3"), 204);
    refused(decide(open, "delivery_count=1000"), 204);
  });

  it("answers 204 with a reason for an invalid count", () => {
    for (const raw of ["-1", "1.5", "abc", "%203"]) {
      expect(refused(decide(serial, `delivery_count=${raw}`), 204)).toBe("delivery_count is not a non-negative integer");
    }
  });

  it("never echoes the request into the reason", () => {
    expect(refused(decide(serial, "delivery_count=<script>"), 204)).not.toContain("<script>");
  });

  it("serves edition 0 when delivery_count is absent or empty", () => {
    expect(served(decide(serial, "")).key).toBe("0");
    expect(served(decide(serial, "delivery_count=")).key).toBe("0");
  });

  it("serves the first edition when absent and there is no edition 0", () => {
    const late = publication("delivery_count", ["3", "4"], { ends: true });
    expect(served(decide(late, "")).key).toBe("3");
    refused(decide(late, "delivery_count=0"), 204);
  });

  it("does not depend on the time", () => {
    expect(served(decide(serial, "delivery_count=2", new Date("1999-01-01T00:00:00Z"))).key).toBe("2");
  });

  it("ignores local_delivery_time", () => {
    expect(served(decide(serial, `delivery_count=1&${time("2030-01-01T07:00:00Z")}`)).key).toBe("1");
  });

  it("does not count from 1: count 0 is the first edition", () => {
    expect(served(decide(serial, "delivery_count=0")).edition.file).toBe("0/default.html");
  });
});

describe.each([
  ["local_date", "2026-11-20", "2026-11-22", "2026-11-25"],
  ["utc_date", "2026-11-20", "2026-11-22", "2026-11-25"],
] as const)("decideEdition: %s", (by, first, middle, last) => {
  const ended = publication(by, [first, middle, last], { ends: true });
  const open = publication(by, [first, middle, last], { ends: false });

  it("serves the edition of the day", () => {
    for (const key of [first, middle, last]) expect(served(decide(ended, time(`${key}T07:00:00Z`))).key).toBe(key);
  });

  it("answers 204 on a day without an edition", () => {
    expect(refused(decide(ended, time("2026-11-21T07:00:00Z")), 204)).toContain("2026-11-21");
  });

  it("answers 204 before the first edition", () => {
    expect(refused(decide(ended, time("2026-11-01T07:00:00Z")), 204)).toContain(first);
  });

  it("answers 410 after the last edition when the series ends, 204 when it does not", () => {
    expect(refused(decide(ended, time("2026-11-26T07:00:00Z")), 410)).toContain(last);
    refused(decide(open, time("2026-11-26T07:00:00Z")), 204);
  });

  it("answers 204 with the parser's reason for an invalid time", () => {
    expect(refused(decide(ended, time("2026-02-30T07:00:00Z")), 204)).toMatch(/impossible date/);
    expect(refused(decide(ended, "local_delivery_time=yesterday"), 204)).toMatch(/ISO 8601/);
  });

  it("serves the latest edition not after now when local_delivery_time is absent", () => {
    expect(served(decide(ended, "", new Date("2026-11-23T12:00:00Z"))).key).toBe(middle);
    expect(served(decide(ended, "", new Date("2026-11-22T00:00:00Z"))).key).toBe(middle);
    expect(served(decide(ended, "", new Date("2026-11-21T23:59:59Z"))).key).toBe(first);
    expect(served(decide(ended, "", new Date("2030-01-01T00:00:00Z"))).key).toBe(last);
  });

  it("serves the first edition when absent and every edition is in the future", () => {
    expect(served(decide(ended, "", new Date("2020-01-01T00:00:00Z"))).key).toBe(first);
  });

  it("ignores delivery_count", () => {
    expect(served(decide(ended, `delivery_count=0&${time(`${middle}T07:00:00Z`)}`)).key).toBe(middle);
  });
});

describe("decideEdition: local_date vs utc_date", () => {
  const t = time("2026-11-21T23:00:00-05:00"); // 2026-11-22T04:00Z

  it("local_date uses the date as the printer wrote it", () => {
    const pub = publication("local_date", ["2026-11-21", "2026-11-22"]);
    expect(served(decide(pub, t)).key).toBe("2026-11-21");
  });

  it("utc_date uses the UTC date", () => {
    const pub = publication("utc_date", ["2026-11-21", "2026-11-22"]);
    expect(served(decide(pub, t)).key).toBe("2026-11-22");
  });

  it("accepts the + that arrived as a space", () => {
    const pub = publication("utc_date", ["2026-11-21", "2026-11-22"]);
    expect(served(decide(pub, "local_delivery_time=2026-11-22T00:30:00+01:00")).key).toBe("2026-11-21");
  });
});

describe("decideEdition: utc_hour", () => {
  const hourly = publication("utc_hour", ["2026-11-22T06", "2026-11-22T07", "2026-11-22T09"], { ends: true });

  it("serves the edition of the UTC hour", () => {
    expect(served(decide(hourly, time("2026-11-22T08:00:00+01:00"))).key).toBe("2026-11-22T07");
    expect(served(decide(hourly, time("2026-11-22T09:59:59Z"))).key).toBe("2026-11-22T09");
  });

  it("answers 204 in a gap, 410 after the last hour", () => {
    refused(decide(hourly, time("2026-11-22T08:00:00Z")), 204);
    refused(decide(hourly, time("2026-11-22T10:00:00Z")), 410);
    refused(decide(hourly, time("2026-11-22T05:00:00Z")), 204);
  });

  it("serves the latest hour not after now when absent", () => {
    expect(served(decide(hourly, "", new Date("2026-11-22T08:30:00Z"))).key).toBe("2026-11-22T07");
    expect(served(decide(hourly, "", new Date("2026-11-22T06:00:00Z"))).key).toBe("2026-11-22T06");
    expect(served(decide(hourly, "", new Date("2026-11-21T00:00:00Z"))).key).toBe("2026-11-22T06");
  });
});

describe("decideEdition: default edition with many keys", () => {
  it("finds the latest key not after now among many", () => {
    const keys = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    const pub = publication("utc_date", keys);
    expect(served(decide(pub, "", new Date("2026-07-04T12:00:00Z"))).key).toBe("2026-07-04");
    expect(served(decide(pub, "", new Date("2026-01-01T00:00:00Z"))).key).toBe("2026-01-01");
    expect(served(decide(pub, "", new Date("2026-12-31T23:59:59Z"))).key).toBe("2026-12-31");
    const sparse = publication("utc_date", keys.filter((_, i) => i % 7 === 0));
    expect(served(decide(sparse, "", new Date("2026-01-10T12:00:00Z"))).key).toBe("2026-01-08");
  });
});

describe("decideEdition: variants and settings", () => {
  const pub = publication("delivery_count", ["0", "1"], { ends: true, fields: [lang, name, size] });

  it("picks the variant from the query parameters", () => {
    const d = served(decide(pub, "delivery_count=1&lang=en&size=l&name=Ada"));
    expect(d.edition.file).toBe("1/lang=en&size=l.html");
    expect(d.values).toEqual(new Map([["lang", "en"], ["name", "Ada"], ["size", "l"]]));
    expect([...d.values.keys()]).toEqual(["lang", "name", "size"]);
  });

  it("falls back to the default for an unknown option value", () => {
    const d = served(decide(pub, "delivery_count=1&lang=de&size=xl"));
    expect(d.edition.file).toBe("1/lang=fr&size=s.html");
    expect(d.values.get("lang")).toBe("fr");
    expect(d.values.get("size")).toBe("s");
  });

  it("falls back to the defaults when no settings are sent (a browser)", () => {
    const d = served(decide(pub, ""));
    expect(d.key).toBe("0");
    expect(d.edition.file).toBe("0/lang=fr&size=s.html");
    expect(d.values.get("name")).toBe("friend");
  });

  it("keeps good settings when another one is bad", () => {
    const d = served(decide(pub, "delivery_count=0&lang=en&size=huge&name=Ada"));
    expect(d.edition.file).toBe("0/lang=en&size=s.html");
    expect(d.values.get("name")).toBe("Ada");
  });

  it("falls back for a text value that validate_config would refuse", () => {
    const d = served(decide(pub, `delivery_count=0&lang=en&name=${"x".repeat(11)}`));
    expect(d.values.get("name")).toBe("friend");
  });

  it("passes text values through raw; escaping is the slot filler's job", () => {
    const d = served(decide(pub, "delivery_count=0&name=%3Cb%3E"));
    expect(d.values.get("name")).toBe("<b>");
  });

  it("ignores unknown parameters", () => {
    const d = served(decide(pub, "delivery_count=0&lang=en&utm_source=x&colour=red"));
    expect(d.edition.file).toBe("0/lang=en&size=s.html");
  });

  it("answers 204 when the edition has no copy for the settings", () => {
    const partial = publication("delivery_count", ["0"], { fields: [lang] });
    delete partial.manifest.editions["0"]!["lang=en"];
    refused(decide(partial, "delivery_count=0&lang=en"), 204);
    expect(served(decide(partial, "delivery_count=0&lang=fr")).edition.file).toBe("0/lang=fr.html");
  });

  it("does not find editions on the prototype chain of a manifest read from JSON", () => {
    const fromJson = JSON.parse(JSON.stringify(publication("delivery_count", ["0"]).manifest)) as Manifest;
    const pub2: PublishedPublication = { manifest: fromJson, validate: compileConfigValidator([]), body: async () => "" };
    expect(served(decide(pub2, "delivery_count=0")).key).toBe("0");
    refused(decide(pub2, "delivery_count=1"), 204);
  });
});

describe("decideSample", () => {
  const pub = publication("delivery_count", ["0", "1", "2"], { ends: true, sample: "1", fields: [lang, name] });

  it("serves the sample edition whatever the count or time", () => {
    expect(served(decideSample(pub, new URLSearchParams(""))).key).toBe("1");
    expect(served(decideSample(pub, new URLSearchParams("delivery_count=2"))).key).toBe("1");
    expect(served(decideSample(pub, new URLSearchParams("delivery_count=99"))).key).toBe("1");
  });

  it("uses the settings sent, falling back to the defaults", () => {
    expect(served(decideSample(pub, new URLSearchParams("lang=en&name=Ada"))).edition.file).toBe("1/lang=en.html");
    const d = served(decideSample(pub, new URLSearchParams("lang=xx")));
    expect(d.edition.file).toBe("1/lang=fr.html");
    expect(d.values.get("name")).toBe("friend");
  });

  it("serves a dated sample", () => {
    const daily = publication("local_date", ["2026-11-20", "2026-11-21"], { sample: "2026-11-21" });
    expect(served(decideSample(daily, new URLSearchParams(time("2026-11-20T07:00:00Z")))).key).toBe("2026-11-21");
  });
});
