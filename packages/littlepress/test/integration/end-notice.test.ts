// The end of a subscription, as the spec has it: "the subscriber is notified
// that the subscription has ended" (one printed slip, exactly once, whatever
// runs overlap or crash), and "the subscriber may resubscribe and receives
// content from edition 0". Real delivery runs with the clock in the tests'
// hands, the kit's server serving the fixture publications, a fake sirius
// taking the prints, the state in a file store in a temporary folder.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/model/dates.ts";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { SITE_INDEX, siteDataDir } from "../../lib/model/site-paths.ts";
import type { DeliveryRecord } from "../../lib/model/delivery-record.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { runDeliveries, type DeliveryRunOptions } from "../../lib/platform/delivering/run.ts";
import { endNoticesOf } from "../../lib/platform/delivering/end-notices.ts";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { subscribeRequest } from "../../lib/platform/subscribing/subscribe.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { liveSubscriptions, subscriptionHistories } from "../../lib/platform/stores/subscriptions.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { main as deliverCli } from "../../scripts/deliver.ts";
import { buildSite } from "../helpers/build-sites.ts";
import { tempLocalState } from "../helpers/local-state.ts";
import { deliveryFixture, subscribeOn } from "../helpers/delivery-fixture.ts";
import { withServer } from "../helpers/server.ts";

const site = withServer("basic");
const sealKey = randomBytes(32);
const fixture = deliveryFixture("end-notice");
const { sirius } = fixture;
let store: StateStore;
const freshStore = () => (store = fixture.freshStore());

const ZONE = "UTC";
const HOUR = 6;
/** The serial's parts are 0, 1, 2 and 4: a delivery with delivery_count 5 answers 410. */
const LAST_PLUS_ONE = 5;

/** A printer on the fake sirius, and a subscription to `slug` that prints on it, `count` deliveries in. */
const subscribe = (slug = "serial", count = LAST_PLUS_ONE) =>
  subscribeOn(
    { sirius, store, sealKey },
    { slug, zone: ZONE, hour: HOUR, at: new Date("2026-03-26T00:00:00Z"), count },
  );

const run = (at: number, over: Partial<DeliveryRunOptions> = {}) =>
  runDeliveries({ store, origin: site.url, sealKey, printKeys: sirius.policy, at: new Date(at), ...over });
/** The instant `minutes` past the delivery hour on `date`. */
const past = (date: string, minutes = 5) => localDeliveryTime(date, HOUR, ZONE).ms + minutes * 60_000;
const DAY = "2026-03-27";
const sub = async (id: string) => (await store.get<Subscription>(subscriptionKey(id)))!.value;
const record = async (id: string, date: string) => (await store.get<DeliveryRecord>(`deliveries/${id}/${date}`))?.value;
const posts = () => sirius.requests.filter((r) => r.startsWith("POST "));

describe("the end slip", () => {
  it("prints once when a 410 ends the subscription: the name, that it ended, how to subscribe again", async () => {
    freshStore();
    const { key, id } = await subscribe();
    const report = await run(past(DAY));
    expect(report.lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual(["5:ended"]);
    expect(report.notices.map((l) => [l.subscription, l.outcome, l.detail])).toEqual([
      [id, "printed", "the end slip was sent to the printer"],
    ]);
    expect(sirius.prints).toHaveLength(1);
    const slip = sirius.prints[0]!;
    expect(slip.key).toBe(key);
    expect(slip.from).toBe("Serial");
    expect(slip.contentType).toBe("text/html; charset=utf-8");
    expect(slip.body).toContain("<h1");
    expect(slip.body).toMatch(/>Serial<\/h1>/);
    expect(slip.body).toContain("This subscription has ended");
    expect(slip.body).toContain(`${site.url}/serial/subscribe/`);
    const ended = await sub(id);
    expect(ended.ended?.reason).toBe("the series is over (410)");
    expect(ended.endNotice).toMatchObject({ state: "printed", attempts: 1 });
    expect(await store.list("live/")).toEqual([]);

    // Later runs, that day and the next ones, print nothing more and report nothing.
    for (const at of [past(DAY, 20), past(DAY, 200), past(addDays(DAY, 1)), past(addDays(DAY, 8))]) {
      const later = await run(at);
      expect([later.lines, later.notices]).toEqual([[], []]);
    }
    expect(sirius.prints).toHaveLength(1);
    expect(posts()).toHaveLength(1);

    // The history keeps the end, the delivery that ended it, and that the slip printed.
    const [history] = await subscriptionHistories(store, "serial");
    expect(history!.subscription.ended?.reason).toBe("the series is over (410)");
    expect(history!.subscription.endNotice).toMatchObject({
      state: "printed",
      detail: "the end slip was sent to the printer",
    });
    expect(history!.deliveries.map((d) => [d.date, d.state, d.status])).toEqual([[DAY, "ended", 410]]);
  });

  it("links the site's address for people when the run asks the publications elsewhere", async () => {
    freshStore();
    await subscribe();
    await run(past(DAY), { publicOrigin: "https://press.example.org" });
    expect(sirius.prints).toHaveLength(1);
    expect(sirius.prints[0]!.body).toContain("https://press.example.org/serial/subscribe/");
    expect(sirius.prints[0]!.body).not.toContain(site.url);
  });

  it("escapes the publication's name", async () => {
    const pub = await endingPublication("Tales & <b>Co</b>");
    try {
      freshStore();
      await subscribe("tales", 0);
      await run(past(DAY), { origin: pub.origin });
      expect(sirius.prints).toHaveLength(1);
      // sirius pastes `from` into its header unescaped: it is sent as HTML text, which shows as the name.
      expect(sirius.prints[0]!.from).toBe("Tales &amp; &lt;b&gt;Co&lt;/b&gt;");
      expect(sirius.prints[0]!.body).toContain(">Tales &amp; &lt;b&gt;Co&lt;/b&gt;</h1>");
      expect(sirius.prints[0]!.body).not.toContain("<b>");
    } finally {
      await pub.close();
    }
  });

  it("prints one slip per subscription when two runs overlap", async () => {
    freshStore();
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push(await subscribe());
    const at = past(DAY);
    const [a, b] = await Promise.all([run(at), run(at + 1000)]);
    expect(a.notices.length + b.notices.length).toBe(12);
    expect([...a.notices, ...b.notices].every((l) => l.outcome === "printed")).toBe(true);
    expect(sirius.prints).toHaveLength(12);
    expect(new Set(sirius.prints.map((p) => p.key))).toEqual(new Set(subs.map((s) => s.key)));
    for (const { id } of subs) expect((await sub(id)).endNotice).toMatchObject({ state: "printed", attempts: 1 });
    // and two more overlapping runs later print nothing
    await Promise.all([run(at + 20 * 60_000), run(at + 20 * 60_000)]);
    expect(sirius.prints).toHaveLength(12);
  });

  it("prints one slip per subscription when two runs find the same slips to retry at the same instant", async () => {
    freshStore();
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push(await subscribe());
    for (const { key } of subs) sirius.printers.get(key)!.online = false;
    const first = await run(past(DAY));
    expect(first.notices.map((l) => l.outcome)).toEqual(Array(12).fill("offline"));
    for (const { key } of subs) sirius.printers.get(key)!.online = true;
    const at = past(DAY, 25);
    const [a, b] = await Promise.all([run(at), run(at)]);
    expect([...a.notices, ...b.notices].map((l) => l.outcome)).toEqual(Array(12).fill("printed"));
    expect(sirius.prints).toHaveLength(12);
    expect(new Set(sirius.prints.map((p) => p.key)).size).toBe(12);
  });

  it("prints none when the publication turns it off, and says so in the history", async () => {
    freshStore();
    const { id } = await subscribe();
    const report = await run(past(DAY), { endNotice: (slug) => slug !== "serial" });
    expect(report.lines.map((l) => l.outcome)).toEqual(["ended"]);
    expect(report.notices.map((l) => l.outcome)).toEqual(["off"]);
    expect(sirius.prints).toEqual([]);
    expect(posts()).toEqual([]);
    expect((await sub(id)).endNotice).toMatchObject({ state: "off", detail: expect.stringMatching(/end_notice/) });
    expect((await run(past(addDays(DAY, 1)))).notices).toEqual([]);
    expect(sirius.prints).toEqual([]);
  });

  it("cannot print when the print key is gone (404): the subscription ends and the history says why", async () => {
    freshStore();
    const { key, id } = await subscribe("serial", 0);
    sirius.printers.delete(key);
    const report = await run(past(DAY));
    expect(report.lines.map((l) => l.outcome)).toEqual(["unknown-key"]);
    expect(report.notices).toEqual([]);
    expect(posts()).toHaveLength(1); // the edition's, which the 404 answered; no slip after it
    const ended = await sub(id);
    expect(ended.ended?.reason).toBe("the print key is unknown (404)");
    expect(ended.endNotice).toMatchObject({
      state: "no-printer",
      detail: "no end slip: the print key no longer exists (404), so there is no printer to print it on",
    });
    // nothing is tried later either, even with the key back
    sirius.printers.set(key, { name: "Back", owner: "Ada", online: true });
    expect((await run(past(addDays(DAY, 1)))).notices).toEqual([]);
    expect(sirius.prints).toEqual([]);
  });

  it("says no printer when the key went between the 410 and the slip", async () => {
    freshStore();
    const { key, id } = await subscribe();
    sirius.printers.get(key)!.answers = [404];
    const report = await run(past(DAY));
    expect(report.notices.map((l) => l.outcome)).toEqual(["no-printer"]);
    expect((await sub(id)).endNotice?.detail).toMatch(/print key is unknown \(404\)/);
    expect((await run(past(addDays(DAY, 1)))).notices).toEqual([]);
    expect(posts()).toHaveLength(1);
  });

  it("tries a slip that failed (503, an offline printer) again on a later run, backing off", async () => {
    freshStore();
    const { key, id } = await subscribe();
    sirius.printers.get(key)!.answers = [503];
    const first = await run(past(DAY));
    expect(first.lines.map((l) => l.outcome)).toEqual(["ended"]);
    expect(first.notices.map((l) => [l.outcome, l.detail])).toEqual([
      ["failed", "the print key answered 503; tried again by a later run"],
    ]);
    expect(sirius.prints).toEqual([]);
    // ten minutes on it is still backing off (15 minutes first)
    expect((await run(past(DAY, 15))).notices).toEqual([]);
    sirius.printers.get(key)!.online = false;
    const offline = await run(past(DAY, 21));
    expect(offline.notices.map((l) => l.outcome)).toEqual(["offline"]);
    sirius.printers.get(key)!.online = true;
    expect((await run(past(DAY, 40))).notices).toEqual([]); // 30 minutes after the second try
    const printed = await run(past(DAY, 52));
    expect(printed.notices.map((l) => l.outcome)).toEqual(["printed"]);
    expect(sirius.prints.map((p) => p.key)).toEqual([key]);
    expect((await sub(id)).endNotice).toMatchObject({ state: "printed", attempts: 3 });
    expect((await run(past(addDays(DAY, 1)))).notices).toEqual([]);
    expect(sirius.prints).toHaveLength(1);
  });

  it("gives a slip up after its tries are spent, and says so", async () => {
    freshStore();
    const { key, id } = await subscribe();
    sirius.printers.get(key)!.online = false;
    let at = past(DAY);
    for (let i = 0; i < 30; i++, at += 2 * 60 * 60_000) await run(at);
    const notice = (await sub(id)).endNotice!;
    expect(notice.state).toBe("gave-up");
    expect(notice.attempts).toBe(24);
    expect(notice.detail).toMatch(/^not printed: 24 tries failed \(the last: printer offline/);
    expect(posts()).toHaveLength(24);
    sirius.printers.get(key)!.online = true;
    await run(at);
    expect(sirius.prints).toEqual([]);
  });
});

describe("a crash and the end slip", () => {
  it("still prints one slip when a run dies after the 410 was recorded, before the subscription was", async () => {
    freshStore();
    const { id } = await subscribe();
    // The run dies at its write of the subscription's end: the delivery's record says 410, the subscription nothing.
    const dying: StateStore = {
      ...store,
      replace: async (key, value, version) => {
        if (key === subscriptionKey(id)) throw new Error("the run died here");
        return store.replace(key, value, version);
      },
    };
    const cut = await run(past(DAY), { store: dying });
    expect(cut.lines.map((l) => l.outcome)).toEqual(["error"]);
    expect((await record(id, DAY))?.state).toBe("ended");
    expect((await sub(id)).ended).toBeNull();
    expect(sirius.prints).toEqual([]);

    // The next run (a quarter of an hour on, the same day) finishes the end and prints the slip, once.
    const next = await run(past(DAY, 20));
    expect(next.lines).toEqual([]);
    expect(next.notices.map((l) => [l.subscription, l.outcome])).toEqual([[id, "printed"]]);
    const ended = await sub(id);
    expect(ended.ended?.reason).toBe("the series is over (410)");
    expect(ended.deliveryCount).toBe(LAST_PLUS_ONE + 1);
    expect(await store.list("live/")).toEqual([]);
    await run(past(DAY, 35));
    await run(past(addDays(DAY, 1)));
    expect(sirius.prints).toHaveLength(1);
  });

  it("still prints one slip when a run dies after the end was written, before the slip was claimed", async () => {
    freshStore();
    const { id } = await subscribe();
    const dying: StateStore = {
      ...store,
      replace: async (key, value, version) => {
        if ((value as Subscription).endNotice?.state === "sending") throw new Error("the run died here");
        return store.replace(key, value, version);
      },
    };
    const cut = await run(past(DAY), { store: dying });
    expect(cut.lines.map((l) => l.outcome)).toEqual(["ended"]);
    expect(cut.notices.map((l) => l.outcome)).toEqual(["error"]);
    expect((await sub(id)).endNotice).toMatchObject({ state: "due" });
    expect(sirius.prints).toEqual([]);
    const next = await run(past(DAY, 20));
    expect(next.notices.map((l) => l.outcome)).toEqual(["printed"]);
    await run(past(DAY, 40));
    expect(sirius.prints).toHaveLength(1);
  });

  it("resumes a slip whose run was killed while the print key had it, once the claim is stale", async () => {
    freshStore();
    const { key, id } = await subscribe();
    const printer = sirius.printers.get(key)!;
    printer.hold = true; // the slip's POST gets no answer: the run waits there until it is killed
    const at = past(DAY);
    const child = spawn(process.execPath, [
      "--import",
      "tsx",
      "test/helpers/deliver-child.ts",
      fixture.folder!,
      site.url,
      sealKey.toString("base64"),
      new Date(at).toISOString(),
      sirius.url,
    ]);
    try {
      const deadline = Date.now() + 20_000;
      const claimed = async () => (await sub(id)).endNotice?.state === "sending" && posts().length === 1;
      while (!(await claimed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await claimed()).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) =>
        child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r),
      );
    }
    printer.hold = false;
    expect((await sub(id)).ended?.reason).toBe("the series is over (410)");
    // A minute later the claim still holds: another run leaves it.
    expect((await run(at + 60_000)).notices).toEqual([]);
    expect(sirius.prints).toEqual([]);
    // Fifteen minutes later it is stale: the next run takes it over and prints the slip, once.
    const resumed = await run(at + 15 * 60_000);
    expect(resumed.notices.map((l) => l.outcome)).toEqual(["printed"]);
    expect((await sub(id)).endNotice).toMatchObject({ state: "printed", attempts: 2 });
    await run(at + 30 * 60_000);
    expect(sirius.prints).toHaveLength(1);
  });
});

describe("the dry run", () => {
  it("says an end slip would print, and sends and writes nothing", async () => {
    freshStore();
    const { key, id } = await subscribe();
    sirius.printers.get(key)!.answers = [503];
    await run(past(DAY)); // ended; the slip failed once
    const before = await sub(id);
    const dry = await run(past(DAY, 30), { dryRun: true });
    expect(dry.notices.map((l) => [l.outcome, l.detail])).toEqual([["would print", "would print the end slip"]]);
    expect(await sub(id)).toEqual(before);
    expect(sirius.prints).toEqual([]);
  });
});

describe("resubscribing", () => {
  const ask = (fields: Record<string, string>, client: string, maxSubscriptions?: number) =>
    subscribeRequest(
      new Request(`${site.url}/serial/subscribe/`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      }),
      {
        ...{ store, sealKey, origin: site.url, slug: "serial", client, at: new Date("2026-03-26T00:00:00Z") },
        ...{ printKeys: sirius.policy, maxSubscriptions },
      },
    );
  const form = (key: string) => ({
    action: "subscribe",
    print_key: sirius.keyUrl(key),
    zone: ZONE,
    hour: String(HOUR),
  });
  const subscriptions = async () =>
    (await Promise.all((await store.list("subscriptions/")).map((k) => store.get<Subscription>(k)))).map(
      (s) => s!.value,
    );

  it("after the end, with the same key, starts at edition 0, keeps the old history, counts live ones", async () => {
    freshStore();
    sirius.printers.set("kitchen", { name: "Kitchen", owner: "Ada", online: true });
    expect((await ask(form("kitchen"), "192.0.2.1", 1)).status).toBe(200);
    const [first] = await subscriptions();
    const stored = (await store.get<Subscription>(subscriptionKey(first!.id)))!;
    await store.replace(subscriptionKey(first!.id), { ...stored.value, deliveryCount: LAST_PLUS_ONE }, stored.version);
    // live, the publication is full at a cap of 1
    expect((await ask(form("kitchen"), "192.0.2.2", 1)).status).toBe(409);

    await run(past(DAY));
    expect((await sub(first!.id)).ended?.reason).toBe("the series is over (410)");
    expect(sirius.prints).toHaveLength(1); // the end slip
    expect(await liveSubscriptions(store, "serial")).toBe(0);

    // ended, it no longer counts: the same key subscribes again, at the same cap
    const again = await ask(form("kitchen"), "192.0.2.3", 1);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("Kitchen will print Serial on the days it has an edition at 06:00 (UTC)");
    const second = (await subscriptions()).find((s) => s.id !== first!.id)!;
    expect(second).toMatchObject({ deliveryCount: 0, ended: null, lastEtag: null });
    expect(await liveSubscriptions(store, "serial")).toBe(1);

    // its first delivery asks for edition 0 and prints the first part
    const asked: string[] = [];
    const seeing: typeof fetch = (input, init) => {
      asked.push(input instanceof Request ? input.url : input.toString());
      return fetch(input, init);
    };
    const next = await run(past(addDays(DAY, 1)), { fetch: seeing });
    expect(next.lines.map((l) => [l.subscription, l.deliveryCount, l.outcome])).toEqual([[second.id, 0, "printed"]]);
    expect(asked.filter((u) => u.includes("/edition/"))).toEqual([`${site.url}/serial/edition/?delivery_count=0`]);
    expect(sirius.prints.map((p) => p.key)).toEqual(["kitchen", "kitchen"]);
    expect(sirius.prints[1]!.body).toContain("The first part.");

    // both histories are kept, the ended one with its end and its slip
    const histories = await subscriptionHistories(store, "serial");
    expect(histories.map((h) => [h.subscription.id, h.subscription.ended?.reason ?? "live"])).toEqual(
      expect.arrayContaining([
        [first!.id, "the series is over (410)"],
        [second.id, "live"],
      ]),
    );
    const old = histories.find((h) => h.subscription.id === first!.id)!;
    expect(old.subscription.endNotice?.state).toBe("printed");
    expect(old.deliveries.map((d) => d.state)).toEqual(["ended"]);
  });

  it("with the same key while the subscription is live makes a second one, as before", async () => {
    freshStore();
    sirius.printers.set("hall", { name: "Hall", owner: "Ada", online: true });
    expect((await ask(form("hall"), "192.0.2.10")).status).toBe(200);
    expect((await ask(form("hall"), "192.0.2.11")).status).toBe(200);
    const subs = await subscriptions();
    expect(subs).toHaveLength(2);
    expect(new Set(subs.map((s) => s.id)).size).toBe(2);
    expect(await liveSubscriptions(store, "serial")).toBe(2);
    // each is a subscription of its own: each delivers
    const report = await run(past(DAY));
    expect(report.lines.map((l) => `${l.deliveryCount}:${l.outcome}`)).toEqual(["0:printed", "0:printed"]);
  });
});

describe("end_notice in publication.json, through a built site and npm run deliver", () => {
  const root = path.join(".test-work", `end-notice-${process.pid}`);
  const built = path.join(root, "_site");
  const local = tempLocalState("end-notice-cli");
  let state: StateSetup;
  let server: LocalServer;

  beforeAll(async () => {
    const content = path.join(root, "content");
    const tale = (name: string, extra: object = {}) => ({
      name,
      description: "A tale in one part.",
      owner_email: "t@example.com",
      delivered_on: "Daily",
      editions: { by: "delivery_count", ends: true },
      ...extra,
    });
    for (const [slug, json] of [
      ["loud", tale("Loud")],
      ["quiet", tale("Quiet", { end_notice: false })],
    ] as const) {
      mkdirSync(path.join(content, slug, "editions"), { recursive: true });
      writeFileSync(path.join(content, slug, "publication.json"), JSON.stringify(json));
      writeFileSync(path.join(content, slug, "editions", "0.md"), "---\nnumber: 0\n---\nThe only part.\n");
    }
    const siteJson = {
      root: "quiet",
      url: "https://press.example.org",
      print_key_origins: [{ origin: sirius.url, private: true }],
    };
    writeFileSync(path.join(content, "site.json"), JSON.stringify(siteJson));
    await buildSite(content, built);
    server = await startServer({ port: 0, siteDir: built });
    state = stateSetup(local) as StateSetup;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
    local.remove();
  });

  it("writes the publications without a slip to the site index, which the runs read", () => {
    const index = JSON.parse(readFileSync(path.join(siteDataDir(built), SITE_INDEX), "utf8")) as object;
    expect(index).toMatchObject({ noEndNotice: ["quiet"] });
    const on = endNoticesOf(path.resolve(built));
    expect([on("loud"), on("quiet"), on("")]).toEqual([true, false, false]);
  });

  it("prints the slip for one publication and not the other, linking the site's own address", async () => {
    fixture.folder = local.folder; // removed after the test, as the others' are
    const made: Record<string, string> = {};
    for (const slug of ["loud", "quiet", ""]) {
      const key = `key${slug || "root"}`;
      sirius.printers.set(key, { name: `Printer ${slug || "root"}`, owner: "Ada", online: true });
      const { subscription } = await createSubscription(state.store, state.sealKey, {
        slug,
        printKey: new URL(sirius.keyUrl(key)),
        printer: `Printer ${slug || "root"}`,
        zone: ZONE,
        hour: HOUR,
        settings: [],
        at: new Date("2026-03-26T00:00:00Z"),
      });
      made[slug || "root"] = subscription.id;
      const stored = (await state.store.get<Subscription>(subscriptionKey(subscription.id)))!;
      await state.store.put(subscriptionKey(subscription.id), { ...stored.value, deliveryCount: 1 });
    }
    let stdout = "";
    const out = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stdout += t) };
    const args = ["--state", local.folder, "--key-file", local.keyFile, "--site", built];
    const code = await deliverCli([...args, "--at", new Date(past(DAY)).toISOString()], out, {});
    expect(code).toBe(0);
    expect(sirius.prints.map((p) => [p.key, p.from])).toEqual([["keyloud", "Loud"]]);
    expect(sirius.prints[0]!.body).toContain("https://press.example.org/loud/subscribe/");
    expect(stdout).toContain(
      `  loud  ${made.loud} (Printer loud)  end slip: printed (the end slip was sent to the printer)\n`,
    );
    expect(stdout).toMatch(new RegExp(`  quiet  ${made.quiet} \\(Printer quiet\\)  end slip: off \\(no end slip`));
    expect(stdout).toMatch(new RegExp(`  /  ${made.root} \\(Printer root\\)  end slip: off `));
    for (const id of Object.values(made))
      expect((await state.store.get<Subscription>(subscriptionKey(id)))!.value.ended).not.toBeNull();
    // and the served publications are unchanged by it: meta.json has exactly the spec's fields
    const meta = (await (await fetch(`${server.url}/quiet/meta.json`)).json()) as object;
    expect(meta).not.toHaveProperty("end_notice");
  });
});

/** A publication `tales` named `name`, whose every edition answers 410. */
async function endingPublication(name: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === "/tales/meta.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ name, send_timezone_info: false, send_delivery_count: true }));
    }
    res.writeHead(410);
    res.end();
  });
  server.requestTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
