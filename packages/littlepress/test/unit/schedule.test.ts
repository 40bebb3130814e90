// The subscribe page's schedule in words (lib/model/schedule.ts), from which
// days of the weeks read have an edition.
import { describe, expect, it } from "vitest";
import { datedSchedule } from "../../lib/model/schedule.ts";

/** Four weeks from Monday 2026-03-02, with an edition on the days of the week in `on` (0 is Sunday). */
const weeks = (on: number[]) => Array.from({ length: 28 }, (_, i) => on.includes((i + 1) % 7));

describe("a dated publication's schedule", () => {
  it("names the weekly pattern the editions hold to", () => {
    expect(datedSchedule("2026-03-02", weeks([0, 1, 2, 3, 4, 5, 6]))).toBe("every day");
    expect(datedSchedule("2026-03-02", weeks([1, 2, 3, 4, 5]))).toBe("Monday to Friday");
    expect(datedSchedule("2026-03-02", weeks([1]))).toBe("on Mondays");
    expect(datedSchedule("2026-03-02", weeks([4, 1]))).toBe("on Mondays and Thursdays");
    expect(datedSchedule("2026-03-02", weeks([0, 6, 3]))).toBe("on Wednesdays, Saturdays and Sundays");
  });

  it("says no pattern the editions break, or that too few days show", () => {
    const skipped = weeks([1]);
    skipped[7] = false; // the second Monday has none: rows of dates, not a rule
    expect(datedSchedule("2026-03-02", skipped)).toBe("on the days it has an edition");
    expect(datedSchedule("2026-03-02", [true, true, true])).toBe("on the days it has an edition");
    expect(datedSchedule("2026-03-02", [])).toBe("on the days it has an edition (none in the next four weeks)");
  });
});
