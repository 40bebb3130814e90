// The subscription rules on their own, with the clock given: when a delivery
// is due (summer time included), claims, and how answers settle a delivery.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openPrintKey, parsePrintKeyUrl, printUrl, sealPrintKey } from "../../lib/model/print-key.ts";
import {
  afterDelivery,
  claimable,
  deliveryDueAt,
  firstClaim,
  reclaim,
  settle,
  STALE_CLAIM_MS,
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
    expect(reclaim({ ...rec, state: "offline" }, at)).toMatchObject({ deliveryCount: 7, attempts: 2 });
  });

  it("lets a run retake a claim only once it is stale, or after an offline printer or a failure", () => {
    expect(claimable(rec, new Date(at.getTime() + STALE_CLAIM_MS - 1))).toBe(false);
    expect(claimable(rec, new Date(at.getTime() + STALE_CLAIM_MS))).toBe(true);
    expect(claimable({ ...rec, state: "offline" }, at)).toBe(true);
    expect(claimable({ ...rec, state: "failed" }, at)).toBe(true);
    expect(claimable({ ...rec, state: "printed" }, new Date("2026-06-11T00:00:00Z"))).toBe(false);
    expect(claimable({ ...rec, state: "offline", attempts: 24 }, at)).toBe(false);
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
    for (const bad of ["", "not a url", "ftp://h/printkey/abc", "https://h/other/abc", "https://h/printkey/abc?x=1"]) {
      const result = parsePrintKeyUrl(bad);
      expect(result).toHaveProperty("error");
      expect((result as { error: string }).error).toMatch(/^Print key: /);
      if (bad) expect((result as { error: string }).error).not.toContain(bad);
    }
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

  it("posts with the publication's name as `from`", () => {
    expect(printUrl(new URL("https://h/printkey/k"), "Good Morning & co").href).toBe(
      "https://h/printkey/k?from=Good+Morning+%26+co",
    );
  });
});
