// The end notice's rules (lib/model/end-notice.ts): the slip's page, when a run
// takes a notice up, and what the print key's answer makes of it. The runs
// themselves are tested in test/integration/end-notice.test.ts.
import { claimJob } from "../../lib/model/print-job.ts";
import { describe, expect, it } from "vitest";
import { PrintChecker } from "../../lib/build/print-checks.ts";
import {
  endNoticePage,
  noticeAfter,
  noticeNext,
  owedNotice,
  settleNotice,
  type EndNotice,
} from "../../lib/model/end-notice.ts";
import { afterDelivery, type DeliveryRecord } from "../../lib/model/delivery-record.ts";
import { MAX_ATTEMPTS } from "../../lib/model/print-job.ts";
import type { Subscription } from "../../lib/model/subscription.ts";

const at = new Date("2026-03-27T06:05:00Z");
const later = (minutes: number) => new Date(at.getTime() + minutes * 60_000);

describe("the slip", () => {
  const page = endNoticePage(`Tales & <b>"Co"</b>`, "https://press.example.org/tales/subscribe/?a=1&b=2");

  it("names the publication, says it ended, and where to subscribe again, escaped", () => {
    expect(page).toContain(
      '<h1 style="font-size:32px;margin:0 0 12px">Tales &amp; &lt;b&gt;&quot;Co&quot;&lt;/b&gt;</h1>',
    );
    expect(page).toContain("This subscription has ended");
    expect(page).toContain("To subscribe again, from the first edition:");
    expect(page).toContain("https://press.example.org/tales/subscribe/?a=1&amp;b=2");
    expect(page).not.toContain("<b>");
  });

  it("passes the checks an edition's page passes: no small text, nothing wider than the paper, nothing to load", () => {
    expect(new PrintChecker().check(page, "slip")).toEqual([]);
    for (const size of page.matchAll(/font-size:(\d+)px/g)) expect(Number(size[1])).toBeGreaterThanOrEqual(20);
  });
});

describe("when a run takes a notice up", () => {
  const notice = (over: Partial<EndNotice>): EndNotice => ({ ...owedNotice(at), ...over });

  it("claims an owed notice at once, and leaves none that is missing or settled", () => {
    expect(noticeNext(owedNotice(at), at)).toBe("claim");
    expect(noticeNext(undefined, at)).toBe("leave");
    expect(noticeNext(null, at)).toBe("leave");
    for (const state of ["printed", "off", "no-printer", "gave-up"] as const)
      expect(noticeNext(notice({ state, attempts: 1 }), later(60 * 24 * 30))).toBe("leave");
  });

  it("retries a failed or offline one after the deliveries' backoff (15, 30, 60 minutes, then every 2 hours)", () => {
    for (const [attempts, wait] of [
      [1, 15],
      [2, 30],
      [3, 60],
      [4, 120],
      [9, 120],
    ] as const) {
      for (const state of ["failed", "offline"] as const) {
        const n = notice({ state, attempts });
        expect(noticeNext(n, later(wait - 2))).toBe("leave");
        expect(noticeNext(n, later(wait))).toBe("claim");
      }
    }
  });

  it("takes a claim over once it is stale (its run died), not before", () => {
    const claimed = claimJob(owedNotice(at), at);
    expect(claimed).toMatchObject({ state: "sending", attempts: 1 });
    expect(noticeNext(claimed, later(4))).toBe("leave");
    expect(noticeNext(claimed, later(5))).toBe("claim");
  });

  it("gives up once its tries are spent", () => {
    expect(noticeNext(notice({ state: "failed", attempts: MAX_ATTEMPTS }), later(120))).toBe("give-up");
    expect(noticeNext(notice({ state: "sending", attempts: MAX_ATTEMPTS }), later(5))).toBe("give-up");
  });
});

describe("what the print key's answer makes of it", () => {
  const claimed = claimJob(owedNotice(at), at);
  it.each([
    ["sent", "printed", "the end slip was sent to the printer"],
    ["offline", "offline", "printer offline (504); tried again by a later run"],
    ["unknown-key", "no-printer", "no end slip: the print key is unknown (404), so there is no printer to print it on"],
    [{ error: "the print key answered 503" }, "failed", "the print key answered 503; tried again by a later run"],
  ] as const)("%j: %s", (print, state, detail) => {
    expect(settleNotice(claimed, print, later(1))).toEqual({ state, detail, attempts: 1, at: later(1).toISOString() });
  });
});

describe("the notice comes with the end", () => {
  const sub: Subscription = {
    id: "s1",
    slug: "tales",
    printKey: "sealed",
    printer: "Kitchen",
    zone: "UTC",
    hour: 6,
    settings: [],
    created: "2026-03-01T00:00:00Z",
    deliveryCount: 5,
    lastEtag: '"4"',
    ended: null,
    unsubscribeHash: "00",
  };
  const rec = { deliveryCount: 5, state: "ended", at: at.toISOString() } as DeliveryRecord;
  const end = { lastEtag: '"4"', ended: { at: at.toISOString(), reason: "the series is over (410)" } };

  it("owed after a 410, impossible after an unknown key, none after anything else", () => {
    expect(noticeAfter({ state: "ended" }, at)?.state).toBe("due");
    expect(noticeAfter({ state: "unknown-key" }, at)?.state).toBe("no-printer");
    expect(noticeAfter({ state: "printed" }, at)).toBeUndefined();
  });

  it("is written with the end, and an end already stored keeps its own notice", () => {
    const ended = afterDelivery(sub, rec, end);
    expect(ended).toMatchObject({ deliveryCount: 6, ended: end.ended, endNotice: { state: "due", at: end.ended.at } });
    const printed = { ...ended, endNotice: { ...claimJob(owedNotice(at), at), state: "printed" as const } };
    expect(afterDelivery(printed, rec, end).endNotice?.state).toBe("printed");
    // An unknown print key's end owes no slip: there is no printer to print it on.
    expect(afterDelivery(sub, { ...rec, state: "unknown-key" }, end).endNotice?.state).toBe("no-printer");
  });
});
