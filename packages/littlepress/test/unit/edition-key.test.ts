import { describe, expect, it } from "vitest";
import { compareKeys, EDITIONS_BY, isDated, type EditionsBy } from "../../lib/model/edition-key.ts";
import { KEY_FIELD, keyFromFrontMatter } from "../../lib/model/front-matter-key.ts";
import { requestedKey, type RequestedKey } from "../../lib/model/requested-key.ts";

function key(by: EditionsBy, value: unknown): string {
  const k = keyFromFrontMatter(by, value);
  if ("problem" in k) throw new Error(`expected a key from ${JSON.stringify(value)}, got: ${k.problem}`);
  return k.key;
}

function problem(by: EditionsBy, value: unknown): { problem: string; fix: string } {
  const k = keyFromFrontMatter(by, value);
  if ("key" in k) throw new Error(`expected ${JSON.stringify(value)} to be refused, got key ${k.key}`);
  expect(k.problem).toEqual(expect.any(String));
  expect(k.fix).toEqual(expect.any(String));
  expect(k.problem.length).toBeGreaterThan(0);
  expect(k.fix.length).toBeGreaterThan(0);
  return k;
}

const ask = (by: EditionsBy, query: string): RequestedKey => requestedKey(by, new URLSearchParams(query));

describe("KEY_FIELD and isDated", () => {
  it("names the front-matter field of each mode", () => {
    expect(KEY_FIELD).toEqual({ delivery_count: "number", local_date: "date", utc_date: "date", utc_hour: "hour" });
    expect([...EDITIONS_BY].sort()).toEqual(["delivery_count", "local_date", "utc_date", "utc_hour"]);
  });

  it("only delivery_count is not dated", () => {
    expect(isDated("delivery_count")).toBe(false);
    expect(isDated("local_date")).toBe(true);
    expect(isDated("utc_date")).toBe(true);
    expect(isDated("utc_hour")).toBe(true);
  });
});

describe("keyFromFrontMatter: delivery_count", () => {
  it("accepts whole numbers from 0 up", () => {
    expect(key("delivery_count", 0)).toBe("0");
    expect(key("delivery_count", 7)).toBe("7");
    expect(key("delivery_count", 365)).toBe("365");
  });

  it("names the field when it is missing", () => {
    for (const v of [undefined, null]) {
      const p = problem("delivery_count", v);
      expect(p.problem).toContain("`number`");
      expect(p.problem).toContain("delivery_count");
      expect(p.fix).toContain("number: 0");
    }
  });

  it("refuses a quoted number", () => {
    expect(problem("delivery_count", "3").problem).toContain('"3"');
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, true, [1], { n: 1 }, "abc"])("refuses %j", (v) => {
    expect(problem("delivery_count", v).problem).toMatch(/whole number from 0 up/);
  });

  it("says 0 is the first edition", () => {
    expect(problem("delivery_count", -1).fix).toContain("0 is the first edition");
  });
});

describe.each(["local_date", "utc_date"] as const)("keyFromFrontMatter: %s", (by) => {
  it("accepts a real date written as a string", () => {
    expect(key(by, "2026-11-22")).toBe("2026-11-22");
    expect(key(by, "2024-02-29")).toBe("2024-02-29");
  });

  it("names the `date` field when it is missing", () => {
    const p = problem(by, undefined);
    expect(p.problem).toContain("`date`");
    expect(p.problem).toContain(by);
    expect(p.fix).toContain("date: 2026-11-22");
  });

  it.each(["2026-02-29", "2026-02-30", "2026-13-01", "2026-00-01", "2026-04-31"])(
    "refuses the impossible date %s",
    (v) => {
      expect(problem(by, v).problem).toMatch(/not a real calendar date/);
    },
  );

  it.each([
    "2026-2-3",
    "2026/11/22",
    "22-11-2026",
    "2026-11-22T07",
    "2026-11-22 ",
    " 2026-11-22",
    "20261122",
    "tomorrow",
  ])("refuses the wrong format %j", (v) => {
    expect(problem(by, v).problem).toMatch(/must look like 2026-11-22/);
  });

  it("refuses values of the wrong type, even when their text looks right", () => {
    expect(problem(by, 20261122).problem).toMatch(/must look like/);
    expect(problem(by, new Date("2026-11-22T00:00:00Z")).problem).toMatch(/must look like/);
    expect(problem(by, ["2026-11-22"]).problem).toMatch(/must look like/);
    expect(problem(by, { toString: () => "2026-11-22" }).problem).toMatch(/must look like/);
  });
});

describe("keyFromFrontMatter: utc_hour", () => {
  it("accepts a date and hour", () => {
    expect(key("utc_hour", "2026-11-22T07")).toBe("2026-11-22T07");
    expect(key("utc_hour", "2026-11-22T00")).toBe("2026-11-22T00");
    expect(key("utc_hour", "2026-11-22T23")).toBe("2026-11-22T23");
  });

  it("names the `hour` field when it is missing", () => {
    const p = problem("utc_hour", null);
    expect(p.problem).toContain("`hour`");
    expect(p.fix).toContain("hour: 2026-11-22T07");
  });

  it("refuses hour 24", () => {
    const p = problem("utc_hour", "2026-11-22T24");
    expect(p.problem).toMatch(/hour past 23/);
  });

  it("refuses an impossible date with an hour", () => {
    expect(problem("utc_hour", "2026-02-30T07").problem).toMatch(/not a real calendar date/);
  });

  it.each(["2026-11-22", "2026-11-22T7", "2026-11-22T07:00", "2026-11-22 07", "2026-11-22t07"])(
    "refuses the wrong format %j",
    (v) => {
      expect(problem("utc_hour", v).problem).toMatch(/must look like 2026-11-22T07/);
    },
  );
});

describe("compareKeys", () => {
  it("compares delivery counts as numbers", () => {
    expect(compareKeys("delivery_count", "2", "10")).toBeLessThan(0);
    expect(compareKeys("delivery_count", "10", "2")).toBeGreaterThan(0);
    expect(compareKeys("delivery_count", "7", "7")).toBe(0);
  });

  it("compares dates and hours chronologically", () => {
    expect(compareKeys("local_date", "2026-09-30", "2026-10-01")).toBeLessThan(0);
    expect(compareKeys("utc_date", "2027-01-01", "2026-12-31")).toBeGreaterThan(0);
    expect(compareKeys("utc_hour", "2026-11-22T09", "2026-11-22T10")).toBeLessThan(0);
    expect(compareKeys("utc_hour", "2026-11-22T23", "2026-11-23T00")).toBeLessThan(0);
    expect(compareKeys("local_date", "2026-11-22", "2026-11-22")).toBe(0);
  });

  it("sorts a list of counts numerically", () => {
    expect(["10", "2", "0", "1"].sort((a, b) => compareKeys("delivery_count", a, b))).toEqual(["0", "1", "2", "10"]);
  });
});

describe("requestedKey: delivery_count", () => {
  it("is absent when delivery_count is not sent or empty", () => {
    expect(ask("delivery_count", "")).toEqual({ kind: "absent" });
    expect(ask("delivery_count", "delivery_count=")).toEqual({ kind: "absent" });
    expect(ask("delivery_count", "local_delivery_time=2026-11-22T07:00:00Z")).toEqual({ kind: "absent" });
  });

  it("reads a count", () => {
    expect(ask("delivery_count", "delivery_count=0")).toEqual({ kind: "key", key: "0" });
    expect(ask("delivery_count", "delivery_count=12")).toEqual({ kind: "key", key: "12" });
  });

  it("drops leading zeros so the key matches the edition's", () => {
    expect(ask("delivery_count", "delivery_count=007")).toEqual({ kind: "key", key: "7" });
    expect(ask("delivery_count", "delivery_count=000")).toEqual({ kind: "key", key: "0" });
  });

  it.each(["-1", "1.5", "abc", "%203", "3%20", "+3", "1e3", "0x10", "３", "1,000", "NaN", "Infinity"])(
    "is invalid for delivery_count=%s, with a reason",
    (raw) => {
      const k = ask("delivery_count", `delivery_count=${raw}`);
      expect(k.kind).toBe("invalid");
      expect(k.kind === "invalid" && k.reason).toBe("delivery_count is not a non-negative integer");
    },
  );

  it("reads a huge number exactly, and it compares after any real key", () => {
    const k = ask("delivery_count", "delivery_count=99999999999999999999");
    expect(k).toEqual({ kind: "key", key: "99999999999999999999" });
    if (k.kind !== "key") return;
    for (const real of ["0", "1", "365", "100000", String(Number.MAX_SAFE_INTEGER)]) {
      expect(compareKeys("delivery_count", k.key, real)).toBeGreaterThan(0);
      expect(compareKeys("delivery_count", real, k.key)).toBeLessThan(0);
    }
  });

  it("reads a 400-digit number without losing it, and it still compares after real keys", () => {
    const k = ask("delivery_count", `delivery_count=${"9".repeat(400)}`);
    expect(k).toEqual({ kind: "key", key: "9".repeat(400) });
    if (k.kind === "key") expect(compareKeys("delivery_count", k.key, "1000")).toBeGreaterThan(0);
  });

  it("uses the first delivery_count when it is sent twice", () => {
    expect(ask("delivery_count", "delivery_count=3&delivery_count=9")).toEqual({ kind: "key", key: "3" });
  });
});

describe("requestedKey: dated modes", () => {
  const t = "local_delivery_time=" + encodeURIComponent("2013-11-18T23:20:30-08:00");

  it("picks the local date, the UTC date or the UTC hour", () => {
    expect(ask("local_date", t)).toEqual({ kind: "key", key: "2013-11-18" });
    expect(ask("utc_date", t)).toEqual({ kind: "key", key: "2013-11-19" });
    expect(ask("utc_hour", t)).toEqual({ kind: "key", key: "2013-11-19T07" });
  });

  it("accepts the unencoded + (a space after decoding)", () => {
    expect(ask("utc_hour", "local_delivery_time=2013-07-31T19:20:30+01:00")).toEqual({
      kind: "key",
      key: "2013-07-31T18",
    });
  });

  it("is absent without local_delivery_time, even when delivery_count is sent", () => {
    expect(ask("local_date", "")).toEqual({ kind: "absent" });
    expect(ask("utc_date", "local_delivery_time=")).toEqual({ kind: "absent" });
    expect(ask("utc_hour", "delivery_count=3")).toEqual({ kind: "absent" });
  });

  it("is invalid for a bad time, with the parser's reason", () => {
    const k = ask("local_date", "local_delivery_time=2026-02-30T08:00:00Z");
    expect(k.kind).toBe("invalid");
    expect(k.kind === "invalid" && k.reason).toMatch(/impossible date/);
    expect(ask("utc_date", "local_delivery_time=yesterday").kind).toBe("invalid");
  });
});
