// The simulator's delivery rules (layouts/desk/assets/deliveries.js, plain
// browser JavaScript with no DOM), run here on their own: which request goes
// out on which day, what prints, and when the subscription ends.
import { describe, expect, it } from "vitest";
import {
  deliveryDay,
  judge,
  newTally,
  query,
  record,
  summary,
  type Answer,
  type Plan,
  type Tally,
  type Verdict,
} from "../../layouts/desk/assets/deliveries.js";

const plan = (over: Partial<Plan> = {}): Plan => ({
  days: 7,
  byTime: false,
  byCount: false,
  startDate: "2026-03-27",
  hour: 6,
  zone: "Europe/Paris",
  startCount: 0,
  settings: [],
  ...over,
});

const ok = (etag: string | null): Answer => ({ status: 200, etag, reason: "" });
const noContent: Answer = { status: 204, etag: null, reason: "" };
const gone: Answer = { status: 410, etag: null, reason: "" };

/** Plays the answers in order as the simulator does, stopping at a 410. */
function playAll(p: Plan, answers: Answer[]): { tally: Tally; verdicts: Verdict[]; counts: number[] } {
  let tally = newTally();
  const verdicts: Verdict[] = [];
  const counts: number[] = [];
  for (const [i, answer] of answers.entries()) {
    const day = deliveryDay(p, i);
    counts.push(day.count);
    const step = record(tally, day, answer);
    tally = step.tally;
    verdicts.push(step.verdict);
    if (tally.endedOn !== null) break;
  }
  return { tally, verdicts, counts };
}

describe("the request of each day", () => {
  it("sends the local delivery time, then delivery_count, then the settings", () => {
    const day = deliveryDay(plan({ byTime: true, byCount: true, startCount: 5, settings: [["city", "Brest"]] }), 0);
    expect(day).toMatchObject({ n: 1, count: 5, date: "2026-03-27" });
    expect(day.params).toEqual([
      ["local_delivery_time", "2026-03-27T06:00:00+01:00"],
      ["delivery_count", "5"],
      ["city", "Brest"],
    ]);
  });

  it(
    "moves one calendar day a day, with the zone's offset on that day " + "(the clocks change on 29 March in Paris)",
    () => {
      const p = plan({ byTime: true });
      const times = [0, 1, 2, 3].map((i) => deliveryDay(p, i).time?.text);
      expect(times).toEqual([
        "2026-03-27T06:00:00+01:00",
        "2026-03-28T06:00:00+01:00",
        "2026-03-29T06:00:00+02:00",
        "2026-03-30T06:00:00+02:00",
      ]);
      expect(deliveryDay(plan({ byTime: true, startDate: "2026-12-31" }), 1).date).toBe("2027-01-01");
    },
  );

  it("sends only what meta.json asks for", () => {
    const settings: [string, string][] = [["size", "small"]];
    expect(deliveryDay(plan({ settings }), 3)).toMatchObject({ n: 4, date: "", time: undefined, params: settings });
    expect(deliveryDay(plan({ byCount: true, startCount: 2, settings }), 3).params).toEqual([
      ["delivery_count", "5"],
      ["size", "small"],
    ]);
  });

  it("counts deliveries, not prints: delivery_count goes up on days that print nothing", () => {
    const { counts, verdicts } = playAll(plan({ byCount: true, startCount: 5 }), [
      noContent,
      ok("a"),
      ok("a"),
      { status: null, etag: null, reason: "offline" },
      ok("b"),
    ]);
    expect(counts).toEqual([5, 6, 7, 8, 9]);
    expect(verdicts.map((v) => v.prints)).toEqual([false, true, false, false, true]);
  });

  it("percent-encodes the query but leaves the harmless : and , readable", () => {
    expect(
      query([
        ["local_delivery_time", "2026-03-29T06:00:00+02:00"],
        ["place", "Brest, France & co"],
      ]),
    ).toBe("local_delivery_time=2026-03-29T06:00:00%2B02:00&place=Brest,%20France%20%26%20co");
    expect(query([])).toBe("");
  });
});

describe("what the platform prints", () => {
  it("prints a 200 whose ETag differs from the last one seen, and not one that matches", () => {
    expect(judge(ok('"a"'), null)).toMatchObject({ kind: "print", prints: true });
    expect(judge(ok('"b"'), '"a"')).toMatchObject({ kind: "print", prints: true });
    expect(judge(ok('"a"'), '"a"')).toMatchObject({ kind: "same", prints: false, short: "Not printed: same ETag" });
  });

  it("prints a 200 without an ETag but warns: the spec requires one", () => {
    expect(judge(ok(null), '"a"')).toMatchObject({ kind: "warn", prints: true, short: "Prints (no ETag!)" });
  });

  it("prints nothing for 204, ends on 410, and calls anything else (or no answer) an error", () => {
    expect(judge(noContent, '"a"')).toMatchObject({ kind: "none", prints: false });
    expect(judge(gone, null)).toMatchObject({ kind: "end", prints: false, short: "Subscription ends" });
    expect(judge({ status: null, etag: null, reason: "offline" }, null)).toMatchObject({
      kind: "error",
      prints: false,
    });
    const teapot = judge({ status: 418, etag: '"a"', reason: "" }, null);
    expect(teapot).toMatchObject({ kind: "error", prints: false, short: "Not a spec status" });
    expect(teapot.why).toContain("418");
  });

  it("compares with the last ETag seen, across days that print nothing", () => {
    // a 204 or an error does not make the platform forget the last ETag, and a
    // 200 without one keeps the one before
    const { verdicts, tally } = playAll(plan(), [
      ok('"a"'),
      noContent,
      ok('"a"'),
      ok(null),
      ok('"a"'),
      ok('"b"'),
      ok('"a"'),
    ]);
    expect(verdicts.map((v) => v.kind)).toEqual(["print", "none", "same", "warn", "same", "print", "print"]);
    expect(tally).toEqual({ lastEtag: '"a"', played: 7, printed: 4, endedOn: null });
  });

  it("ends the subscription on 410: nothing after it is asked for", () => {
    const { verdicts, tally } = playAll(plan({ days: 5 }), [ok('"a"'), ok('"b"'), gone, ok('"c"'), ok('"d"')]);
    expect(verdicts.map((v) => v.kind)).toEqual(["print", "print", "end"]);
    expect(tally).toEqual({ lastEtag: '"b"', played: 3, printed: 2, endedOn: 3 });
  });
});

describe("the run's summary", () => {
  it("counts what printed and what did not", () => {
    const { tally } = playAll(plan(), [ok('"a"'), ok('"a"'), noContent]);
    expect(summary(tally, 3)).toBe("Played 3 deliveries: 1 printed, 2 not printed.");
    expect(summary({ ...newTally(), played: 1, printed: 1 }, 1)).toBe("Played 1 delivery: 1 printed, 0 not printed.");
    expect(summary(newTally(), 4)).toBe("Nothing played.");
  });

  it("says which day answered 410 and how many days were left unplayed", () => {
    const ended = playAll(plan({ days: 5 }), [ok('"a"'), ok('"b"'), gone]).tally;
    expect(summary(ended, 5)).toBe(
      "Played 3 deliveries: 2 printed. Day 3 answered 410: " +
        "the series is over and the subscription ends there, so the last 2 days are not played.",
    );
    expect(summary(ended, 4)).toMatch(/, so the last day is not played\.$/);
    expect(summary(ended, 3)).toBe(
      "Played 3 deliveries: 2 printed. Day 3 answered 410: the series is over and the subscription ends there.",
    );
  });
});
