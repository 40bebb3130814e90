import { describe, expect, it } from "vitest";
import { dayFacts, daysUntil } from "../../lib/model/day-facts.ts";
import { daysBetween, recurringKeys, weekdayOf } from "../../lib/model/recurrence.ts";

describe("dayFacts", () => {
  it("names the day and month in the edition's language", () => {
    expect(dayFacts("local_date", "2026-11-23", "en")).toEqual({
      date: "2026-11-23",
      year: 2026,
      month_number: 11,
      day: 23,
      weekday: "Monday",
      weekday_short: "Mon",
      month: "November",
      month_short: "Nov",
      weekday_number: 1,
      day_of_year: 327,
      iso_week: 48,
      iso_year: 2026,
    });
    expect(dayFacts("utc_date", "2026-11-22", "fr")).toMatchObject({ weekday: "dimanche", month: "novembre" });
    expect(dayFacts("local_date", "2026-11-22", "de-AT")).toMatchObject({ weekday: "Sonntag", month: "November" });
    expect(dayFacts("local_date", "2026-01-05", "ja")).toMatchObject({ weekday: "月曜日", month: "1月" });
  });

  it("falls back to English for a lang that is no language tag", () => {
    expect(dayFacts("local_date", "2026-11-22", "not a language")).toMatchObject({ weekday: "Sunday" });
    expect(dayFacts("local_date", "2026-11-22", "")).toMatchObject({ weekday: "Sunday" });
  });

  it("counts ISO weeks across the turn of the year, and leap days in the day of the year", () => {
    const week = (date: string) => {
      const f = dayFacts("local_date", date, "en")!;
      return `${f.iso_year}-W${f.iso_week}`;
    };
    expect(week("2026-12-31")).toBe("2026-W53");
    expect(week("2027-01-03")).toBe("2026-W53");
    expect(week("2027-01-04")).toBe("2027-W1");
    expect(week("2024-12-30")).toBe("2025-W1");
    expect(week("2021-01-03")).toBe("2020-W53");
    expect(dayFacts("local_date", "2028-02-29", "en")!.day_of_year).toBe(60);
    expect(dayFacts("local_date", "2028-12-31", "en")!.day_of_year).toBe(366);
    expect(dayFacts("local_date", "2027-12-31", "en")!.day_of_year).toBe(365);
  });

  it("gives the hour for utc_hour editions, and nothing for delivery_count", () => {
    expect(dayFacts("utc_hour", "2026-03-29T05", "en")).toMatchObject({ date: "2026-03-29", hour: 5 });
    expect(dayFacts("local_date", "2026-03-29", "en")).not.toHaveProperty("hour");
    expect(dayFacts("delivery_count", "3", "en")).toBeUndefined();
  });
});

describe("days between dates", () => {
  it("counts calendar days, whatever daylight saving does to the hours between", () => {
    expect(daysUntil("2026-11-23", "2026-12-25")).toBe(32);
    expect(daysUntil("2026-12-26", "2026-12-25")).toBe(-1);
    expect(daysUntil("2026-03-28", "2026-03-30")).toBe(2);
    expect(daysUntil("2026-03-29T05", "2026-03-30")).toBe(1);
    expect(daysBetween("2028-02-28", "2028-03-01")).toBe(2);
    expect(daysBetween("2027-02-28", "2027-03-01")).toBe(1);
    expect(daysUntil("tomorrow", "2026-12-25")).toBeUndefined();
    expect(daysUntil(20261123, "2026-12-25")).toBeUndefined();
  });
});

describe("recurringKeys", () => {
  it("knows the day of the week of any date", () => {
    expect(["2026-11-22", "2026-11-23", "2028-02-29", "2000-01-01"].map(weekdayOf)).toEqual([0, 1, 2, 6]);
  });

  it("keeps a ten-year daily rule whole: 3652 dates (two leap days), no gap and no repeat", () => {
    const keys = recurringKeys({ every: "day", from: "2026-01-01", until: "2035-12-31" }, "2026-01-01");
    expect(keys).toHaveLength(3652);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => k.endsWith("-02-29"))).toEqual(["2028-02-29", "2032-02-29"]);
    for (let i = 1; i < keys.length; i++) expect(daysBetween(keys[i - 1]!, keys[i]!)).toBe(1);
  });
});
