// The cap's seats (lib/platform/stores/seats.ts) on the file store: taken once each
// however many ask at once, given back by their holder only, and the ones left
// behind given back by a delivery run once they are old.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Subscription } from "../../lib/model/subscription.ts";
import { planRun } from "../../lib/platform/delivering/plan.ts";
import { runDeliveries } from "../../lib/platform/delivering/run.ts";
import { dropStraySeats, releaseSeat, returnSeat, takeSeat } from "../../lib/platform/stores/seats.ts";
import { fileStore, type StateStore } from "../../lib/platform/stores/state-store.ts";
import { INDEX_GRACE_MS } from "../../lib/platform/stores/subscriptions.ts";

let folder: string;
let store: StateStore;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), "littlepress-seats-"));
  store = fileStore(folder);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const at = new Date("2026-12-01T09:00:00Z");
const later = new Date(at.getTime() + INDEX_GRACE_MS + 60_000);

describe("seats", () => {
  it("are taken once each, however many subscribes ask at the same moment", async () => {
    const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => takeSeat(store, "daily", `s${i}`, 3, at)));
    expect(
      taken
        .filter(Boolean)
        .map((t) => t!.seat)
        .sort(),
    ).toEqual([0, 1, 2]);
    expect(await store.list("seats/daily/")).toHaveLength(3);
    expect(await takeSeat(store, "daily", "late", 3, at)).toBeUndefined();
    // another publication has seats of its own; the root's are under _root
    expect(await takeSeat(store, "serial", "x", 3, at)).toMatchObject({ seat: 0 });
    expect(await takeSeat(store, "", "y", 1, at)).toMatchObject({ key: "seats/_root/0" });
  });

  it("are given back by the subscribe that took one, and by their holder only", async () => {
    const first = (await takeSeat(store, "daily", "a", 2, at))!;
    await takeSeat(store, "daily", "b", 2, at);
    await returnSeat(store, first, at);
    expect(await store.list("seats/daily/")).toEqual(["seats/daily/1"]);
    // seat 0 again, now held by c: a's late release, or another's, leaves it alone
    expect(await takeSeat(store, "daily", "c", 2, at)).toMatchObject({ seat: 0 });
    await releaseSeat(store, { slug: "daily", id: "a", seat: 0 }, at);
    await returnSeat(store, first, at);
    expect(await store.list("seats/daily/")).toHaveLength(2);
    await releaseSeat(store, { slug: "daily", id: "c", seat: 0 }, at);
    expect(await store.list("seats/daily/")).toEqual(["seats/daily/1"]);
    // one made before seats holds none
    await releaseSeat(store, { slug: "daily", id: "b" }, at);
    expect(await store.list("seats/daily/")).toEqual(["seats/daily/1"]);
  });

  it("left behind are given back once older than the grace, unless their holder is vouched for", async () => {
    await takeSeat(store, "daily", "gone", 3, at);
    await takeSeat(store, "daily", "kept", 3, at);
    const keys = await store.list("seats/daily/");
    await dropStraySeats(store, at, keys, { deletes: 10 });
    expect(await store.list("seats/daily/")).toHaveLength(2); // young
    await dropStraySeats(store, later, keys, { deletes: 10 }, (id) => id === "kept");
    expect(await store.list("seats/daily/")).toEqual(["seats/daily/1"]);
  });

  it("of ended or vanished subscriptions are given back by a self-hosted run", async () => {
    const sub = (id: string, seat: number, ended: boolean): Subscription => ({
      id,
      slug: "daily",
      printKey: "sealed",
      printer: "Kitchen",
      zone: "Europe/London",
      hour: 8,
      settings: [],
      created: at.toISOString(),
      deliveryCount: 0,
      lastEtag: null,
      ended: ended ? { at: at.toISOString(), reason: "410" } : null,
      unsubscribeHash: "00",
      seat,
    });
    for (const [id, ended] of [
      ["live", false],
      ["ended", true],
      ["vanished", false],
    ] as const) {
      const seat = (await takeSeat(store, "daily", id, 5, at))!.seat;
      if (id !== "vanished") await store.create(`subscriptions/${id}`, sub(id, seat, ended));
    }
    // a run at a time no one is due: it delivers nothing, and keeps the store
    const run = { store, origin: "http://127.0.0.1:9", sealKey: randomBytes(32), at: later, budgetMs: 25_000 };
    await runDeliveries({ ...run, printKeys: { allowed: [] } });
    expect(await store.list("seats/daily/")).toEqual(["seats/daily/0"]);
  });

  it("whose subscription is gone are given back by the scheduled run's daily sweep", async () => {
    await takeSeat(store, "daily", "gone", 3, at);
    const held = (await takeSeat(store, "daily", "held", 3, at))!;
    await store.create("subscriptions/held", { id: "held", slug: "daily", seat: held.seat });
    await planRun({ store, at, hand: async () => {}, sweep: true });
    expect(await store.list("seats/daily/")).toHaveLength(2); // young
    await planRun({ store, at: later, hand: async () => {}, sweep: true });
    expect(await store.list("seats/daily/")).toEqual(["seats/daily/1"]);
  });
});
