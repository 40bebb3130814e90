import { describe, expect, it } from "vitest";
import { parseDeliveryTime, type DeliveryTime } from "../../lib/model/requested-key.ts";

function ok(raw: string): DeliveryTime {
  const t = parseDeliveryTime(raw);
  if ("error" in t) throw new Error(`expected ${JSON.stringify(raw)} to parse, got: ${t.error}`);
  return t;
}

function fails(raw: string): string {
  const t = parseDeliveryTime(raw);
  if (!("error" in t))
    throw new Error(`expected ${JSON.stringify(raw.slice(0, 60))} to be rejected, got ${JSON.stringify(t)}`);
  return t.error;
}

describe("parseDeliveryTime: the platform's examples", () => {
  it("reads the spec example with a negative offset: local date as written, UTC on the next day", () => {
    expect(ok("2013-11-18T23:20:30-08:00")).toEqual({
      localDate: "2013-11-18",
      utcDate: "2013-11-19",
      utcHour: "2013-11-19T07",
    });
  });

  it("accepts fractional seconds", () => {
    expect(ok("2013-07-31T19:20:30.45+01:00")).toEqual({
      localDate: "2013-07-31",
      utcDate: "2013-07-31",
      utcHour: "2013-07-31T18",
    });
  });

  it("accepts up to nine fractional digits and a comma as decimal sign", () => {
    expect(ok("2013-07-31T19:20:30.123456789+01:00").utcHour).toBe("2013-07-31T18");
    expect(ok("2013-07-31T19:20:30,5+01:00").utcHour).toBe("2013-07-31T18");
  });

  it("accepts Z (UTC) in either case", () => {
    expect(ok("2013-07-31T19:20:30Z")).toEqual({
      localDate: "2013-07-31",
      utcDate: "2013-07-31",
      utcHour: "2013-07-31T19",
    });
    expect(ok("2013-07-31t19:20:30z").utcHour).toBe("2013-07-31T19");
  });

  it("reads a `+` that arrived as a space as a positive offset", () => {
    expect(ok("2013-07-31T19:20:30 01:00")).toEqual(ok("2013-07-31T19:20:30+01:00"));
    expect(ok("2013-07-31T19:20:30 01:00").utcHour).toBe("2013-07-31T18");
  });

  it("reads the same instant the same way whether the + was encoded or not, as URLSearchParams decodes it", () => {
    const plain = new URLSearchParams("local_delivery_time=2013-07-31T00:20:30+05:00").get("local_delivery_time")!;
    const encoded = new URLSearchParams("local_delivery_time=2013-07-31T00%3A20%3A30%2B05%3A00").get(
      "local_delivery_time",
    )!;
    expect(plain).toContain(" ");
    expect(ok(plain)).toEqual(ok(encoded));
    expect(ok(plain).utcDate).toBe("2013-07-30");
  });

  it("accepts an offset without a colon and a time without seconds", () => {
    expect(ok("2026-12-31T23:00:00+0100").utcHour).toBe("2026-12-31T22");
    expect(ok("2026-12-31T23:00+01:00").utcHour).toBe("2026-12-31T22");
  });

  it("ignores surrounding whitespace", () => {
    expect(ok("  2026-12-31T23:00:00+01:00\n").localDate).toBe("2026-12-31");
  });
});

describe("parseDeliveryTime: offsets that cross dates", () => {
  it("+05:45 just after midnight is the previous UTC day", () => {
    expect(ok("2026-01-01T00:10:00+05:45")).toEqual({
      localDate: "2026-01-01",
      utcDate: "2025-12-31",
      utcHour: "2025-12-31T18",
    });
  });

  it("+05:45 subtracts the minutes of the offset too", () => {
    // 06:00 local - 5:45 = 00:15 UTC, same day; 05:40 local would be the previous day.
    expect(ok("2026-03-10T06:00:00+05:45").utcHour).toBe("2026-03-10T00");
    expect(ok("2026-03-10T05:40:00+05:45").utcHour).toBe("2026-03-09T23");
  });

  it("-12:00 late in the evening is the next UTC day, and the next year at New Year", () => {
    expect(ok("2026-12-31T23:00:00-12:00")).toEqual({
      localDate: "2026-12-31",
      utcDate: "2027-01-01",
      utcHour: "2027-01-01T11",
    });
  });

  it("+14:00 in the morning is the previous UTC day", () => {
    expect(ok("2026-03-01T06:00:00+14:00")).toEqual({
      localDate: "2026-03-01",
      utcDate: "2026-02-28",
      utcHour: "2026-02-28T16",
    });
  });

  it("-00:00 and +00:00 mean UTC", () => {
    expect(ok("2026-05-05T05:00:00-00:00").utcHour).toBe("2026-05-05T05");
    expect(ok("2026-05-05T05:00:00+00:00").utcHour).toBe("2026-05-05T05");
  });

  it("never converts the local date to the server's zone", () => {
    // Whatever TZ the test runs in, the local date is the one written.
    expect(ok("2026-06-30T23:59:59-11:00").localDate).toBe("2026-06-30");
    expect(ok("2026-07-01T00:00:00+13:00").localDate).toBe("2026-07-01");
  });
});

describe("parseDeliveryTime: calendar checks", () => {
  it("accepts the leap day 2024-02-29", () => {
    expect(ok("2024-02-29T08:00:00+01:00").localDate).toBe("2024-02-29");
  });

  it("accepts 2000-02-29 (divisible by 400) and rejects 2100-02-29", () => {
    expect(ok("2000-02-29T08:00:00Z").localDate).toBe("2000-02-29");
    expect(fails("2100-02-29T08:00:00Z")).toMatch(/impossible date/);
  });

  it.each([
    "2026-02-29T08:00:00+01:00",
    "2026-02-30T08:00:00+01:00",
    "2026-04-31T08:00:00Z",
    "2026-13-01T08:00:00Z",
    "2026-00-10T08:00:00Z",
    "2026-01-00T08:00:00Z",
    "2026-01-32T08:00:00Z",
  ])("rejects the impossible date %s", (raw) => {
    expect(fails(raw)).toMatch(/impossible date/);
  });

  it.each(["2026-01-10T24:00:00Z", "2026-01-10T23:60:00Z", "2026-01-10T23:00:60Z", "2026-01-10T99:00:00+01:00"])(
    "rejects the impossible time %s",
    (raw) => {
      expect(fails(raw)).toMatch(/impossible time/);
    },
  );

  it.each(["2026-01-10T08:00:00+24:00", "2026-01-10T08:00:00-01:60"])("rejects the impossible offset %s", (raw) => {
    expect(fails(raw)).toMatch(/impossible UTC offset/);
  });

  it("accepts 23:59:59 as the last moment of a day", () => {
    expect(ok("2026-01-10T23:59:59+00:00").utcHour).toBe("2026-01-10T23");
  });
});

describe("parseDeliveryTime: garbage", () => {
  it.each([
    "",
    " ",
    "garbage",
    "2026-01-10",
    "2026-01-10T08:00:00", // no offset
    "08:00:00+01:00",
    "2026/01/10T08:00:00+01:00",
    "26-01-10T08:00:00+01:00",
    "2026-1-10T08:00:00+01:00",
    "2026-01-10T8:00:00+01:00",
    "2026-01-10T08:00:00+1",
    "2026-01-10T08:00:00+01:00:00",
    "2026-01-10T08:00:00.+01:00",
    "2026-01-10T08:00:00.1234567890+01:00",
    "2026-01-10T08:00:00+01:00x",
    "x2026-01-10T08:00:00+01:00",
    "2026-01-10T08:00:00+01:00\u0000",
    "２０２６-01-10T08:00:00+01:00", // full-width digits
    "1767024000", // a Unix timestamp
    "null",
    "undefined",
  ])("rejects %j with a reason", (raw) => {
    expect(fails(raw)).toMatch(/^local_delivery_time /);
  });

  it("rejects a 10,000-character string quickly", () => {
    const started = performance.now();
    expect(fails("2".repeat(10_000))).toMatch(/not an ISO 8601 time/);
    expect(fails(`2026-01-10T08:00:00${"0".repeat(10_000)}+01:00`)).toMatch(/not an ISO 8601 time/);
    expect(fails(`2026-01-10T08:00:00.${"1".repeat(10_000)}Z`)).toMatch(/not an ISO 8601 time/);
    expect(fails(`${"2026-01-10T08:00:00+01:00 ".repeat(400)}`)).toMatch(/not an ISO 8601 time/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("a reason never echoes the raw input back when the format is wrong", () => {
    expect(fails("<script>alert(1)</script>")).not.toContain("<script>");
  });
});
