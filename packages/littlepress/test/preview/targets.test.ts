// Choosing editions, the URL each one is asked for by, and the summary table.
import { describe, expect, it } from "vitest";
import { PreviewError } from "../../scripts/preview/errors.ts";
import { formatSummary, indexEdition, printWarnings } from "../../scripts/preview/summary.ts";
import { chooseTargets, editionQuery, printHeader, type PublicationEditions } from "../../scripts/preview/targets.ts";
import { headerText } from "../../scripts/preview/sirius-page.ts";

const publications = new Map<string, PublicationEditions>([
  ["almanac", { name: "The Almanac", by: "local_date", keys: ["2026-11-16", "2026-11-17"], fields: [] }],
  ["lighthouse", { name: "The Lighthouse Cat", by: "delivery_count", keys: ["0", "1", "2"], fields: [] }],
]);

describe("chooseTargets", () => {
  it("takes every edition of every publication, or of the given slugs", () => {
    expect(chooseTargets(publications, []).map((t) => [t.slug, t.keys.length])).toEqual([
      ["almanac", 2],
      ["lighthouse", 3],
    ]);
    expect(chooseTargets(publications, ["lighthouse"]).map((t) => t.slug)).toEqual(["lighthouse"]);
  });

  it("keeps only the publications that have --edition", () => {
    expect(chooseTargets(publications, [], "1")).toEqual([
      {
        slug: "lighthouse",
        name: "The Lighthouse Cat",
        by: "delivery_count",
        keys: ["1"],
        allKeys: ["0", "1", "2"],
        fields: [],
      },
    ]);
  });

  it("names the known publications for an unknown slug, and the keys for an unknown edition", () => {
    expect(() => chooseTargets(publications, ["lighthous"])).toThrow(
      new PreviewError('there is no publication "lighthous"; the publications are: almanac, lighthouse', true),
    );
    expect(() => chooseTargets(publications, ["lighthouse"], "9")).toThrow(
      'no chosen publication has an edition "9" (lighthouse: 0, 1, 2)',
    );
  });
});

describe("editionQuery", () => {
  it("asks as the platform does", () => {
    expect(editionQuery("delivery_count", "3")).toBe("delivery_count=3");
    expect(editionQuery("local_date", "2026-11-22")).toBe("local_delivery_time=2026-11-22T06:00:00Z");
    expect(editionQuery("utc_date", "2026-11-22")).toBe("local_delivery_time=2026-11-22T06:00:00Z");
    expect(editionQuery("utc_hour", "2026-11-22T07")).toBe("local_delivery_time=2026-11-22T07:00:00Z");
  });
});

describe("printHeader", () => {
  const now = new Date("2026-03-04T21:07:00Z");
  it("dates a dated edition at the time it is asked for, and a numbered one at the time it is sent", () => {
    const almanac = { name: "The Almanac", by: "local_date" as const };
    expect(headerText(printHeader(almanac, "2026-11-22", now))).toBe("06:00 | 22-Nov-2026 | The Almanac");
    const hourly = { name: "Tides", by: "utc_hour" as const };
    expect(headerText(printHeader(hourly, "2026-01-02T17", now))).toBe("17:00 | 02-Jan-2026 | Tides");
    const numbered = printHeader({ name: "Cat", by: "delivery_count" }, "3", now);
    expect(numbered).toEqual({ at: now, from: "Cat" });
    expect(headerText({ ...numbered, timeZone: "Asia/Tokyo" })).toBe("06:07 | 05-Mar-2026 | Cat");
  });
});

describe("lengths", () => {
  it("gives millimetres at 8 dots per mm and marks editions over 800 px", () => {
    expect(indexEdition("0", "0.png", 812)).toEqual({
      key: "0",
      file: "0.png",
      heightPx: 812,
      heightMm: 101.5,
      tooLong: true,
    });
    expect(indexEdition("1", "1.png", 800)).toEqual({
      key: "1",
      file: "1.png",
      heightPx: 800,
      heightMm: 100,
      tooLong: false,
    });
  });

  it("tabulates lengths, the advice, the 10000 px cut and pages that failed", () => {
    const table = formatSummary([
      { slug: "a", key: "0", heightPx: 812 },
      { slug: "a", key: "1", heightPx: 12000 },
      { slug: "a", key: "2", error: "the page did not load in 20 s; skipped" },
    ]);
    expect(table.split("\n")).toEqual([
      "publication  edition        px        mm",
      "a            0          812 px  101.5 mm  ⚠ longer than the advised 800 px (100 mm)",
      "a            1        12000 px   1500 mm  ⚠ longer than the advised 800 px (100 mm); " +
        "⚠ 12000 px (1500 mm) long: the printer cuts it at 10000 px (1250 mm)",
      "a            2               -         -  ✗ the page did not load in 20 s; skipped",
      "",
    ]);
  });

  it("warns, naming px and mm, about a page the printer cuts and about relative URLs; not about 800 px", () => {
    expect(
      printWarnings([
        { slug: "a", key: "0", heightPx: 10_000 },
        { slug: "a", key: "1", heightPx: 10_001, relative: ["cat.png"] },
        { slug: "a", key: "2", error: "the page did not load in 20 s; skipped" },
      ]),
    ).toEqual([
      "a edition 1 is 10001 px (1250.1 mm) long: the printer cuts it at 10000 px (1250 mm); the rest is never printed",
      "a edition 1: relative URLs load nothing on the printer (it opens the page from a file): cat.png; " +
        "link them by absolute URL",
    ]);
  });
});
