// local_delivery_time as the platform would send it: the local wall time with
// that day's own UTC offset. The checker sends the model's (lib/model), as the
// desk's simulator does.
import { describe, expect, it } from "vitest";
import { addDays } from "../../lib/model/dates.ts";
import { localDeliveryTime as deliveryTime } from "../../lib/model/delivery-time.ts";
import { editionUrl } from "../../scripts/check/delivery-runs.ts";

const localDeliveryTime = (date: string, hour: number, zone: string) => deliveryTime(date, hour, zone).text;

describe("localDeliveryTime", () => {
  it("uses each day's offset, summer time included", () => {
    expect(localDeliveryTime("2026-11-22", 6, "America/Los_Angeles")).toBe("2026-11-22T06:00:00-08:00");
    expect(localDeliveryTime("2026-07-01", 6, "America/Los_Angeles")).toBe("2026-07-01T06:00:00-07:00");
    expect(localDeliveryTime("2026-01-10", 6, "Europe/London")).toBe("2026-01-10T06:00:00+00:00");
    expect(localDeliveryTime("2026-07-01", 6, "Europe/London")).toBe("2026-07-01T06:00:00+01:00");
    expect(localDeliveryTime("2026-01-10", 6, "Asia/Kolkata")).toBe("2026-01-10T06:00:00+05:30");
  });

  it("changes offset on the day the clocks change, and skips an hour that does not exist", () => {
    expect(localDeliveryTime("2026-03-28", 6, "Europe/London")).toBe("2026-03-28T06:00:00+00:00");
    expect(localDeliveryTime("2026-03-29", 6, "Europe/London")).toBe("2026-03-29T06:00:00+01:00");
    expect(localDeliveryTime("2026-03-29", 1, "Europe/London")).toBe("2026-03-29T02:00:00+01:00");
  });
});

describe("dates and URLs", () => {
  it("adds calendar days across month and leap-year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });

  it("percent-encodes the time's colon and plus sign", () => {
    const ctx = { base: "http://127.0.0.1:1/pub/", timeoutMs: 1, progress: () => {} };
    expect(
      editionUrl(ctx, [
        ["local_delivery_time", "2026-07-01T06:00:00+01:00"],
        ["name", "Ada L"],
      ]),
    ).toBe("http://127.0.0.1:1/pub/edition/?local_delivery_time=2026-07-01T06%3A00%3A00%2B01%3A00&name=Ada%20L");
  });
});

// The rule lives once, in lib/model/delivery-time.ts; it used to be written twice,
// here for the checker and in the desk's timezone.js, and the two copies did not
// agree where a zone jumped across the date line (to +14:00 or from -12:00).
describe("localDeliveryTime on the days a zone jumps across the date line", () => {
  it("keeps the date asked for on the eve of the jump (the checker's copy sent the day before)", () => {
    // Samoa went from -10:00 to +14:00 after 29 December 2011;
    // Kiribati's Line Islands from -10:00 to +14:00 after 30 December 1994.
    expect(localDeliveryTime("2011-12-29", 20, "Pacific/Apia")).toBe("2011-12-29T20:00:00-10:00");
    expect(localDeliveryTime("1994-12-30", 23, "Pacific/Kiritimati")).toBe("1994-12-30T23:00:00-10:00");
    // Kwajalein went from -12:00 to +12:00 after 20 August 1993.
    expect(localDeliveryTime("1993-08-20", 22, "Pacific/Kwajalein")).toBe("1993-08-20T22:00:00-12:00");
  });

  it("reads a date the zone skipped whole with the offset before the jump: the same hour on the next day", () => {
    // The checker's copy sent the day before, at the old offset.
    expect(localDeliveryTime("2011-12-30", 6, "Pacific/Apia")).toBe("2011-12-31T06:00:00+14:00");
    expect(localDeliveryTime("1993-08-21", 6, "Pacific/Kwajalein")).toBe("1993-08-22T06:00:00+12:00");
  });

  it("keeps each day's offset in Samoa's summer time at +14:00, and its gap and repeated hour", () => {
    expect(localDeliveryTime("2019-01-15", 6, "Pacific/Apia")).toBe("2019-01-15T06:00:00+14:00");
    expect(localDeliveryTime("2019-07-15", 6, "Pacific/Apia")).toBe("2019-07-15T06:00:00+13:00");
    // 29 September 2019: 03:00 became 04:00; 7 April 2019: 04:00 became 03:00, so 03:00 came twice.
    expect(localDeliveryTime("2019-09-29", 3, "Pacific/Apia")).toBe("2019-09-29T04:00:00+14:00");
    expect(localDeliveryTime("2019-04-07", 3, "Pacific/Apia")).toBe("2019-04-07T03:00:00+14:00");
  });

  it("moves a time in a half-hour gap on by the gap (Lord Howe Island, +10:30 to +11:00)", () => {
    expect(localDeliveryTime("2026-10-04", 2, "Australia/Lord_Howe")).toBe("2026-10-04T02:30:00+11:00");
  });

  it("gives the instant and the offset with the text", () => {
    const time = deliveryTime("2011-12-30", 6, "Pacific/Apia");
    expect(time.ms).toBe(Date.parse(time.text));
    expect(time.offset).toBe("+14:00");
  });
});
