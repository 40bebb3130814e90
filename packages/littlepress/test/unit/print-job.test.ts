// Every print job's lifecycle (lib/model/print-job.ts), and how many pages go
// to one print service at once (lib/platform/printing/in-flight.ts).
import { describe, expect, it } from "vitest";
import {
  claimJob,
  jobNext,
  MAX_ATTEMPTS,
  printKeyReached,
  retryDelayMs,
  STALE_CLAIM_MS,
  stillClaimed,
  tryState,
  type JobRecord,
} from "../../lib/model/print-job.ts";
import { serviceLimits } from "../../lib/platform/printing/in-flight.ts";

const at = new Date("2026-06-10T06:05:00Z");
const ago = (ms: number) => new Date(at.getTime() - ms).toISOString();
const rec = (state: string, sinceMs: number, attempts = 1): JobRecord => ({
  state,
  at: ago(sinceMs),
  attempts,
  detail: "",
});

describe("a print job's next step", () => {
  it("claims a job never tried, or owed", () => {
    expect(jobNext(undefined, at)).toBe("claim");
    expect(jobNext(rec("due", 0, 0), at, "due")).toBe("claim");
  });

  it("leaves a claim until it is stale, then takes it over", () => {
    expect(jobNext(rec("sending", STALE_CLAIM_MS - 1), at)).toBe("leave");
    expect(jobNext(rec("sending", STALE_CLAIM_MS), at)).toBe("claim");
  });

  it("tries an offline or failed job again once its wait is over, and gives up when its tries are spent", () => {
    for (const state of ["offline", "failed"]) {
      expect(jobNext(rec(state, 60_000, 2), at)).toBe("leave");
      expect(jobNext(rec(state, retryDelayMs(2), 2), at)).toBe("claim");
      expect(jobNext(rec(state, retryDelayMs(MAX_ATTEMPTS), MAX_ATTEMPTS), at)).toBe("give-up");
    }
  });

  it("never tries again a job that printed, or that was sent with no answer", () => {
    for (const state of ["printed", "unknown", "unknown-key", "not-printed"])
      expect(jobNext(rec(state, 365 * 86_400_000), at)).toBe("leave");
  });

  it("counts a claim as a try, and knows its own claim when it reads it back", () => {
    const claimed = claimJob(rec("failed", retryDelayMs(1)), at);
    expect(claimed).toMatchObject({ state: "sending", attempts: 2, at: at.toISOString(), detail: "claimed again" });
    expect(stillClaimed(claimed, claimed)).toBe(true);
    expect(stillClaimed({ ...claimed, attempts: 3 }, claimed)).toBe(false);
    expect(stillClaimed({ ...claimed, state: "printed" }, claimed)).toBe(false);
  });
});

describe("what the print key said", () => {
  it("maps to one state for every kind of job", () => {
    expect(tryState("sent")).toEqual({ state: "printed", detail: "sent to the printer" });
    expect(tryState("offline").state).toBe("offline");
    expect(tryState("unknown-key").state).toBe("unknown-key");
    expect(tryState({ error: "the print key answered 503" })).toEqual({
      state: "failed",
      detail: "the print key answered 503",
    });
    expect(tryState({ unknown: "sent, then it timed out" })).toEqual({
      state: "unknown",
      detail: "sent, then it timed out: it may have printed, so it is not sent again",
    });
  });

  it("moves a failing streak only on what the service surely said", () => {
    expect(printKeyReached("sent")).toBe("reached");
    expect(printKeyReached("offline")).toBe("failed");
    expect(printKeyReached({ error: "refused" })).toBe("failed");
    expect(printKeyReached({ unknown: "timed out" })).toBeUndefined();
    expect(printKeyReached("unknown-key")).toBeUndefined();
  });
});

describe("pages in flight to one print service", () => {
  /** `n` sends to a service answering in `answerMs(in flight)`, on a clock of the test's own. */
  async function load(n: number, max: number, answerMs: (inFlight: number) => number, ok = () => true) {
    let clock = 0;
    let active = 0;
    const limit = serviceLimits(max, () => clock)("https://sirius.example");
    const sends = Array.from({ length: n }, () =>
      limit.run(
        async () => {
          active++;
          const took = answerMs(active);
          // The answer comes `took` ms on: the clock moves by it while this page is in flight.
          await new Promise((r) => setTimeout(r, 1));
          clock += took / Math.max(1, active);
          active--;
          return ok();
        },
        (answered) => answered,
      ),
    );
    await Promise.all(sends);
    return limit;
  }

  it("grows to its ceiling for a service that answers as fast with more in flight", async () => {
    expect((await load(200, 12, () => 5)).peak).toBe(12);
  });

  it("stays low for a service that renders before it answers, slower with each page beside", async () => {
    const limit = await load(200, 48, (inFlight) => 500 * inFlight);
    expect(limit.peak).toBeLessThanOrEqual(6);
    expect(limit.limit).toBeLessThanOrEqual(4);
  });

  it("backs off to one page at a time from a service that keeps failing", async () => {
    const limit = await load(
      60,
      48,
      () => 5,
      () => false,
    );
    expect(limit.limit).toBe(1);
  });
});
