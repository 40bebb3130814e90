// The subscribe page over real HTTP, on the local server as `npm start` runs
// it, with a fake sirius for the print keys and the state in a temporary folder.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import type { PrintKeyOrigin } from "../../lib/model/print-key.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { runDeliveries } from "../../lib/platform/delivering/run.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { tempLocalState, type LocalState } from "../helpers/local-state.ts";
import { fileStore, type StateStore } from "../../lib/platform/stores/state-store.ts";
import { MAX_SUBSCRIPTIONS, subscribeRequest } from "../../lib/platform/subscribing/subscribe.ts";
import { liveSubscriptions } from "../../lib/platform/stores/subscriptions.ts";
import { openPublication } from "../../lib/edge/publication-store.ts";
import { startPrintKeys, type FakePrintKeys } from "../helpers/print-keys.ts";
import { RawConnection, rawRequest } from "../helpers/raw-http.ts";
import { callFunction } from "../helpers/handlers.ts";
import { builtSite } from "../helpers/sites.ts";

let server: LocalServer;
let sirius: FakePrintKeys;
let local: LocalState;
let folder: string;
let state: StateSetup;

beforeAll(async () => {
  local = tempLocalState("subscribe");
  folder = local.folder;
  sirius = await startPrintKeys({
    kitchen1: { name: "Kitchen", owner: "Ada", online: true },
    hall2: { name: "Hall", owner: "Ada", online: true },
  });
  // The tests stand behind a proxy on loopback, so that each can be another client (X-Forwarded-For).
  const printKeyOrigins = sirius.allowed;
  const trustProxy = ["loopback"];
  server = await startServer({
    port: 0,
    siteDir: builtSite("basic"),
    stateDir: folder,
    history: true,
    keyFile: local.keyFile,
    printKeyOrigins,
    trustProxy,
  });
  state = stateSetup(local) as StateSetup;
});
afterAll(async () => {
  await server.close();
  await sirius.close();
  local.remove();
});

const form = (fields: Record<string, string>, client = "203.0.113.1") =>
  fetch(`${server.url}/settings/subscribe/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client },
    body: new URLSearchParams(fields),
  });
const good = (over: Record<string, string> = {}) => ({
  action: "subscribe",
  print_key: sirius.keyUrl("kitchen1"),
  zone: "Europe/Paris",
  hour: "7",
  "config.lang": "fr",
  "config.size": "l",
  "config.name": "Zoë <b>",
  "config.code": "ABC",
  ...over,
});
const subscriptions = async () =>
  Promise.all(
    (await state.store.list("subscriptions/")).map(async (k) => (await state.store.get<Subscription>(k))!.value),
  );

describe("the delivery history", () => {
  it("is not served by a deployed function, which has no local state, nor by npm run serve", async () => {
    const { default: deliveries } = await import("../../functions/deliveries.mts");
    const res = await deliveries(new Request("https://example.org/settings/deliveries/"), {});
    expect(res.status).toBe(404);
    const serve = await startServer({ port: 0, siteDir: builtSite("basic"), stateDir: folder, keyFile: local.keyFile });
    try {
      expect((await fetch(`${serve.url}/settings/deliveries/`)).status).toBe(404);
    } finally {
      await serve.close();
    }
  });
});

describe("the subscribe page", () => {
  it("shows the form built from meta.json: print key, time zone, hour and the publication's settings", async () => {
    const res = await fetch(`${server.url}/settings/subscribe/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await res.text();
    expect(page).toContain("<h1>Subscribe to Settings</h1>");
    for (const label of ["print key URL", "Time zone", "Delivery time", "Language", "Size", "Your name", "Code"])
      expect(page).toContain(label);
    expect(page).toContain('<option value="fr">Français</option>');
  });

  it("subscribes: checks the key, validates the settings, seals the key, shows a private link once", async () => {
    const res = await form(good());
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain("Kitchen will print Settings one part a day at 07:00 (Europe/Paris)");
    expect(sirius.requests).toContain("GET /printkey/kitchen1");
    expect(page).not.toContain("kitchen1");
    const link = /<code>([^<]+)<\/code>/.exec(page)![1]!.replace(/&amp;/g, "&");
    expect(link).toMatch(/\/settings\/subscribe\/\?unsubscribe=[\w-]+\.[\w-]+$/);
    const [sub] = await subscriptions();
    expect(sub).toMatchObject({ slug: "settings", printer: "Kitchen", zone: "Europe/Paris", hour: 7 });
    expect(sub!.settings).toEqual([
      ["lang", "fr"],
      ["size", "l"],
      ["name", "Zoë <b>"],
      ["code", "ABC"],
    ]);
    for (const f of readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()))
      expect(readFileSync(path.join(f.parentPath, f.name), "utf8")).not.toContain("kitchen1");
    // the key that seals it is kept outside the state folder, readable by its owner only
    expect(readdirSync(folder)).not.toContain("seal.key");
    if (process.platform !== "win32") expect(statSync(local.keyFile).mode & 0o777).toBe(0o600);

    // the next delivery prints with the settings as query parameters
    const at = new Date(localDeliveryTime("2026-12-01", 7, "Europe/Paris").ms + 60_000);
    const report = await runDeliveries({ ...state, origin: server.url, printKeys: sirius.policy, at });
    expect(report.lines.map((l) => l.outcome)).toEqual(["printed"]);
    expect(sirius.prints.at(-1)!.body).toContain("Zoë &lt;b&gt;");

    // the desk reads the history: the time, the status, the ETag, printed or not; never the key
    const history = await fetch(`${server.url}/settings/deliveries/`);
    const text = await history.text();
    expect(text).not.toContain("kitchen1");
    expect(text).not.toContain("printKey");
    const { subscriptions: shown } = JSON.parse(text) as {
      subscriptions: { subscription: { printer: string }; deliveries: Record<string, unknown>[] }[];
    };
    expect(shown[0]!.subscription.printer).toBe("Kitchen");
    expect(shown[0]!.deliveries[0]).toMatchObject({
      date: "2026-12-01",
      localDeliveryTime: "2026-12-01T07:00:00+01:00",
      state: "printed",
      status: 200,
      printed: true,
      etag: expect.stringMatching(/^".+"$/),
    });

    // the link asks first (a GET never unsubscribes), then unsubscribes once
    const confirm = await (await fetch(link)).text();
    expect(confirm).toContain('<input type="hidden" name="action" value="unsubscribe">');
    const [, id, token] = /unsubscribe=([\w-]+)\.([\w-]+)/.exec(link)!;
    expect((await form({ action: "unsubscribe", id: id!, token: token! })).status).toBe(200);
    expect(await subscriptions()).toEqual([]);
    const again = await form({ action: "unsubscribe", id: id!, token: token! });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("not valid, or was used already");
  });

  it("shows validate_config's errors after the platform's alert, and keeps what was typed but the key", async () => {
    const res = await form(good({ "config.code": "abc", print_key: sirius.keyUrl("hall2") }), "203.0.113.2");
    const page = await res.text();
    expect(res.status).toBe(400);
    expect(page).toContain('<div class="alert" role="alert"><p><strong>Some of your answers need changing:</strong>');
    expect(page).toMatch(/<li>Code: [^<]*three capital letters/);
    expect(page).toContain('value="Zoë &lt;b&gt;"');
    expect(page).not.toContain("hall2");
    expect(await subscriptions()).toEqual([]);
  });

  it("answers a bad print key, time zone or hour with what to do", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ print_key: "" }, /Print key: paste your printer&#39;s print key URL/],
      [{ print_key: "https://example.org/else/where" }, /must be \/&lt;key&gt; .* or \/printkey\/&lt;key&gt;/],
      [{ print_key: sirius.keyUrl("nobody") }, /does not know this key/],
      [{ zone: "Mars/Olympus" }, /Time zone: &quot;Mars\/Olympus&quot; is not a time zone/],
      [{ hour: "25" }, /Delivery time: choose an hour/],
    ];
    for (const [over, message] of cases) {
      const res = await form(good(over), "203.0.113.3");
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(message);
    }
    expect(await subscriptions()).toEqual([]);
  });

  it("limits subscribe tries per client and hour", async () => {
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await form(good({ hour: "x" }), "198.51.100.7")).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await form(good({ hour: "x" }), "198.51.100.8")).status).toBe(400);
  });

  it("refuses other methods and bodies that are not the form", async () => {
    const put = await fetch(`${server.url}/settings/subscribe/`, { method: "PUT", body: "x" });
    expect(put.status).toBe(405);
    const json = await fetch(`${server.url}/settings/subscribe/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(400);
    expect((await fetch(`${server.url}/no-such-thing/subscribe/`)).status).toBe(404);
  });

  it("shows a printer's name without the control characters its print key service put in it", async () => {
    sirius.printers.set("evil3", { name: "\u001b[2J\u001b[31mEvil\u0007\r\nLine\u202e", owner: "Eve", online: true });
    const res = await form(good({ print_key: sirius.keyUrl("evil3") }), "203.0.113.9");
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain("<p>[2J [31mEvil Line will print Settings one part a day at 07:00");
    expect(page.replace(/\n/g, "")).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
    const { subscriptions: shown } = (await (await fetch(`${server.url}/settings/deliveries/`)).json()) as {
      subscriptions: { subscription: { printer: string } }[];
    };
    expect(shown.map((h) => h.subscription.printer)).toEqual(["[2J [31mEvil Line"]);
  });

  it("reads a chunked form no further than its limit, and keeps the connection for the next request", async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const chunk = `print_key=${"x".repeat(8 * 1024)}`;
      const chunked = [chunk, "a".repeat(8 * 1024), "b".repeat(8 * 1024)]
        .map((c) => `${c.length.toString(16)}\r\n${c}\r\n`)
        .join("");
      // Written by hand: rawRequest would add a Content-Length, which Node refuses beside chunked.
      const head =
        "POST /settings/subscribe/ HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n";
      await conn.write(`${head}${chunked}0\r\n\r\n`);
      const refused = await conn.response();
      expect(refused.status).toBe(400);
      expect(refused.body.toString()).toContain("Send the form from the subscribe page.");
      await conn.write(rawRequest("GET", "/settings/subscribe/"));
      expect((await conn.response()).status).toBe(200);
    } finally {
      conn.close();
    }
  });
});

describe("a publication's cap on subscriptions", () => {
  let capFolder: string;
  let store: StateStore;
  beforeAll(() => {
    capFolder = mkdtempSync(path.join(tmpdir(), "littlepress-cap-"));
    store = fileStore(capFolder);
  });
  afterAll(() => rmSync(capFolder, { recursive: true, force: true }));

  const at = new Date("2026-12-01T00:00:00Z");
  const ask = (fields: Record<string, string>, client: string, maxSubscriptions = 2) =>
    subscribeRequest(
      new Request(`${server.url}/settings/subscribe/`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      }),
      {
        ...{ store, sealKey: state.sealKey, origin: server.url, slug: "settings", client, at, maxSubscriptions },
        printKeys: sirius.policy,
      },
    );

  it("answers 409 and a page saying the publication is full, counting its live subscriptions only", async () => {
    expect(MAX_SUBSCRIPTIONS).toBe(1000);
    expect((await ask(good(), "192.0.2.1")).status).toBe(200);
    const second = await ask(good({ print_key: sirius.keyUrl("hall2") }), "192.0.2.2");
    expect(second.status).toBe(200);
    const full = await ask(good(), "192.0.2.3");
    expect(full.status).toBe(409);
    const page = await full.text();
    expect(page).toContain("<h1>This publication is full</h1>");
    expect(page).toContain("Settings has as many subscribers as it takes just now");
    expect(page).toContain("Please ask its author.");
    expect(await store.list("subscriptions/")).toHaveLength(2);
    // another publication is counted on its own; a higher cap lets this one in
    expect(await liveSubscriptions(store, "serial")).toBe(0);
    expect((await ask(good(), "192.0.2.3", 3)).status).toBe(200);

    // an unsubscribe makes room
    const link = /unsubscribe=([\w-]+)\.([\w-]+)/.exec(await second.text())!;
    const bye = await ask({ action: "unsubscribe", id: link[1]!, token: link[2]! }, "192.0.2.2");
    expect(bye.status).toBe(200);
    expect(await liveSubscriptions(store, "settings")).toBe(2);
    expect((await ask(good(), "192.0.2.4", 3)).status).toBe(200);
    expect((await ask(good(), "192.0.2.4", 3)).status).toBe(409);
  });

  it("counts subscriptions stored before the index once a run has seen them, and not the ended ones", async () => {
    const counted = await liveSubscriptions(store, "settings");
    const [first] = await store.list("live/settings/");
    const id = first!.slice("live/settings/".length);
    await store.delete(first!); // as if stored before the index
    expect(await liveSubscriptions(store, "settings")).toBe(counted - 1);
    const deliveryAt = new Date(localDeliveryTime("2026-12-01", 7, "Europe/Paris").ms + 60_000);
    await runDeliveries({
      store,
      sealKey: state.sealKey,
      origin: server.url,
      printKeys: sirius.policy,
      at: deliveryAt,
    });
    expect(await liveSubscriptions(store, "settings")).toBe(counted);
    // ended: out of the count from the next run on, though kept for the desk
    const stored = (await store.get<Subscription>(`subscriptions/${id}`))!;
    await store.put(`subscriptions/${id}`, { ...stored.value, ended: { at: deliveryAt.toISOString(), reason: "410" } });
    await runDeliveries({
      store,
      sealKey: state.sealKey,
      origin: server.url,
      printKeys: sirius.policy,
      at: deliveryAt,
    });
    expect(await liveSubscriptions(store, "settings")).toBe(counted - 1);
    expect(await store.get(`subscriptions/${id}`)).toBeDefined();
  });
});

/** The good form POSTed to the deployed subscribe function, on `site` with `local`'s state, from `ip`. */
async function subscribeByFunction(o: { site: string; local: LocalState; printKeys: PrintKeyOrigin[]; ip: string }) {
  const subscribe = await import("../../functions/subscribe.mts");
  const req = new Request(`${server.url}/settings/subscribe/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(good()),
  });
  const where = { site: o.site, state: o.local.folder, keyFile: o.local.keyFile, origin: server.url };
  return callFunction(subscribe, req, { littlepress: { ...where, printKeys: o.printKeys }, ip: o.ip });
}

describe("the cap an author sets in content/site.json", () => {
  it("is read by the deployed function from the built site index: max_subscriptions 0 closes subscribing", async () => {
    const capped = tempLocalState("subscribe-capped");
    const site = path.join(path.dirname(capped.folder), "_site");
    mkdirSync(path.join(`${site}_data`), { recursive: true });
    writeFileSync(path.join(`${site}_data`, "site.json"), JSON.stringify({ maxSubscriptions: 0 }));
    try {
      const res = await subscribeByFunction({ site, local: capped, printKeys: sirius.allowed, ip: "192.0.2.50" });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("<h1>This publication is full</h1>");
    } finally {
      capped.remove();
    }
  });
});

describe("a print key the site's own list refuses", () => {
  /** One subscribe through the deployed function, allowing `printKeys`; the page and the lines the log got. */
  async function refused(printKeys: PrintKeyOrigin[], ip: string) {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const own = tempLocalState("subscribe-refused");
    try {
      const res = await subscribeByFunction({ site: builtSite("basic"), local: own, printKeys, ip });
      return { status: res.status, page: await res.text(), log: warned.mock.calls.map((call) => call.join(" ")) };
    } finally {
      warned.mockRestore();
      own.remove();
    }
  }
  const origin = () => new URL(sirius.url).origin;

  it("logs for the owner the origin to add to site.json, never the key; tells the subscriber no host", async () => {
    const { status, page, log } = await refused([{ origin: "https://device.li", private: false }], "192.0.2.61");
    expect(status).toBe(400);
    expect(page).toContain("this site cannot print to that key");
    expect(page).not.toContain(origin());
    expect(log).toEqual([
      `subscribe: refused a print key on ${origin()}: ` +
        `content/site.json's "print_key_origins" (now: https://device.li) ` +
        `does not list it; to take keys from that service, ` +
        `add {"origin": "${origin()}", "private": true} to that list.`,
    ]);
    expect(log.join("")).not.toContain("kitchen1");
  });

  it("says how to allow a listed service at a private address", async () => {
    const { status, log } = await refused([{ origin: origin(), private: false }], "192.0.2.62");
    expect(status).toBe(400);
    expect(log).toHaveLength(1);
    expect(log[0]).toContain(`refused a print key on ${origin()}: it is at a private address`);
    expect(log[0]).toContain(`write the entry as {"origin": "${origin()}", "private": true}`);
    expect(log[0]).not.toContain("kitchen1");
  });

  it("logs nothing for a key it takes", async () => {
    const { status, log } = await refused(sirius.allowed, "192.0.2.63");
    expect(status).toBe(200);
    expect(log).toEqual([]);
  });
});

describe("when the page says a publication is delivered", () => {
  /** The form and, once subscribed at 07:00 in Paris, the page after, for a publication of a built fixture on `day`. */
  async function pages(site: string, slug: string, day: string) {
    const own = tempLocalState("subscribe-schedule");
    try {
      const publication = (await openPublication(slug, path.resolve(builtSite(site))))!;
      const meta = () => Promise.resolve(Response.json({ name: slug, description: "", config: { fields: [] } }));
      const o = { ...(stateSetup(own) as StateSetup), origin: "http://127.0.0.1:1", slug, client: "192.0.2.70" };
      const more = { printKeys: sirius.policy, publication, at: new Date(`${day}T12:00:00Z`), fetch: meta };
      const url = `http://127.0.0.1:1/${slug}/subscribe/`;
      const form = await (await subscribeRequest(new Request(url), { ...o, ...more })).text();
      const post = new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          action: "subscribe",
          print_key: sirius.keyUrl("kitchen1"),
          zone: "Europe/Paris",
          hour: "7",
        }),
      });
      return { form, done: await (await subscribeRequest(post, { ...o, ...more })).text() };
    } finally {
      own.remove();
    }
  }

  it("says it from the editions a delivery finds: weekly days, Monday to Friday, a serial's parts", async () => {
    const twice = await pages("data", "twice-weekly", "2026-03-02");
    expect(twice.form).toContain("twice-weekly is delivered on Mondays and Thursdays, at this hour.");
    expect(twice.done).toContain("Kitchen will print twice-weekly on Mondays and Thursdays at 07:00 (Europe/Paris)");
    const weekdays = await pages("data", "weekdays-fr", "2026-10-20");
    expect(weekdays.done).toContain("will print weekdays-fr Monday to Friday at 07:00 (Europe/Paris)");
    expect((await pages("basic", "serial", "2026-10-20")).done).toContain("will print serial one part a day at 07:00");
    expect((await pages("basic", "hourly", "2026-10-20")).form).toContain(
      "hourly is delivered every day, at this hour.",
    );
  });
});

describe("a setting's default on the subscribe page", () => {
  it("is preselected: the built publication's default, else the first option", async () => {
    const own = tempLocalState("subscribe-defaults");
    try {
      // meta.json lists English second: a select left as it is must still send the default, en.
      const fields = [
        {
          type: "select",
          name: "lang",
          label: "Language",
          options: [
            ["Français", "fr"],
            ["English", "en"],
          ],
        },
        {
          type: "radio",
          name: "size",
          label: "Size",
          options: [
            ["Small", "s"],
            ["Large", "l"],
          ],
        },
        { type: "text", name: "name", label: "Your name" },
      ];
      const meta = () => Promise.resolve(Response.json({ name: "Settings", description: "", config: { fields } }));
      const publication = (await openPublication("settings", path.resolve(builtSite("basic"))))!;
      const o = { ...(stateSetup(own) as StateSetup), origin: "http://127.0.0.1:1", slug: "settings" };
      const more = { client: "192.0.2.71", printKeys: sirius.policy, publication, fetch: meta };
      const url = "http://127.0.0.1:1/settings/subscribe/";
      const form = await (await subscribeRequest(new Request(url), { ...o, ...more })).text();
      expect(form).toContain('<option value="en" selected>English</option>');
      expect(form).toContain('<option value="fr">Français</option>');
      expect(form).toContain('<input type="radio" name="config.size" value="s" checked> Small');
      expect(form).toContain('<input id="setting-name" name="config.name" type="text" value="">');
      // without the built publication (its index), meta.json alone has no defaults: the first option
      const bare = await (await subscribeRequest(new Request(url), { ...o, ...more, publication: undefined })).text();
      expect(bare).toContain('<option value="fr" selected>Français</option>');
    } finally {
      own.remove();
    }
  });
});
