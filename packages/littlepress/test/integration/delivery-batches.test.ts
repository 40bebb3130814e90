// Delivery runs that fan out (lib/platform/delivering/batches.ts): the scheduled
// run finds who is due from the schedule index and hands them over in batches;
// each batch, run by the background function or in-process, delivers with the
// same code as a self-hosted run. The kit's server serves the fixture
// publications, a fake sirius takes the prints, the state is a file store.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import type { DeliveryRecord } from "../../lib/model/delivery-record.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { runBatch } from "../../lib/platform/delivering/batches.ts";
import {
  BATCHES,
  batchFunctionUrl,
  SIGNATURE_HEADER,
  signBatchCall,
  type BatchCall,
  type StoredBatch,
} from "../../lib/platform/delivering/hand-over.ts";
import { planRun, slotDue } from "../../lib/platform/delivering/scheduled-run.ts";
import { PREPARED_PER_POST, runDeliveries, type DeliveryRunOptions } from "../../lib/platform/delivering/run.ts";
import { stateSetup } from "../../lib/platform/stores/state-setup.ts";
import { fileStore, type StateStore } from "../../lib/platform/stores/state-store.ts";
import { LIVE, liveKey, SLOTS, slotKey, subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { deliveryFixture, subscribeOn } from "../helpers/delivery-fixture.ts";
import { netlifySide, withServer } from "../helpers/server.ts";
import { builtSite } from "../helpers/sites.ts";

const site = withServer("basic");
let sealKey: Buffer = randomBytes(32);
const fixture = deliveryFixture("batches");
const { sirius } = fixture;
let store: StateStore;
const freshStore = () => (store = fixture.freshStore());

/** A printer on the fake sirius, and a subscription to `slug` that prints on it, `count` deliveries in. */
const subscribe = (o: { slug?: string; zone?: string; hour?: number; count?: number; online?: boolean } = {}) =>
  subscribeOn(
    { sirius, store, sealKey },
    { slug: "open-serial", zone: "UTC", hour: 6, at: new Date("2026-03-20T00:00:00Z"), ...o },
  );

const options = (at: number, over: Partial<DeliveryRunOptions> = {}): DeliveryRunOptions => ({
  store,
  origin: site.url,
  sealKey,
  printKeys: sirius.policy,
  at: new Date(at),
  ...over,
});
/** 06:05 UTC on 27 March 2026, in the quarter after the 06:00 slot. */
const AT = localDeliveryTime("2026-03-27", 6, "UTC").ms + 5 * 60_000;

/** Plans a run at `at`, keeping the calls it hands over (run nothing). */
async function plan(at: number, over: { batchSize?: number; sweep?: boolean } = {}) {
  const calls: BatchCall[] = [];
  const report = await planRun({
    store,
    at: new Date(at),
    hand: (call) => Promise.resolve(void calls.push(call)),
    sweep: false,
    ...over,
  });
  return { report, calls };
}
const idsOf = async (call: BatchCall) => (await store.get<StoredBatch>(call.batch))!.value.ids;
const printedKeys = () => sirius.prints.map((p) => p.key).sort();

describe("planning a run", () => {
  it("finds every due subscriber exactly once across pages, and no one else", async () => {
    freshStore();
    // Due at 06:05 UTC: 06:00 in UTC, 07:00 in Paris (+01:00 in March). Not due: 07:00 UTC (later),
    // 05:00 UTC (an earlier quarter's), 12:00 in Kolkata (06:30 UTC).
    const due = [];
    for (let i = 0; i < 7; i++) due.push((await subscribe({ zone: "UTC", hour: 6 })).id);
    for (let i = 0; i < 4; i++) due.push((await subscribe({ zone: "Europe/Paris", hour: 7 })).id);
    const notDue = [];
    for (let i = 0; i < 3; i++) notDue.push((await subscribe({ zone: "UTC", hour: 7 })).id);
    notDue.push((await subscribe({ zone: "UTC", hour: 5 })).id);
    notDue.push((await subscribe({ zone: "Asia/Kolkata", hour: 12 })).id);
    // Half and three-quarter hour zones: 12:00 in Kolkata is 06:30 UTC, in Kathmandu 06:15 UTC.
    expect(slotDue("Asia/Kolkata", 12, new Date(AT + 30 * 60_000))).toBe(true);
    expect(slotDue("Asia/Kolkata", 12, new Date(AT + 15 * 60_000))).toBe(false);
    expect(slotDue("Asia/Kathmandu", 12, new Date(AT + 15 * 60_000))).toBe(true);
    expect(slotDue("Asia/Kathmandu", 12, new Date(AT + 30 * 60_000))).toBe(false);

    const { report, calls } = await plan(AT, { batchSize: 3 });
    const handed = (await Promise.all(calls.map(idsOf))).flat();
    expect(handed.sort()).toEqual(due.sort());
    expect(calls).toHaveLength(4); // 11 due, in batches of 3 filled across slots
    expect(report).toMatchObject({ slots: 5, dueSlots: 2, subscriptions: 11, batches: 4 });
    // Every batch is kept, under its own key, until it is run.
    expect((await store.list(BATCHES)).sort()).toEqual(calls.map((c) => c.batch).sort());

    // The next quarter's run finds none of them due again.
    const next = await plan(AT + 15 * 60_000);
    expect(next.calls).toEqual([]);
  });

  it("keeps a batch whose hand-over failed for the next run, which hands it over", async () => {
    freshStore();
    const ids = [(await subscribe()).id, (await subscribe()).id];
    const failing = await planRun({
      store,
      at: new Date(AT),
      sweep: false,
      hand: () => Promise.reject(new Error("deliver-background answered 502")),
    });
    expect(failing).toMatchObject({ subscriptions: 2, batches: 0, failed: 1 });
    const next = await plan(AT + 15 * 60_000);
    expect(next.report).toMatchObject({ again: 1, failed: 0 });
    expect((await Promise.all(next.calls.map(idsOf))).flat().sort()).toEqual(ids.sort());
  });

  it("hands every subscription over on the daily sweep, and on the first run of a store", async () => {
    freshStore();
    const ids = [(await subscribe({ hour: 6 })).id, (await subscribe({ hour: 20 })).id];
    const first = await planRun({ store, at: new Date(AT), hand: () => Promise.resolve() });
    expect(first).toMatchObject({ sweep: true, subscriptions: 2 });
    const next = await planRun({ store, at: new Date(AT + 15 * 60_000), hand: () => Promise.resolve() });
    expect(next).toMatchObject({ sweep: false, subscriptions: 0 });
    const midnight = Date.parse("2026-03-28T00:07:00Z");
    expect(await planRun({ store, at: new Date(midnight), hand: () => Promise.resolve() })).toMatchObject({
      sweep: true,
      subscriptions: ids.length,
    });
  });

  it("keeps the schedule with the subscriptions: a sweep adds a missing key, an end removes one", async () => {
    freshStore();
    const { id } = await subscribe({ slug: "serial", count: 5 }); // its next delivery answers 410
    const other = await subscribe({ slug: "open-serial" });
    const otherSub = (await store.get<Subscription>(subscriptionKey(other.id)))!.value;
    await store.delete(slotKey(otherSub)); // stored before the schedule was kept
    const { calls } = await plan(AT, { sweep: true });
    for (const call of calls) await runBatch(options(AT), call.batch);
    expect(await store.list(SLOTS)).toEqual([slotKey(otherSub)]);
    expect((await store.get<Subscription>(subscriptionKey(id)))!.value.ended).not.toBeNull();
  });

  it("drops on a sweep the index keys whose subscription is gone, once they are an hour old", async () => {
    freshStore();
    const kept = await subscribe();
    const keptSub = (await store.get<Subscription>(subscriptionKey(kept.id)))!.value;
    // A subscribe that died between its writes two hours ago, and one still writing (its index key a minute old).
    const old = { at: new Date(AT - 2 * 3_600_000).toISOString() };
    const young = { at: new Date(AT - 60_000).toISOString() };
    const strays = [liveKey("open-serial", "gone1"), slotKey({ ...keptSub, id: "gone1" })];
    for (const key of strays) await store.put(key, old);
    const writing = [liveKey("open-serial", "new1"), slotKey({ ...keptSub, id: "new1" })];
    for (const key of writing) await store.put(key, young);
    const before = [...(await store.list(LIVE)), ...(await store.list(SLOTS))].sort();

    // A plan that is no sweep leaves every index key alone: it lists no subscription.
    expect((await plan(AT)).report.strays).toBe(0);
    expect([...(await store.list(LIVE)), ...(await store.list(SLOTS))].sort()).toEqual(before);

    const { report } = await plan(AT, { sweep: true });
    expect(report.strays).toBe(2);
    const after = [...(await store.list(LIVE)), ...(await store.list(SLOTS))].sort();
    expect(after).toEqual(before.filter((key) => !strays.includes(key)));
    expect(after).toEqual(expect.arrayContaining([...writing, liveKey("open-serial", kept.id), slotKey(keptSub)]));
  });
});

describe("running a batch", () => {
  it("prints once when the same batch runs twice, or its subscriptions again in another batch", async () => {
    freshStore();
    for (let i = 0; i < 5; i++) await subscribe();
    const { calls } = await plan(AT);
    expect(calls).toHaveLength(1);
    const ids = await idsOf(calls[0]!);
    const first = await runBatch(options(AT), calls[0]!.batch);
    expect(first.report.lines.map((l) => l.outcome)).toEqual(Array(5).fill("printed"));
    expect(first.again).toBe(0);
    expect(await store.list(BATCHES)).toEqual([]); // done: dropped
    // The same call again (Netlify invoking it again): nothing to run.
    expect((await runBatch(options(AT), calls[0]!.batch)).gone).toBe(true);
    // The same subscriptions in another batch (a kept copy, an overlapping plan): claimed already, nothing sent.
    await store.put(calls[0]!.batch, { ids, made: new Date(AT).toISOString(), handed: 2 } satisfies StoredBatch);
    const again = await runBatch(options(AT + 60_000), calls[0]!.batch);
    expect(again.report.lines).toEqual([]);
    expect(sirius.prints).toHaveLength(5);
    expect(new Set(printedKeys()).size).toBe(5);
  });

  it("prints once when two batches of the same subscriptions run at the same time", async () => {
    freshStore();
    for (let i = 0; i < 12; i++) await subscribe();
    const a = await plan(AT);
    const b = await plan(AT); // an overlapping run of the same quarter
    const outcomes = await Promise.all(
      [...a.calls, ...b.calls].map((c) => runBatch(options(AT, { concurrency: 3 }), c.batch)),
    );
    expect(outcomes.flatMap((o) => o.report.lines).filter((l) => l.outcome === "printed")).toHaveLength(12);
    expect(sirius.prints).toHaveLength(12);
    expect(new Set(printedKeys()).size).toBe(12);
  });

  it("delivers the rest when a crashed batch runs again, and what its claims held once stale", async () => {
    freshStore();
    const subs = [];
    // More than a batch's store work in flight at one POST at a time (PREPARED_PER_POST), so the crash is mid-batch.
    for (let i = 0; i < 3 * PREPARED_PER_POST; i++) subs.push(await subscribe());
    const { calls } = await plan(AT);
    const ids = await idsOf(calls[0]!);
    // The function dies at its third record write: from then on every store call fails (nothing more is written).
    let writes = 0;
    const dead = () => writes >= 3;
    const dying = {} as Record<string, unknown>;
    for (const [name, fn] of Object.entries(store) as [string, (...args: unknown[]) => Promise<unknown>][])
      dying[name] = async (...args: unknown[]) => {
        if (name === "replace" && String(args[0]).startsWith("deliveries/")) writes++;
        if (dead()) throw new Error("the function was stopped");
        return fn(...args);
      };
    await runBatch(options(AT, { store: dying as unknown as StateStore, concurrency: 1 }), calls[0]!.batch).catch(
      () => undefined,
    );
    const before = printedKeys();
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(subs.length);
    expect(await store.list(BATCHES)).toEqual([calls[0]!.batch]); // kept: the function never finished it
    const recordOf = async (id: string) => (await store.get<DeliveryRecord>(`deliveries/${id}/2026-03-27`))?.value;
    // The crash window: claimed, sent, not recorded.
    const window = new Set<string>();
    for (const [i, id] of ids.entries())
      if ((await recordOf(id))?.state === "sending" && before.includes(subs.find((s) => s.id === id)!.key))
        window.add(subs.find((s) => s.id === ids[i])!.key);

    // Netlify invokes it again a minute later: the rest print; what the dead run claimed is held, not stale yet.
    const retried = await runBatch(options(AT + 60_000), calls[0]!.batch);
    expect(retried.again).toBeGreaterThan(0);
    // The run after takes the kept rest over once its claims are stale.
    const later = await plan(AT + 16 * 60_000);
    expect(later.report.again).toBe(1);
    for (const call of later.calls) await runBatch(options(AT + 16 * 60_000), call.batch);
    expect(await store.list(BATCHES)).toEqual([]);
    for (const s of subs) {
      expect(printedKeys().filter((k) => k === s.key)).toHaveLength(window.has(s.key) ? 2 : 1);
      expect((await recordOf(s.id))?.state).toBe("printed");
    }
  });

  it("keeps an offline printer's delivery and an end slip to try again, and prints both once it is back", async () => {
    freshStore();
    const offline = await subscribe({ online: false });
    const ending = await subscribe({ slug: "serial", count: 5 });
    const fine = await subscribe();
    sirius.printers.get(ending.key)!.online = false; // the end slip cannot print yet
    const { calls } = await plan(AT);
    const first = await runBatch(options(AT), calls[0]!.batch);
    expect(first.report.notices.map((l) => [l.subscription, l.outcome])).toEqual([[ending.id, "offline"]]);
    expect(first.again).toBe(2);
    expect(printedKeys()).toEqual([fine.key]);

    sirius.printers.get(offline.key)!.online = true;
    sirius.printers.get(ending.key)!.online = true;
    const later = await plan(AT + 16 * 60_000);
    for (const call of later.calls) await runBatch(options(AT + 16 * 60_000), call.batch);
    expect(printedKeys()).toEqual([fine.key, offline.key, ending.key].sort());
    expect(sirius.prints.find((p) => p.key === ending.key)!.body).toContain("This subscription has ended");
    expect(await store.list(BATCHES)).toEqual([]);
  });

  it("is the code a self-hosted run delivers with: the same records, the same prints", async () => {
    const records = async (ids: string[]) =>
      Promise.all(
        ids.map(async (id) => {
          const r = (await store.get<DeliveryRecord>(`deliveries/${id}/2026-03-27`))!.value;
          return [r.state, r.deliveryCount, r.etag, r.printed];
        }),
      );
    const sides = [];
    for (const side of ["self-hosted", "batches"]) {
      freshStore();
      const ids = [];
      for (const slug of ["open-serial", "serial", "daily"]) ids.push((await subscribe({ slug })).id);
      ids.push((await subscribe({ slug: "serial", count: 5 })).id);
      if (side === "self-hosted") await runDeliveries(options(AT));
      else for (const call of (await plan(AT)).calls) await runBatch(options(AT), call.batch);
      sides.push({ records: await records(ids), prints: sirius.prints.map((p) => p.body.length).sort() });
      sirius.prints.length = 0;
      rmSync(fixture.folder!, { recursive: true, force: true });
    }
    freshStore();
    expect(sides[1]).toEqual(sides[0]);
  });
});

describe("the background function over HTTP, as Netlify routes it", () => {
  let server: LocalServer;
  let state: string;
  const side = netlifySide();
  beforeAll(async () => {
    state = mkdtempSync(path.join(tmpdir(), "littlepress-batches-http-"));
    const keyFile = path.join(state, "key");
    const setup = stateSetup({ folder: path.join(state, "state"), keyFile });
    if ("error" in setup) throw new Error(setup.error);
    sealKey = setup.sealKey;
    server = await startServer({
      port: 0,
      root: side.root,
      siteDir: path.resolve(builtSite("basic")),
      stateDir: path.join(state, "state"),
      keyFile,
      printKeyOrigins: sirius.policy.allowed,
    });
  });
  afterAll(async () => {
    await server.close();
    side.remove();
    rmSync(state, { recursive: true, force: true });
    sealKey = randomBytes(32);
  });

  const post = (body: string, signature?: string) =>
    fetch(batchFunctionUrl(server.url), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(signature && { [SIGNATURE_HEADER]: signature }) },
      body,
      signal: AbortSignal.timeout(5_000),
    });

  it("runs a signed batch, and refuses an unsigned, forged or replayed one", async () => {
    fixture.folder = mkdtempSync(path.join(tmpdir(), "littlepress-batches-unused-"));
    store = fileStore(path.join(state, "state"));
    const now = Date.now();
    for (let i = 0; i < 3; i++) await subscribe({ hour: new Date(now).getUTCHours() });
    const { calls } = await plan(now, { sweep: true });
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    const signed = signBatchCall(call, sealKey);
    const replayed = () => {
      const old = signBatchCall({ ...call, at: new Date(now - 3_600_000).toISOString() }, sealKey);
      return post(old.body, old.signature);
    };

    const refused = [
      await post(signed.body), // unsigned
      await post(signed.body, "00".repeat(32)), // a made-up signature
      await post(signed.body, signBatchCall(call, randomBytes(32)).signature), // signed with another key
      await post(JSON.stringify({ ...call, at: new Date(now + 1).toISOString() }), signed.signature), // altered
      await replayed(), // signed, an hour old
    ];
    // Netlify answers a background function's caller 202 whatever it then does; so does the local server.
    expect(refused.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    expect((await fetch(batchFunctionUrl(server.url), { signal: AbortSignal.timeout(5_000) })).status).toBe(405);
    await new Promise((r) => setTimeout(r, 300));
    expect(sirius.prints).toEqual([]);
    expect(await store.list(BATCHES)).toEqual([call.batch]);

    expect((await post(signed.body, signed.signature)).status).toBe(202);
    for (let i = 0; i < 100 && (await store.list(BATCHES)).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(sirius.prints).toHaveLength(3);
    expect(await store.list(BATCHES)).toEqual([]);
  });
});
