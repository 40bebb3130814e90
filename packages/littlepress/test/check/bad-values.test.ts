// The odd requests the checker sends to edition/: each one is a valid
// delivery with one thing changed, and together they cover what the brief of
// issue 17 names (bad counts, bad dates and offsets, repeated keys, unknown
// settings, markup in settings).
import { describe, expect, it } from "vitest";
import { badRequests, PROBE } from "../../scripts/check/bad-values.ts";

const PUB = { name: "P", sendTimezoneInfo: true, sendDeliveryCount: true, fields: [] };
const PLAN = { start: "2026-01-09", hour: 6, zone: "Europe/London", config: { lang: "en" } };
const values = (params: [string, string][], key: string) => params.filter(([k]) => k === key).map(([, v]) => v);

describe("badRequests", () => {
  const all = badRequests(PUB, PLAN);

  it("changes one thing in an otherwise valid delivery", () => {
    const abc = all.find((b) => b.what === 'delivery_count="abc"')!;
    expect(abc.params).toEqual([
      ["local_delivery_time", "2026-01-09T06:00:00+00:00"],
      ["lang", "en"],
      ["delivery_count", "abc"],
    ]);
  });

  it("sends non-numbers, negatives, empty and huge counts, and bad dates and odd offsets", () => {
    const counts = all.flatMap((b) => values(b.params, "delivery_count"));
    for (const v of ["abc", "-1", "", "99999999999999999999999999"]) expect(counts).toContain(v);
    const times = all.flatMap((b) => values(b.params, "local_delivery_time"));
    for (const v of ["2026-02-30T06:00:00+00:00", "2026-01-10T06:00:00+25:00", "2026-01-10T06:00:00+05:45", ""])
      expect(times).toContain(v);
  });

  it("repeats keys, adds unknown settings, leaves each setting out and puts markup in each", () => {
    expect(all.some((b) => values(b.params, "delivery_count").length === 2)).toBe(true);
    expect(all.some((b) => values(b.params, "local_delivery_time").length === 2)).toBe(true);
    expect(all.some((b) => values(b.params, "lang").length === 2)).toBe(true);
    expect(all.some((b) => values(b.params, "utm_source").length === 1)).toBe(true);
    expect(all.some((b) => values(b.params, "lang")[0] === PROBE)).toBe(true);
    expect(all.some((b) => b.params.length === 2 && values(b.params, "lang").length === 0)).toBe(true);
  });

  it("sends the platform's parameters even to a publication that asked for neither", () => {
    const plain = badRequests({ ...PUB, sendTimezoneInfo: false, sendDeliveryCount: false }, { ...PLAN, config: {} });
    const abc = plain.find((b) => b.what === 'delivery_count="abc"')!;
    expect(abc.params).toEqual([["delivery_count", "abc"]]);
  });
});
