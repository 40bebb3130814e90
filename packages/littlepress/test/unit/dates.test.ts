import { describe, expect, it } from "vitest";
import { isoDate, isRealDate, utcDateOf, utcHourOf } from "../../lib/model/dates.ts";

describe("isRealDate", () => {
  it("knows month lengths", () => {
    expect(isRealDate(2026, 1, 31)).toBe(true);
    expect(isRealDate(2026, 4, 30)).toBe(true);
    expect(isRealDate(2026, 4, 31)).toBe(false);
    expect(isRealDate(2026, 12, 31)).toBe(true);
    expect(isRealDate(2026, 12, 32)).toBe(false);
  });

  it("knows leap years (4, 100 and 400)", () => {
    expect(isRealDate(2024, 2, 29)).toBe(true);
    expect(isRealDate(2026, 2, 29)).toBe(false);
    expect(isRealDate(2026, 2, 28)).toBe(true);
    expect(isRealDate(1900, 2, 29)).toBe(false);
    expect(isRealDate(2000, 2, 29)).toBe(true);
    expect(isRealDate(2100, 2, 29)).toBe(false);
    expect(isRealDate(2026, 2, 30)).toBe(false);
  });

  it("rejects month 0, month 13 and day 0", () => {
    expect(isRealDate(2026, 0, 10)).toBe(false);
    expect(isRealDate(2026, 13, 1)).toBe(false);
    expect(isRealDate(2026, 1, 0)).toBe(false);
    expect(isRealDate(2026, -1, 10)).toBe(false);
  });
});

describe("isoDate", () => {
  it("pads year, month and day", () => {
    expect(isoDate(2026, 1, 5)).toBe("2026-01-05");
    expect(isoDate(987, 11, 22)).toBe("0987-11-22");
  });
});

describe("utcDateOf / utcHourOf", () => {
  it("use UTC, not the process's time zone", () => {
    const instant = new Date("2013-11-18T23:20:30-08:00");
    expect(utcDateOf(instant)).toBe("2013-11-19");
    expect(utcHourOf(instant)).toBe("2013-11-19T07");
  });

  it("pad the hour", () => {
    expect(utcHourOf(new Date(Date.UTC(2026, 0, 1, 0, 59, 59)))).toBe("2026-01-01T00");
    expect(utcHourOf(new Date(Date.UTC(2026, 11, 31, 23, 0, 0)))).toBe("2026-12-31T23");
  });

  it("sort chronologically as strings", () => {
    const a = new Date(Date.UTC(2026, 8, 9, 9));
    const b = new Date(Date.UTC(2026, 9, 10, 10));
    expect(utcDateOf(a) < utcDateOf(b)).toBe(true);
    expect(utcHourOf(a) < utcHourOf(b)).toBe(true);
  });
});
