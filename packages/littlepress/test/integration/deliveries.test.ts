// Delivery runs end to end, with the clock in the tests' hands: the kit's
// server serves the fixture publications, a fake sirius takes the prints, and
// the state lives in a file store in a temporary folder.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import { createServer as netServer, type AddressInfo, type Server as NetServer, type Socket } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/model/dates.ts";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { sealPrintKey } from "../../lib/model/print-key.ts";
import type { DeliveryRecord } from "../../lib/model/delivery-record.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { runDeliveries, type DeliveryRunOptions } from "../../lib/platform/delivering/run.ts";
import { subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { allowTry } from "../../lib/platform/subscribing/rate-limit.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { SUBSCRIBE_LIMIT } from "../../lib/platform/subscribing/subscribe.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { reportText } from "../../scripts/deliver.ts";
import { deliveryFixture, subscribeOn } from "../helpers/delivery-fixture.ts";
import { withServer } from "../helpers/server.ts";

const site = withServer("basic");
const sealKey = randomBytes(32);
const fixture = deliveryFixture("deliveries");
const { sirius } = fixture;
let store: StateStore;
const freshStore = () => (store = fixture.freshStore());

/** A printer on the fake sirius, and a subscription to `slug` that prints on it. */
const subscribe = (slug: string, zone: string, hour: number, created: string, online = true) =>
  subscribeOn({ sirius, store, sealKey }, { slug, zone, hour, at: new Date(created), online });

const run = (at: number | Date, over: Partial<DeliveryRunOptions> = {}) =>
  runDeliveries({ store, origin: site.url, sealKey, printKeys: sirius.policy, at: new Date(at), ...over });
/** The instant `minutes` past the delivery hour on the printer's `date`. */
const past = (date: string, hour: number, zone: string, minutes = 5) =>
  localDeliveryTime(date, hour, zone).ms + minutes * 60_000;
const sub = async (id: string) => (await store.get<Subscription>(subscriptionKey(id)))!.value;
const record = async (id: string, date: string) => (await store.get<DeliveryRecord>(`deliveries/${id}/${date}`))?.value;

describe("a serial by delivery_count", () => {
  it("prints each day's part, counts the days that print nothing, and ends on 410", async () => {
    freshStore();
    const zone = "Europe/Paris";
    const { key, id } = await subscribe("serial", zone, 6, "2026-03-26T12:00:00Z");
    const outcomes: string[] = [];
    for (let day = 0; day < 8; day++) {
      const date = addDays("2026-03-27", day); // across the clocks going forward on 29 March
      const report = await run(past(date, 6, zone));
      outcomes.push(report.lines.map((l) => `${l.deliveryCount}:${l.outcome}`).join(","));
    }
    // parts 0, 1, 2 and 4 exist; 3 is a gap (204); after 4 the series is over (410); then nothing is due
    expect(outcomes).toEqual(["0:printed", "1:printed", "2:printed", "3:not-printed", "4:printed", "5:ended", "", ""]);
    // the four parts, then the end slip (test/integration/end-notice.test.ts)
    expect(sirius.prints.map((p) => p.key)).toEqual([key, key, key, key, key]);
    expect(sirius.prints[4]!.body).toContain("This subscription has ended");
    expect(sirius.prints[0]!.from).toBe("Serial");
    expect(sirius.prints[0]!.contentType).toBe("text/html; charset=utf-8");
    expect(sirius.prints[0]!.body).toContain("The first part.");
    expect(sirius.prints[3]!.body).toContain("After a gap.");
    const ended = await sub(id);
    expect(ended.ended?.reason).toMatch(/410/);
    expect(ended.deliveryCount).toBe(6);
  });

  it("keeps the print key sealed: its secret is nowhere in the store", async () => {
    freshStore();
    const { key } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    await run(past("2026-03-27", 6, "UTC"));
    expect(sirius.prints).toHaveLength(1);
    const files = readdirSync(fixture.folder!, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) expect(readFileSync(path.join(f.parentPath, f.name), "utf8")).not.toContain(key);
  });
});

describe("the printer's own date", () => {
  it("delivers the local date's edition at the offsets -12:00 and +14:00 from the same instant", async () => {
    freshStore();
    // 2026-01-10 at 06:30 in Kiritimati (+14:00) is 2026-01-09 at 04:30 in Etc/GMT+12 (-12:00).
    const east = await subscribe("daily", "Pacific/Kiritimati", 6, "2026-01-01T00:00:00Z");
    const west = await subscribe("daily", "Etc/GMT+12", 6, "2026-01-01T00:00:00Z");
    const at = Date.parse("2026-01-09T16:30:00Z");
    await run(at);
    expect((await record(east.id, "2026-01-10"))?.localDeliveryTime).toBe("2026-01-10T06:00:00+14:00");
    expect((await record(east.id, "2026-01-10"))?.state).toBe("printed");
    // west is still on 9 January before 06:00: its due delivery is the 8th's, before the first edition (204)
    expect((await record(west.id, "2026-01-08"))?.localDeliveryTime).toBe("2026-01-08T06:00:00-12:00");
    expect((await record(west.id, "2026-01-08"))?.state).toBe("not-printed");
    expect(sirius.prints.map((p) => p.key)).toEqual([east.key]);
    // 26 hours later west reaches the 10th at 06:00 its time, while east is on the 11th
    await run(past("2026-01-10", 6, "Etc/GMT+12"));
    expect((await record(west.id, "2026-01-10"))?.state).toBe("printed");
    expect((await record(east.id, "2026-01-11"))?.state).toBe("printed");
    expect(sirius.prints.map((p) => p.key).sort()).toEqual([east.key, east.key, west.key].sort());
  });
});

describe("an offline printer, an unknown key", () => {
  it("retries an offline printer within the day, with the same delivery_count, until it prints", async () => {
    freshStore();
    const { key, id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z", false);
    const first = await run(past("2026-03-27", 6, "UTC", 1));
    expect(first.lines.map((l) => l.outcome)).toEqual(["offline"]);
    expect(sirius.prints).toHaveLength(0);
    sirius.printers.get(key)!.online = true;
    const again = await run(past("2026-03-27", 6, "UTC", 16));
    expect(again.lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual(["0:printed"]);
    expect((await record(id, "2026-03-27"))?.attempts).toBe(2);
    expect((await sub(id)).deliveryCount).toBe(1);
    // done for the day: a later run leaves it
    expect((await run(past("2026-03-27", 6, "UTC", 31))).lines).toEqual([]);
    expect(sirius.prints).toHaveLength(1);
  });

  it("counts a day the printer stayed offline, and goes on the next day", async () => {
    freshStore();
    const { key, id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z", false);
    await run(past("2026-03-27", 6, "UTC"));
    sirius.printers.get(key)!.online = true;
    const next = await run(past("2026-03-28", 6, "UTC"));
    expect(next.lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual(["1:printed"]);
    expect((await sub(id)).deliveryCount).toBe(2);
  });

  it("ends a subscription whose print key is unknown (404)", async () => {
    freshStore();
    const { key, id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    sirius.printers.delete(key);
    const report = await run(past("2026-03-27", 6, "UTC"));
    expect(report.lines.map((l) => l.outcome)).toEqual(["unknown-key"]);
    expect((await sub(id)).ended?.reason).toMatch(/print key is unknown/);
    expect((await run(past("2026-03-28", 6, "UTC"))).lines).toEqual([]);
  });

  it("records a print key host that does not answer, and retries it", async () => {
    freshStore();
    const { id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const dead = await import("node:net").then((net) => {
      const s = net.createServer();
      return new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as AddressInfo).port))).then(
        (port) => new Promise<number>((r) => s.close(() => r(port))),
      );
    });
    const stored = (await store.get<Subscription>(subscriptionKey(id)))!;
    const { sealPrintKey } = await import("../../lib/model/print-key.ts");
    await store.put(subscriptionKey(id), {
      ...stored.value,
      printKey: sealPrintKey(new URL(`http://127.0.0.1:${dead}/printkey/abc`), sealKey),
    });
    const printKeys = { allowed: [{ origin: `http://127.0.0.1:${dead}`, private: true }] };
    const report = await run(past("2026-03-27", 6, "UTC"), { printKeys });
    expect(report.lines.map((l) => [l.outcome, l.detail])).toEqual([
      ["failed", "the print key could not be reached (ECONNREFUSED)"],
    ]);
    expect((await record(id, "2026-03-27"))?.state).toBe("failed");
  });
});

describe("overlapping runs and a crash", () => {
  it("never sends twice when two runs overlap", async () => {
    freshStore();
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z"));
    const at = past("2026-03-27", 6, "UTC");
    const [a, b] = await Promise.all([run(at), run(at + 1000)]);
    expect(a.lines.length + b.lines.length).toBe(12);
    expect(sirius.prints).toHaveLength(12);
    expect(new Set(sirius.prints.map((p) => p.key)).size).toBe(12);
    for (const { id } of ids) expect((await sub(id)).deliveryCount).toBe(1);
  });

  it("resumes a run killed midway, once its claims are stale, and sends once", async () => {
    freshStore();
    const ids: Awaited<ReturnType<typeof subscribe>>[] = [];
    for (let i = 0; i < 3; i++) ids.push(await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z"));
    // A publication that never answers: the run in the child claims, asks, and waits there until it is killed.
    const asked: ServerResponse[] = [];
    const stuck = createServer((req, res) => {
      if (req.url === "/serial/meta.json") {
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(JSON.stringify({ name: "Serial", send_timezone_info: false, send_delivery_count: true }));
      }
      asked.push(res);
    });
    await new Promise<void>((r) => stuck.listen(0, "127.0.0.1", r));
    const stuckUrl = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}`;
    const at = past("2026-03-27", 6, "UTC");
    const child = spawn(process.execPath, [
      "--import",
      "tsx",
      "test/helpers/deliver-child.ts",
      fixture.folder!,
      stuckUrl,
      sealKey.toString("base64"),
      new Date(at).toISOString(),
      sirius.url,
    ]);
    try {
      // All three claimed; the three ask the same query (same day, count, settings), so it is asked once.
      const claimed = async () =>
        (await Promise.all(ids.map(({ id }) => record(id, "2026-03-27")))).every((r) => r?.state === "sending");
      const deadline = Date.now() + 20_000;
      while (!(asked.length >= 1 && (await claimed())) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(asked).toHaveLength(1);
    } finally {
      child.kill("SIGKILL");
      for (const res of asked) res.destroy();
      stuck.closeAllConnections();
      await new Promise<void>((r) => stuck.close(() => r()));
    }
    expect(sirius.prints).toHaveLength(0);
    for (const { id } of ids) expect((await record(id, "2026-03-27"))?.state).toBe("sending");
    // A minute later the claims still hold: another run leaves them.
    expect((await run(at + 60_000)).lines).toEqual([]);
    // Fifteen minutes later they are stale: the next run resumes them, each once, with its delivery_count.
    const resumed = await run(at + 15 * 60_000);
    expect(resumed.lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual([
      "0:printed",
      "0:printed",
      "0:printed",
    ]);
    expect(sirius.prints).toHaveLength(3);
    for (const { id } of ids) {
      expect((await record(id, "2026-03-27"))?.attempts).toBe(2);
      expect((await sub(id)).deliveryCount).toBe(1);
    }
  });

  it("loses no print when a run is killed mid-batch, and prints again only the one in flight", async () => {
    freshStore();
    const subs: Awaited<ReturnType<typeof subscribe>>[] = [];
    for (let i = 0; i < 5; i++) subs.push(await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z"));
    const date = "2026-03-27";
    const at = past(date, 6, "UTC");
    // One POST at a time: two are answered and settled, the third prints and its answer never comes, the last two
    // are claimed (a batch claims ahead of its POSTs) and wait for a place. Then the run is killed.
    sirius.answeredPrints = 2;
    const child = spawn(process.execPath, [
      ...["--import", "tsx", "test/helpers/deliver-child.ts", fixture.folder!, site.url, sealKey.toString("base64")],
      ...[new Date(at).toISOString(), sirius.url, "1"],
    ]);
    const states = async () => Promise.all(subs.map(async ({ id }) => (await record(id, date))?.state));
    try {
      const deadline = Date.now() + 20_000;
      const settledTwo = async () => (await states()).filter((s) => s === "printed").length === 2;
      while (!(sirius.prints.length === 3 && (await settledTwo())) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      child.kill("SIGKILL");
      await once(child, "exit");
      sirius.answeredPrints = undefined;
    }
    expect(sirius.prints).toHaveLength(3);
    expect((await states()).sort()).toEqual(["printed", "printed", "sending", "sending", "sending"]);
    const inFlight = sirius.prints[2]!.key;
    // Once the claims are stale, the next run finishes the batch: the two settled are left alone.
    const resumed = await run(at + 15 * 60_000);
    expect(resumed.lines.map((l) => l.outcome)).toEqual(["printed", "printed", "printed"]);
    const printsOf = (key: string) => sirius.prints.filter((p) => p.key === key).length;
    // Every subscriber has the day's part; only the one whose answer was lost has it twice.
    expect(subs.map(({ key }) => printsOf(key)).sort()).toEqual([1, 1, 1, 1, 2]);
    expect(printsOf(inFlight)).toBe(2);
    for (const { id } of subs) {
      expect((await record(id, date))?.state).toBe("printed");
      expect((await sub(id)).deliveryCount).toBe(1);
    }
  });

  it("counts a print whose run died after its record, before its subscription: next day, the next part", async () => {
    freshStore();
    const { key, id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    // The run dies at its write of the subscription: the day's record says printed, the subscription nothing.
    const dying: StateStore = {
      ...store,
      replace: async (k, value, version) => {
        if (k === subscriptionKey(id)) throw new Error("the run died here");
        return store.replace(k, value, version);
      },
    };
    const cut = await run(past("2026-03-27", 6, "UTC"), { store: dying });
    expect(cut.lines.map((l) => l.outcome)).toEqual(["error"]);
    expect((await record(id, "2026-03-27"))?.state).toBe("printed");
    expect((await sub(id)).deliveryCount).toBe(0);

    // The next run, the same day, writes what the record says (and prints nothing again).
    const next = await run(past("2026-03-27", 6, "UTC", 20));
    expect(next.lines).toEqual([]);
    const after = await sub(id);
    expect(after.deliveryCount).toBe(1);
    expect(after.lastEtag).toBe((await record(id, "2026-03-27"))!.etag);
    // The next day prints the second part, not the first again.
    const tomorrow = await run(past("2026-03-28", 6, "UTC"));
    expect(tomorrow.lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual(["1:printed"]);
    expect(sirius.prints.map((p) => p.key)).toEqual([key, key]);
    expect(sirius.prints[0]!.body).toContain("The first part.");
    expect(sirius.prints[1]!.body).not.toContain("The first part.");
  });

  it("lets a run whose claim was taken over leave the record to the run that took it", async () => {
    freshStore();
    const { id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const at = past("2026-03-27", 6, "UTC");
    // The store sees another run take the claim over while this one is at work.
    let taken = false;
    const takeover: StateStore = {
      ...store,
      replace: async (key, value, version) => {
        if (key.startsWith("deliveries/") && !taken) {
          taken = true;
          const held = (await store.get<DeliveryRecord>(key))!;
          await store.replace(key, { ...held.value, attempts: 9, detail: "taken over" }, held.version);
        }
        return store.replace(key, value, version);
      },
    };
    const report = await run(at, { store: takeover });
    expect(report.lines.map((l) => l.outcome)).toEqual(["taken over"]);
    expect((await record(id, "2026-03-27"))?.detail).toBe("taken over");
    expect((await sub(id)).lastEtag).toBeNull();
  });

  it("does not print a delivery whose claim was taken over while its edition was asked", async () => {
    freshStore();
    const { id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const at = past("2026-03-27", 6, "UTC");
    // The first read of the delivery's record after the claim is where the run checks it still holds it. A claim
    // younger than claimRecheckMs cannot have been taken over (claims go stale after minutes) and is not read
    // back: 0 makes every claim as old as one whose edition/ was slow, which is read back.
    let taken = false;
    const takeover: StateStore = {
      ...store,
      get: async <T>(key: string) => {
        if (key.startsWith("deliveries/") && !taken) {
          taken = true;
          const held = (await store.get<DeliveryRecord>(key))!;
          await store.replace(key, { ...held.value, attempts: 9, detail: "taken over" }, held.version);
        }
        return store.get<T>(key);
      },
    };
    const report = await run(at, { store: takeover, claimRecheckMs: 0 });
    expect(report.lines.map((l) => l.outcome)).toEqual(["taken over"]);
    expect(sirius.prints).toHaveLength(0);
    expect((await record(id, "2026-03-27"))?.detail).toBe("taken over");
  });

  it("delivers with four store calls before its POST and after, and lists its old records to prune", async () => {
    freshStore();
    const { id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const calls: string[] = [];
    const counted = countingStore(store, calls);
    // A run that listed the indexes (a self-hosted run) and finds this one indexed: no upkeep writes.
    const report = await run(past("2026-03-27", 6, "UTC"), { store: counted });
    expect(report.lines.map((l) => l.outcome)).toEqual(["printed"]);
    expect(calls.filter((c) => c.includes(id))).toEqual([
      `get subscriptions/${id}`,
      `createVersioned deliveries/${id}/2026-03-27`,
      // the day's first delivery prunes its subscription's records older than the days kept, beside its POST
      `list deliveries/${id}/`,
      `replace deliveries/${id}/2026-03-27`,
      `replace subscriptions/${id}`,
    ]);
  });
});

/** `store`, noting each call as "<method> <key>" in `calls`. */
function countingStore(store: StateStore, calls: string[]): StateStore {
  const noted = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(store) as [string, (...args: unknown[]) => unknown][])
    noted[name] = (...args: unknown[]) => {
      calls.push(`${name} ${String(args[0])}`);
      return fn(...args);
    };
  return noted as unknown as StateStore;
}

describe("the dry run", () => {
  it("says what would print and to whom, and changes nothing", async () => {
    freshStore();
    const { id } = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const before = await sub(id);
    const report = await run(past("2026-03-27", 6, "UTC"), { dryRun: true });
    expect(report.lines.map((l) => [l.subscription, l.outcome, l.detail])).toEqual([
      [id, "would print", `would print on ${before.printer}`],
    ]);
    expect(sirius.prints).toHaveLength(0);
    expect(await record(id, "2026-03-27")).toBeUndefined();
    expect(await sub(id)).toEqual(before);
  });
});

describe("what the platform sends, and the same ETag", () => {
  // A publication of its own, to see the requests: meta.json asks for neither
  // local_delivery_time nor delivery_count, and every edition has one ETag.
  let pub: Server;
  let origin = "";
  const asked: string[] = [];
  beforeAll(async () => {
    pub = createServer((req, res) => {
      asked.push(req.url ?? "");
      if (req.url === "/still/meta.json") {
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(JSON.stringify({ name: "Still", send_timezone_info: false, send_delivery_count: false }));
      }
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: '"always"' });
      res.end("<p>Unchanged</p>");
    });
    await new Promise<void>((r) => pub.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(pub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => pub.close(() => r())));

  it("sends only the settings when meta.json asks for nothing else, and prints an unchanged ETag once", async () => {
    freshStore();
    const { id } = await subscribe("still", "UTC", 6, "2026-03-26T00:00:00Z");
    const stored = (await store.get<Subscription>(subscriptionKey(id)))!;
    await store.put(subscriptionKey(id), {
      ...stored.value,
      settings: [
        ["lang", "fr"],
        ["name", "Zoë & co"],
      ],
    });
    const days = ["2026-03-27", "2026-03-28", "2026-03-29"];
    const outcomes = [];
    for (const d of days) outcomes.push((await run(past(d, 6, "UTC"), { origin })).lines[0]!.outcome);
    expect(outcomes).toEqual(["printed", "not-printed", "not-printed"]);
    expect(asked.filter((u) => u.startsWith("/still/edition/"))).toEqual(
      days.map(() => "/still/edition/?lang=fr&name=Zo%C3%AB+%26+co"),
    );
    expect((await sub(id)).deliveryCount).toBe(3);
  });
});

/** A publication that has something to print every day (one ETag, so it prints until it printed once). */
async function everyDayPublication(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === "/every/meta.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ name: "Every", send_timezone_info: true, send_delivery_count: true }));
    }
    const count = new URL(req.url ?? "/", "http://h").searchParams.get("delivery_count");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: `"${count}"` });
    res.end(`<p>Part ${count}</p>`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A port on 127.0.0.1 that refuses connections (it was free a moment ago). */
async function refusingPort(): Promise<number> {
  const s = netServer();
  const port = await new Promise<number>((r) => s.listen(0, "127.0.0.1", () => r((s.address() as AddressInfo).port)));
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Points a subscription at another print key. */
async function moveKey(id: string, url: string) {
  const stored = (await store.get<Subscription>(subscriptionKey(id)))!;
  await store.put(subscriptionKey(id), { ...stored.value, printKey: sealPrintKey(new URL(url), sealKey) });
}

describe("a print key that keeps failing", () => {
  let pub: Awaited<ReturnType<typeof everyDayPublication>>;
  beforeAll(async () => {
    pub = await everyDayPublication();
  });
  afterAll(() => pub.close());

  it("backs off within the day, pauses after 7 failing days, tries every 7th day, and recovers", async () => {
    freshStore();
    const { key, id } = await subscribe("every", "UTC", 6, "2026-03-26T00:00:00Z");
    const refusing = `http://127.0.0.1:${await refusingPort()}`;
    await moveKey(id, `${refusing}/printkey/gone`);
    const printKeys = { allowed: [...sirius.allowed, { origin: refusing, private: true }] };
    const on = (date: string, minutes = 5) => run(past(date, 6, "UTC", minutes), { origin: pub.origin, printKeys });
    const day = (i: number) => addDays("2026-03-27", i);
    const outcomes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const report = await on(day(i));
      outcomes.push(report.lines.map((l) => l.outcome).join(","));
      // within the day, the next run (10 minutes on) leaves the failed delivery alone: it backs off 15 minutes
      if (i === 0) expect((await on(day(i), 15)).lines).toEqual([]);
    }
    expect(outcomes).toEqual(["failed", "failed", "failed", "failed", "failed", "failed", "paused"]);
    expect((await sub(id)).failing).toEqual({ days: 7, last: day(6), paused: day(6) });
    expect((await record(id, day(6)))?.detail).toMatch(/ECONNREFUSED/);

    // the day it paused is a try day: its retry still goes, and says so
    const retry = await on(day(6), 21);
    expect(retry.lines.map((l) => [l.outcome, l.detail])).toEqual([
      ["failed", expect.stringMatching(/still paused, next try on 2026-04-09$/)],
    ]);

    // the six days after: not tried, nothing recorded, nothing counted; the report lists it as paused
    for (let i = 7; i < 13; i++) {
      const report = await on(day(i));
      expect(report.lines).toEqual([]);
      expect(report.due).toBe(0);
      expect(report.paused.map((l) => [l.subscription, l.outcome])).toEqual([[id, "paused"]]);
      expect(report.paused[0]!.detail).toMatch(/^paused since 2026-04-02: the print key failed on 7 delivery days/);
      expect(await record(id, day(i))).toBeUndefined();
    }
    expect((await sub(id)).deliveryCount).toBe(7);

    // the 7th day after the pause it is tried again, and fails again
    expect((await on(day(13))).lines.map((l) => l.outcome)).toEqual(["failed"]);
    expect((await sub(id)).failing).toEqual({ days: 8, last: day(13), paused: day(6) });

    // the printer comes back: it is found on the next try day, which prints and ends the pause
    sirius.printers.set(key, { name: "Back", owner: "Ada", online: true });
    await moveKey(id, sirius.keyUrl(key));
    expect((await on(day(14))).paused).toHaveLength(1);
    const back = await on(day(20));
    expect(back.lines.map((l) => [l.outcome, l.detail])).toEqual([
      ["printed", "sent to the printer; no longer paused"],
    ]);
    expect((await sub(id)).failing).toBeNull();
    // skipped days counted no delivery: 7 failing days, the try on the 13th, the print on the 20th
    expect((await on(day(21))).lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual(["9:printed"]);
    expect(sirius.prints.map((p) => p.body)).toEqual(["<p>Part 8</p>", "<p>Part 9</p>"]);
  });
});

describe("a run's time budget", () => {
  // A print key host that takes connections and never answers.
  let silent: NetServer;
  const held = new Set<Socket>();
  let silentUrl = "";
  let pub: Awaited<ReturnType<typeof everyDayPublication>>;
  beforeAll(async () => {
    pub = await everyDayPublication();
    silent = netServer((socket) => {
      held.add(socket);
      socket.on("close", () => held.delete(socket));
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
    await pub.close();
  });

  it("starts no delivery it could not finish in time, says what it left, and the next run goes on", async () => {
    freshStore();
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) {
      const { subscription } = await createSubscription(store, sealKey, {
        slug: "every",
        printKey: new URL(`${silentUrl}/printkey/k${i}`),
        printer: `Silent ${i}`,
        zone: "UTC",
        hour: 6,
        settings: [],
        at: new Date("2026-03-26T00:00:00Z"),
      });
      ids.push(subscription.id);
    }
    const printKeys = { allowed: [{ origin: silentUrl, private: true }] };
    // A send must be whole within its timeout to be unknown (an error otherwise): 300 ms was too short for
    // a loaded CI machine, which failed some before they were sent whole.
    const budget = { budgetMs: 5_000, timeoutMs: 1_000, concurrency: 10, origin: pub.origin, printKeys };
    const at = past("2026-03-27", 6, "UTC");
    const started = performance.now();
    const first = await run(at, budget);
    const took = performance.now() - started;
    expect(took).toBeLessThan(budget.budgetMs + 2_000); // within its budget, give or take a loaded machine
    // On a loaded machine the run's time may be up before it has read them all: those it did not read are
    // unchecked, and the next run reads them. Every one of the 150 is due, tried, left, or unread.
    expect(first.due + first.unchecked).toBe(150);
    // Some were left for the next run: due and not started, or (a loaded machine's run) not read at all.
    expect(first.left + first.unchecked).toBeGreaterThan(0);
    expect(first.lines.length).toBeGreaterThan(0);
    // The silent print key read each page and never answered: sent with no answer, so unknown, never sent again.
    expect(new Set(first.lines.map((l) => l.outcome))).toEqual(new Set(["unknown"]));
    expect(first.lines[0]!.detail).toBe(
      "sent, then the print key timed out before it answered in full: it may have printed, so it is not sent again",
    );
    expect(first.unknown).toBe(first.lines.length);
    expect(first.left).toBe(first.due - first.lines.length);

    // A minute later the next run takes others: the ones that timed out are not sent again.
    const second = await run(at + 60_000, budget);
    const firstIds = new Set(first.lines.map((l) => l.subscription));
    expect(second.lines.length).toBeGreaterThan(0);
    expect(second.lines.filter((l) => firstIds.has(l.subscription))).toEqual([]);
    expect(second.left + second.unchecked).toBe(first.left + first.unchecked - second.lines.length);
    expect(reportText(second, false)).toContain(
      `, ${second.left} of them left for the next run (this run's time was up)`,
    );
  });

  it("refuses a budget that could not hold one delivery", async () => {
    freshStore();
    await expect(run(Date.now(), { budgetMs: 900, timeoutMs: 300 })).rejects.toThrow(/more than 4 times/);
  });
});

describe("what piles up", () => {
  it("prunes delivery records older than the days kept, and subscriptions that ended longer ago", async () => {
    freshStore();
    const live = await subscribe("open-serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const ended = await subscribe("open-serial", "UTC", 6, "2026-03-26T00:00:00Z");
    for (const date of ["2026-03-27", "2026-03-28"]) await run(past(date, 6, "UTC"));
    const endedSub = await sub(ended.id);
    await store.put(subscriptionKey(ended.id), { ...endedSub, ended: { at: "2026-03-28T07:00:00Z", reason: "410" } });
    const keys = async (prefix: string) => (await store.list(prefix)).sort();
    expect(await keys(`deliveries/${live.id}/`)).toHaveLength(2);

    // Within the days kept, nothing goes (the ended one leaves the live index only).
    await run(past("2026-06-10", 6, "UTC"));
    expect(await keys(`deliveries/${live.id}/`)).toHaveLength(3);
    expect(await keys(`deliveries/${ended.id}/`)).toHaveLength(2);
    expect(await keys("live/")).toEqual([`live/open-serial/${live.id}`]);

    // Far on, the old records go, the day's stays; the long-ended subscription goes with its records.
    const report = await run(past("2026-09-01", 6, "UTC"));
    expect(await keys(`deliveries/${live.id}/`)).toEqual([
      `deliveries/${live.id}/2026-06-10`,
      `deliveries/${live.id}/2026-09-01`,
    ]);
    expect(await keys(`deliveries/${ended.id}/`)).toEqual([]);
    expect(await store.get(subscriptionKey(ended.id))).toBeUndefined();
    expect(report.pruned).toBe(2 + 3); // the live one's two old records; the ended one's two, and itself
    expect(report.subscriptions).toBe(2);
    expect(report.lines.map((l) => l.subscription)).toEqual([live.id]);
    expect(readdirSync(path.join(fixture.folder!, "deliveries")).sort()).toEqual([live.id]);
  });

  it("deletes no more than its share a run, and goes on with the next", async () => {
    freshStore();
    const { id } = await subscribe("open-serial", "UTC", 6, "2026-03-26T00:00:00Z");
    for (let i = 0; i < 5; i++) await store.put(`deliveries/${id}/2025-01-0${i + 1}`, {});
    expect((await run(past("2026-03-27", 6, "UTC"), { prunesPerRun: 3 })).pruned).toBe(3);
    expect(await store.list(`deliveries/${id}/`)).toHaveLength(3);
    expect((await run(past("2026-03-28", 6, "UTC"), { prunesPerRun: 3 })).pruned).toBe(2);
    expect((await store.list(`deliveries/${id}/`)).sort()).toEqual([
      `deliveries/${id}/2026-03-27`,
      `deliveries/${id}/2026-03-28`,
    ]);
  });

  it("prunes the rate-limit counters of hours that are over, and keeps the current hour's", async () => {
    freshStore();
    const at = new Date(past("2026-03-27", 6, "UTC"));
    const hour = (h: number) => new Date(at.getTime() + h * 3_600_000);
    for (const client of ["198.51.100.1", "198.51.100.2", "198.51.100.3"])
      for (const h of [-30, -2, -1, 0]) await allowTry(store, SUBSCRIBE_LIMIT, client, sealKey, hour(h));
    expect(await store.list("limits/")).toHaveLength(12);
    const first = await run(at.getTime(), { prunesPerRun: 5 });
    expect(first.pruned).toBe(5);
    await run(at.getTime() + 60_000, { prunesPerRun: 5 });
    const left = await store.list("limits/");
    expect(left).toHaveLength(3);
    for (const key of left) expect(key).toMatch(/^limits\/subscribe\/2026-03-27T06\//);
    expect(await store.folders("limits/subscribe/")).toEqual(["2026-03-27T06"]);
    // the counters that stay still count
    expect(await allowTry(store, { action: "subscribe", perHour: 1 }, "198.51.100.1", sealKey, at)).toBe(false);
  });

  it("keeps the live index: adds a subscription stored before it, drops an ended one and old strays", async () => {
    freshStore();
    const old = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    const ending = await subscribe("serial", "UTC", 6, "2026-03-26T00:00:00Z");
    await store.delete(`live/serial/${old.id}`); // as stored before the index
    sirius.printers.delete(ending.key); // its print key is gone: the run ends it
    await store.put("live/serial/stray-old", { at: "2026-03-20T00:00:00Z" });
    await store.put("live/_root/stray-young", { at: "2026-03-27T06:00:00Z" });
    await run(past("2026-03-27", 6, "UTC"));
    expect((await sub(ending.id)).ended?.reason).toMatch(/print key is unknown/);
    expect((await store.list("live/")).sort()).toEqual([`live/_root/stray-young`, `live/serial/${old.id}`]);
  });
});
