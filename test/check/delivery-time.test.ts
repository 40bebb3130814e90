// local_delivery_time as the platform would send it: the local wall time with
// that day's own UTC offset.
import { describe, expect, it } from "vitest";
import { addDays, localDeliveryTime } from "../../scripts/check/delivery-time.ts";
import { editionUrl } from "../../scripts/check/delivery-runs.ts";

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
