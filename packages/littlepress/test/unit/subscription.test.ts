// The subscription rules on their own, with the clock given: when a delivery
// is due (summer time included), claims, and how answers settle a delivery.
import { randomBytes } from "node:crypto";
import { claimJob } from "../../lib/model/print-job.ts";
import { describe, expect, it } from "vitest";
import { addDays } from "../../lib/model/dates.ts";
import { openPrintKey, parsePrintKeyUrl, sealPrintKey } from "../../lib/model/print-key.ts";
import { printUrl } from "../../lib/model/print-url.ts";
import { PRINT_TIMEOUT_MS, REQUESTS_PER_DELIVERY, runTimes, sendWindow } from "../../lib/model/run-budget.ts";
import {
  afterDelivery,
  deliveryExpired,
  firstClaim,
  settle,
  type DeliveryRecord,
} from "../../lib/model/delivery-record.ts";
import { claimable, MAX_ATTEMPTS, retryDelayMs, STALE_CLAIM_MS } from "../../lib/model/print-job.ts";
import {
  deliveryDueAt,
  failingAfter,
  nextTryOn,
  PAUSE_AFTER_FAILING_DAYS,
  pausedOn,
  subscriptionExpired,
  type Failing,
  type Subscription,
} from "../../lib/model/subscription.ts";

const subscription = (over: Partial<Subscription> = {}): Subscription => ({
  id: "s1",
  slug: "serial",
  printKey: "",
  printer: "Kitchen",
  zone: "Europe/Paris",
  hour: 6,
  settings: [],
  created: "2026-01-01T00:00:00Z",
  deliveryCount: 0,
  lastEtag: null,
  ended: null,
  unsubscribeHash: "",
  ...over,
});
const dueAt = (iso: string, over: Partial<Subscription> = {}) => {
  const due = deliveryDueAt(subscription(over), new Date(iso));
  return due && `${due.date} ${due.time.text}`;
};

describe("when a delivery is due", () => {
  it("is the day's delivery from its hour on, and the day before's until then", () => {
    expect(dueAt("2026-06-10T03:59:59Z")).toBe("2026-06-09 2026-06-09T06:00:00+02:00");
    expect(dueAt("2026-06-10T04:00:00Z")).toBe("2026-06-10 2026-06-10T06:00:00+02:00");
  });

  it("follows summer time: the same local hour on either side of the change", () => {
    expect(dueAt("2026-03-28T05:00:00Z")).toBe("2026-03-28 2026-03-28T06:00:00+01:00");
    expect(dueAt("2026-03-29T04:00:00Z")).toBe("2026-03-29 2026-03-29T06:00:00+02:00");
    expect(dueAt("2026-10-25T04:59:00Z")).toBe("2026-10-24 2026-10-24T06:00:00+02:00");
    expect(dueAt("2026-10-25T05:00:00Z")).toBe("2026-10-25 2026-10-25T06:00:00+01:00");
  });

  it("sends an hour the clocks skip as the hour after, and an hour they repeat the first time", () => {
    // Paris goes from 02:00 to 03:00 on 29 March 2026
    expect(dueAt("2026-03-29T01:00:00Z", { hour: 2 })).toBe("2026-03-29 2026-03-29T03:00:00+02:00");
    expect(dueAt("2026-03-29T00:59:00Z", { hour: 2 })).toBe("2026-03-28 2026-03-28T02:00:00+01:00");
    // New York repeats 01:00 on 1 November 2026: the first one, at -04:00
    expect(dueAt("2026-11-01T05:00:00Z", { zone: "America/New_York", hour: 1 })).toBe(
      "2026-11-01 2026-11-01T01:00:00-04:00",
    );
  });

  it("is at the same instant a different local day at -12:00 and at +14:00", () => {
    expect(dueAt("2026-01-09T16:30:00Z", { zone: "Pacific/Kiritimati" })).toBe("2026-01-10 2026-01-10T06:00:00+14:00");
    expect(dueAt("2026-01-09T16:30:00Z", { zone: "Etc/GMT+12" })).toBe("2026-01-08 2026-01-08T06:00:00-12:00");
  });

  it("starts with the first delivery time after the subscription was made, and stops when it ended", () => {
    expect(dueAt("2026-06-10T08:00:00Z", { created: "2026-06-10T07:00:00Z" })).toBeUndefined();
    expect(dueAt("2026-06-11T04:00:00Z", { created: "2026-06-10T07:00:00Z" })).toBe(
      "2026-06-11 2026-06-11T06:00:00+02:00",
    );
    expect(dueAt("2026-06-11T04:00:00Z", { ended: { at: "2026-06-10T00:00:00Z", reason: "410" } })).toBeUndefined();
  });
});

describe("claims", () => {
  const at = new Date("2026-06-10T04:05:00Z");
  const rec = firstClaim(subscription({ deliveryCount: 7 }), deliveryDueAt(subscription(), at)!, at);

  it("carries the subscription's delivery_count, kept on every retry", () => {
    expect(rec.deliveryCount).toBe(7);
    expect(claimJob({ ...rec, state: "offline" }, at)).toMatchObject({ deliveryCount: 7, attempts: 2 });
  });

  it("lets a run retake a claim only once it is stale, or after an offline printer or a failure", () => {
    const later = (ms: number) => new Date(at.getTime() + ms);
    expect(claimable(rec, later(STALE_CLAIM_MS - 1))).toBe(false);
    expect(claimable(rec, later(STALE_CLAIM_MS))).toBe(true);
    expect(claimable({ ...rec, state: "offline" }, later(15 * 60_000))).toBe(true);
    expect(claimable({ ...rec, state: "failed" }, later(15 * 60_000))).toBe(true);
    expect(claimable({ ...rec, state: "printed" }, new Date("2026-06-11T00:00:00Z"))).toBe(false);
    expect(claimable({ ...rec, state: "offline", attempts: MAX_ATTEMPTS }, later(86_400_000))).toBe(false);
  });

  it("backs off retries within the day: 15 minutes, then 30, 60, 120, and 120 from then on", () => {
    const minutes = [1, 2, 3, 4, 5, 9].map((attempts) => retryDelayMs(attempts) / 60_000);
    expect(minutes).toEqual([15, 30, 60, 120, 120, 120]);
    // A run a little early (runs are every 15 minutes, give or take) takes the retry; the run before does not.
    const failed = (attempts: number): DeliveryRecord => ({ ...rec, state: "failed", attempts });
    const after = (minutes: number) => new Date(at.getTime() + minutes * 60_000);
    expect(claimable(failed(1), after(14))).toBe(true);
    expect(claimable(failed(1), after(13))).toBe(false);
    expect(claimable(failed(3), after(45))).toBe(false);
    expect(claimable(failed(3), after(60))).toBe(true);
    expect(claimable({ ...failed(6), state: "offline" }, after(105))).toBe(false);
    expect(claimable({ ...failed(6), state: "offline" }, after(120))).toBe(true);
  });

  it("tries a delivery that never works some fifteen times in its day, not every quarter hour", () => {
    let tries = 1;
    let last = at.getTime();
    for (let t = at.getTime(); t < at.getTime() + 86_400_000; t += 15 * 60_000) {
      if (!claimable({ ...rec, state: "offline", attempts: tries, at: new Date(last).toISOString() }, new Date(t)))
        continue;
      tries++;
      last = t;
    }
    expect(tries).toBeGreaterThan(10);
    expect(tries).toBeLessThan(MAX_ATTEMPTS);
  });
});

describe("a print key that keeps failing", () => {
  const streak = (results: ["reached" | "failed", string][]) =>
    results.reduce<Failing | null>((f, [result, date]) => failingAfter(f, date, result), null);
  const days = (n: number, from = "2026-06-01") =>
    Array.from({ length: n }, (_, i): ["failed", string] => ["failed", addDays(from, i)]);

  it("counts delivery days in a row that failed, each day once however many tries", () => {
    expect(
      streak([
        ["failed", "2026-06-01"],
        ["failed", "2026-06-01"],
        ["failed", "2026-06-02"],
      ]),
    ).toEqual({ days: 2, last: "2026-06-02", paused: null });
    // a day with nothing to print asks nothing of the print key: the days around it are still in a row
    expect(streak([...days(3), ["failed", "2026-06-05"]])).toMatchObject({ days: 4 });
    // a day whose retry printed is no failing day
    expect(
      streak([
        ["failed", "2026-06-01"],
        ["reached", "2026-06-01"],
      ]),
    ).toBeNull();
  });

  it(`pauses the subscription on the ${PAUSE_AFTER_FAILING_DAYS}th day; a success ends it all`, () => {
    expect(streak(days(PAUSE_AFTER_FAILING_DAYS - 1))?.paused).toBeNull();
    const paused = streak(days(PAUSE_AFTER_FAILING_DAYS));
    expect(paused).toEqual({ days: 7, last: "2026-06-07", paused: "2026-06-07" });
    expect(failingAfter(paused, "2026-06-14", "failed")).toEqual({ days: 8, last: "2026-06-14", paused: "2026-06-07" });
    expect(failingAfter(paused, "2026-06-14", "reached")).toBeNull();
  });

  it("skips a paused subscription's days but every 7th from the pause: the day itself, then a week on", () => {
    const sub = { failing: { days: 7, last: "2026-06-07", paused: "2026-06-07" } };
    const skipped = Array.from({ length: 16 }, (_, i) => addDays("2026-06-06", i)).filter((d) => pausedOn(sub, d));
    expect(skipped).not.toContain("2026-06-06");
    expect(skipped).not.toContain("2026-06-07");
    expect(skipped).not.toContain("2026-06-14");
    expect(skipped).toHaveLength(12);
    expect(pausedOn({}, "2026-06-08")).toBe(false); // stored before the field: never paused
    expect(pausedOn({ failing: null }, "2026-06-08")).toBe(false);
    expect(nextTryOn("2026-06-07", "2026-06-08")).toBe("2026-06-14");
    expect(nextTryOn("2026-06-07", "2026-06-14")).toBe("2026-06-14");
  });

  it("counts as failing what did not reach the printer, not what the publication did", () => {
    const at = new Date("2026-06-10T04:05:00Z");
    const rec = firstClaim(subscription(), deliveryDueAt(subscription(), at)!, at);
    const printKey = (status: number | null, print?: Parameters<typeof settle>[3]) =>
      settle(subscription(), rec, { status, etag: '"b"' }, print, at).change.printKey;
    expect(printKey(200, "sent")).toBe("reached");
    expect(printKey(200, "offline")).toBe("failed");
    expect(printKey(200, { error: "the print key answered 302" })).toBe("failed");
    expect(printKey(200, { error: "the print key could not be reached: timed out" })).toBe("failed");
    expect(printKey(200, "unknown-key")).toBeUndefined(); // ends the subscription instead
    expect(printKey(204)).toBeUndefined();
    expect(printKey(null)).toBeUndefined();
    // the subscription carries it; one stored before the field reads as never failing
    const failed = settle(subscription(), rec, { status: 200, etag: '"b"' }, "offline", at).change;
    expect(afterDelivery(subscription(), rec, failed).failing).toEqual({ days: 1, last: rec.date, paused: null });
    const printed = settle(subscription(), rec, { status: 200, etag: '"b"' }, "sent", at).change;
    const recovering = subscription({ failing: { days: 9, last: "2026-06-09", paused: "2026-06-03" } });
    expect(afterDelivery(recovering, rec, printed).failing).toBeNull();
    expect(afterDelivery(recovering, rec).failing).toEqual(recovering.failing);
  });
});

describe("what is kept, and for how long", () => {
  it("expires delivery records older than the days kept, by the run's UTC date", () => {
    const at = new Date("2026-06-10T04:00:00Z");
    expect(deliveryExpired("2026-03-12", at, 90)).toBe(false);
    expect(deliveryExpired("2026-03-11", at, 90)).toBe(true);
  });

  it("expires a subscription that ended longer ago than that, never a live one", () => {
    const at = new Date("2026-06-10T04:00:00Z");
    expect(subscriptionExpired({ ended: null }, at, 90)).toBe(false);
    expect(subscriptionExpired({ ended: { at: "2026-03-12T05:00:00Z", reason: "410" } }, at, 90)).toBe(false);
    expect(subscriptionExpired({ ended: { at: "2026-03-12T03:59:00Z", reason: "410" } }, at, 90)).toBe(true);
  });
});

describe("a run's time", () => {
  it("starts no delivery later than the budget less its two asks and the shortest window a send starts with", () => {
    expect(runTimes(1000, 25_000, 5_000)).toEqual({
      startBy: 1000 + 25_000 - REQUESTS_PER_DELIVERY * 5_000,
      readBy: 21_000,
      endBy: 26_000,
      sendMinMs: 10_000,
    });
    expect(REQUESTS_PER_DELIVERY).toBe(4);
    expect(runTimes(0, 20_000, 5_000)).toHaveProperty("error");
    expect(runTimes(0, 2_000, 300)).toEqual({ startBy: 800, readBy: 1_700, endBy: 2_000, sendMinMs: 600 });
  });

  it("lets a send wait as long as the run has left, up to the print timeout; none starts with less", () => {
    const times = { endBy: 100_000, sendMinMs: 10_000 };
    expect(sendWindow(times, 0)).toBe(PRINT_TIMEOUT_MS > 100_000 ? 100_000 : PRINT_TIMEOUT_MS);
    expect(sendWindow(times, 0, 30_000)).toBe(30_000);
    expect(sendWindow(times, 85_000)).toBe(15_000);
    expect(sendWindow(times, 90_000)).toBe(10_000);
    expect(sendWindow(times, 90_001)).toBeUndefined();
  });
});

describe("settling a delivery (the spec's table)", () => {
  const at = new Date("2026-06-10T04:05:00Z");
  const rec = firstClaim(subscription(), deliveryDueAt(subscription(), at)!, at);
  const seen = subscription({ lastEtag: '"a"' });
  const settled = (status: number | null, etag: string | null, print?: Parameters<typeof settle>[3]) => {
    const { record, change } = settle(seen, rec, { status, etag }, print, at);
    return [record.state, record.printed, change.lastEtag, change.ended?.reason ?? null];
  };

  it("prints a new ETag and remembers it; leaves the same ETag and 204 unprinted; ends on 410", () => {
    expect(settled(200, '"b"', "sent")).toEqual(["printed", true, '"b"', null]);
    expect(settled(200, '"a"')).toEqual(["not-printed", false, '"a"', null]);
    expect(settled(204, null)).toEqual(["not-printed", false, '"a"', null]);
    expect(settled(410, null)).toEqual(["ended", false, '"a"', "the series is over (410)"]);
  });

  it("keeps the last ETag when the printer was offline, so that the retry prints", () => {
    expect(settled(200, '"b"', "offline")).toEqual(["offline", false, '"a"', null]);
    expect(settled(200, '"b"', { error: "timed out" })).toEqual(["failed", false, '"a"', null]);
    expect(settled(200, '"b"', "unknown-key")).toEqual(["unknown-key", false, '"a"', "the print key is unknown (404)"]);
    expect(settled(500, null)).toEqual(["failed", false, '"a"', null]);
  });

  it("moves delivery_count past the delivery's and never back", () => {
    expect(afterDelivery(subscription({ deliveryCount: 3 }), { ...rec, deliveryCount: 3 }).deliveryCount).toBe(4);
    expect(afterDelivery(subscription({ deliveryCount: 5 }), { ...rec, deliveryCount: 3 }).deliveryCount).toBe(5);
  });
});

describe("print keys", () => {
  it("accepts a sirius print key URL and refuses what is not one, without repeating it", () => {
    expect((parsePrintKeyUrl(" https://littleprinter.example/printkey/Ab3_x-9 ") as URL).href).toBe(
      "https://littleprinter.example/printkey/Ab3_x-9",
    );
    const bads = ["", "not a url", "ftp://h/printkey/abc", "https://h/other/abc", "https://h/printkey/abc?x=1"];
    for (const bad of [...bads, "https://device.li/abc?x=1", "https://device.li/abc#x"]) {
      const result = parsePrintKeyUrl(bad);
      expect(result).toHaveProperty("error");
      expect((result as { error: string }).error).toMatch(/^Print key: /);
      if (bad) expect((result as { error: string }).error).not.toContain(bad);
    }
  });

  it("accepts a key as sirius shows it on its device-key domain (https://device.li/<key>)", () => {
    expect((parsePrintKeyUrl("https://device.li/k3y0fth3pr1nt3r") as URL).href).toBe(
      "https://device.li/k3y0fth3pr1nt3r",
    );
    expect(printUrl(parsePrintKeyUrl("https://device.li/k3y") as URL, "Serial").href).toBe(
      "https://device.li/k3y?from=Serial",
    );
  });

  it("takes one trailing slash off either form, which sirius would not know the key with", () => {
    expect((parsePrintKeyUrl("https://device.li/abc/") as URL).href).toBe("https://device.li/abc");
    expect((parsePrintKeyUrl("https://h.example/printkey/abc/") as URL).href).toBe("https://h.example/printkey/abc");
  });

  it("refuses a path that is neither form, saying what both look like", () => {
    for (const bad of [
      "https://device.li/",
      "https://device.li",
      "https://device.li/abc//",
      "https://device.li/a/b",
      "https://h.example/printkey",
      "https://h.example/printkey/",
      "https://h.example/printkey//",
      "https://h.example/printkey/abc/def",
      "https://h.example/print%20key",
    ])
      expect(parsePrintKeyUrl(bad), bad).toEqual({
        error:
          "Print key: the URL's path must be /<key> (as in https://device.li/<key>) or /printkey/<key>, " +
          "as your printer's page shows it.",
      });
  });

  it("seals a print key under the deploy's key: it opens with that key only", () => {
    const key = randomBytes(32);
    const url = new URL("https://h.example/printkey/secret123");
    const sealed = sealPrintKey(url, key);
    expect(sealed).not.toContain("secret123");
    expect(Buffer.from(sealed, "base64").toString("latin1")).not.toContain("secret123");
    expect(openPrintKey(sealed, key).href).toBe(url.href);
    expect(() => openPrintKey(sealed, randomBytes(32))).toThrow();
    expect(sealPrintKey(url, key)).not.toBe(sealed); // a fresh nonce each time
  });

  it("posts with the publication's name as `from`, as HTML text: sirius pastes it into its page unescaped", () => {
    expect(printUrl(new URL("https://h/printkey/k"), "Good Morning & co").href).toBe(
      "https://h/printkey/k?from=Good+Morning+%26amp%3B+co",
    );
    expect(printUrl(new URL("https://h/printkey/k"), '<img src=x onerror="1">').searchParams.get("from")).toBe(
      "&lt;img src=x onerror=&quot;1&quot;&gt;",
    );
  });
});
