// One page, one print: a print-key service that renders before it answers
// (as sirius does, slower the more it renders at once), one that reads a page
// and hangs up, and one that says it did not take it. Delivery runs end to
// end over real HTTP on 127.0.0.1, with the clock in the tests' hands: the
// kit's server serves the fixture publications, the fake sirius
// (test/helpers/print-keys.ts) renders, prints and answers.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import type { DeliveryRecord } from "../../lib/model/delivery-record.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { runDeliveries, type DeliveryRunOptions } from "../../lib/platform/delivering/run.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { reportText } from "../../scripts/deliver.ts";
import { deliveryFixture, subscribeOn } from "../helpers/delivery-fixture.ts";
import { withServer } from "../helpers/server.ts";

const site = withServer("basic");
const sealKey = randomBytes(32);
const fixture = deliveryFixture("print-once");
const { sirius } = fixture;
let store: StateStore;

const subscribe = (slug: string, count?: number) =>
  subscribeOn({ sirius, store, sealKey }, { slug, zone: "UTC", hour: 6, at: new Date("2026-03-26T00:00:00Z"), count });
/** The day's delivery time, 5 minutes past, plus `minutes`. */
const at = (minutes = 0) => localDeliveryTime("2026-03-27", 6, "UTC").ms + (5 + minutes) * 60_000;
// A publication's per-request bound of 300 ms: what a print-key POST was bounded by before (5 s in production).
const run = (minutes = 0, over: Partial<DeliveryRunOptions> = {}) =>
  runDeliveries({
    store,
    origin: site.url,
    sealKey,
    printKeys: sirius.policy,
    at: new Date(at(minutes)),
    timeoutMs: 300,
    ...over,
  });
const record = async (id: string) => (await store.get<DeliveryRecord>(`deliveries/${id}/2026-03-27`))?.value;
/** The runs a day of retries makes: 15, 30, 60 and 120 minutes on, and the next day's first. */
const LATER = [15, 30, 60, 120, 240];

describe("a print service that renders before it answers", () => {
  it("prints each of 16 deliveries due together once, however long its answers take, with few in flight", async () => {
    store = fixture.freshStore();
    // 120 ms a page alone, and 120 ms more for each page rendered beside it (sirius on a small machine).
    sirius.renderMs = (rendering) => 120 * rendering;
    const subs = await Promise.all(Array.from({ length: 16 }, () => subscribe("serial")));
    const report = await run();
    expect(report.lines.map((l) => l.outcome)).toEqual(Array(16).fill("printed"));
    expect(report.unknown).toBe(0);
    expect(sirius.prints.map((p) => p.key).sort()).toEqual(subs.map((s) => s.key).sort());
    // The in-flight limit followed its answers: never all 16 at once (the old fixed 48 sent all 16).
    expect(sirius.peakRendering).toBeGreaterThan(1);
    expect(sirius.peakRendering).toBeLessThanOrEqual(8);
    for (const minutes of LATER) expect((await run(minutes)).lines).toEqual([]);
    expect(sirius.prints).toHaveLength(16);
  });
});

describe("a page sent whole and never answered", () => {
  it("is unknown: recorded and reported so, and never sent again", async () => {
    store = fixture.freshStore();
    const subs = [await subscribe("serial"), await subscribe("serial")];
    for (const { key } of subs) sirius.printers.get(key)!.hangUp = true;
    const report = await run();
    expect(report.lines.map((l) => l.outcome)).toEqual(["unknown", "unknown"]);
    expect(report.unknown).toBe(2);
    expect(reportText(report, false)).toContain(
      "; 2 pages sent with no answer (unknown: they may have printed, and are not sent again)",
    );
    const rec = (await record(subs[0]!.id))!;
    expect(rec.state).toBe("unknown");
    expect(rec.detail).toMatch(/^sent, then the print key could not be reached \(ECONNRESET\) before it answered/);
    expect(sirius.prints).toHaveLength(2);
    for (const minutes of LATER) await run(minutes);
    expect(sirius.prints).toHaveLength(2);
    // It may have printed: the same edition does not print again, and the streak of failing days is not moved.
    const after = (await store.get<Subscription>(subscriptionKey(subs[0]!.id)))!.value;
    expect(after.lastEtag).toBe(rec.etag);
    expect(after.failing ?? null).toBeNull();
  });

  it("for an end slip too: unknown, and never sent again", async () => {
    store = fixture.freshStore();
    // serial's part 5 is past its end: the day's delivery gets 410, and the subscription owes its slip.
    const { key, id } = await subscribe("serial", 5);
    sirius.printers.get(key)!.hangUp = true;
    const report = await run();
    expect(report.lines.map((l) => l.outcome)).toEqual(["ended"]);
    expect(report.notices.map((l) => l.outcome)).toEqual(["unknown"]);
    expect(report.unknown).toBe(1);
    expect(sirius.prints.map((p) => p.body)).toEqual([expect.stringContaining("This subscription has ended")]);
    for (const minutes of LATER) await run(minutes);
    expect(sirius.prints).toHaveLength(1);
    const ended = (await store.get<Subscription>(subscriptionKey(id)))!.value;
    expect(ended.endNotice?.state).toBe("unknown");
  });
});

describe("a page the service surely did not take", () => {
  it("is sent again by a later run: a 503 it answered, then printed once", async () => {
    store = fixture.freshStore();
    const { key, id } = await subscribe("serial");
    sirius.printers.get(key)!.answers = [503];
    const first = await run();
    expect(first.lines.map((l) => `${l.outcome}: ${l.detail}`)).toEqual(["failed: the print key answered 503"]);
    expect(sirius.prints).toHaveLength(0);
    expect((await run(15)).lines.map((l) => l.outcome)).toEqual(["printed"]);
    for (const minutes of LATER) await run(minutes);
    expect(sirius.prints.map((p) => p.key)).toEqual([key]);
    expect((await record(id))?.attempts).toBe(2);
  });
});
