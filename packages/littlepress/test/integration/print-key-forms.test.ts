// Print keys as sirius's printers show them (issue 50), over real HTTP on
// loopback: `https://device.li/<key>` (sirius's device-key domain) as well as
// `<host>/printkey/<key>`, either with a trailing slash pasted, and a printer
// that is offline when its owner subscribes. device.li is resolved to
// 127.0.0.1 by a resolver of the test's (nameOnLoopback): nothing leaves
// loopback. The fake sirius answers a key at /<key> as at /printkey/<key>, and
// knows no key with a trailing slash, as sirius does.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRINT_KEY_ORIGINS, openPrintKey } from "../../lib/model/print-key.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { askPrintKey, type PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";
import { postToPrinter } from "../../lib/platform/printers/print-key-post.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { subscribeRequest } from "../../lib/platform/subscribing/subscribe.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { tempLocalState, type LocalState } from "../helpers/local-state.ts";
import { nameOnLoopback, startPrintKeys, type FakePrintKeys } from "../helpers/print-keys.ts";
import { builtSite } from "../helpers/sites.ts";

let site: LocalServer;
let sirius: FakePrintKeys;
let local: LocalState;
let state: StateSetup;

beforeAll(async () => {
  local = tempLocalState("print-key-forms");
  sirius = await startPrintKeys({
    kitchen1: { name: "Kitchen", owner: "Ada", online: true },
    attic3: { name: "Attic", owner: "Ada", online: false },
  });
  site = await startServer({ port: 0, siteDir: builtSite("basic"), stateDir: local.folder, keyFile: local.keyFile });
  state = stateSetup(local) as StateSetup;
});
afterAll(async () => {
  await site.close();
  await sirius.close();
  local.remove();
});

/** The fake sirius as device.li, on its port: listed as private, since the resolver answers loopback. */
function asDeviceLi(): { origin: string; policy: PrintKeyPolicy; asked: string[] } {
  const origin = `http://device.li:${new URL(sirius.url).port}`;
  const { lookup, asked } = nameOnLoopback("device.li");
  return { origin, policy: { allowed: [{ origin, private: true }], lookup }, asked };
}

let clients = 0;
/**
 * The subscribe form for serial, sent to its handler under `printKeys`, from a
 * new client each time; with the print key URL of the subscription it made, opened.
 */
async function subscribe(printKeys: PrintKeyPolicy, printKey: string) {
  const before = new Set(await state.store.list("subscriptions/"));
  const req = new Request(`${site.url}/serial/subscribe/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ action: "subscribe", print_key: printKey, zone: "UTC", hour: "6" }),
  });
  const client = `2001:db8:${(++clients).toString(16)}::1`;
  const res = await subscribeRequest(req, { ...state, origin: site.url, slug: "serial", client, printKeys });
  const made = (await state.store.list("subscriptions/")).filter((k) => !before.has(k));
  const sub = made.length === 1 ? (await state.store.get<Subscription>(made[0]!))!.value : undefined;
  const kept = sub && openPrintKey(sub.printKey, state.sealKey).href;
  return { status: res.status, body: await res.text(), sub, kept };
}

describe("a key on sirius's device-key domain (https://device.li/<key>)", () => {
  it("subscribes, and prints at the very URL shown, with from", async () => {
    const deviceLi = asDeviceLi();
    const page = await subscribe(deviceLi.policy, `${deviceLi.origin}/kitchen1`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Kitchen will print Serial on the days it has an edition at 06:00 (UTC)");
    expect(page.body).not.toContain("offline");
    expect(page.body).not.toContain("kitchen1");
    expect(sirius.requests.at(-1)).toBe("GET /kitchen1");
    expect(deviceLi.asked).toContain("device.li");

    expect(page.kept).toBe(`${deviceLi.origin}/kitchen1`);
    const html = new TextEncoder().encode("<p>Today</p>");
    const o = { sealKey: state.sealKey, printKeys: deviceLi.policy };
    expect(await postToPrinter(o, page.sub!, { bytes: html, type: "text/html; charset=utf-8" }, "Serial")).toBe("sent");
    expect(sirius.requests.at(-1)).toBe("POST /kitchen1");
    expect(sirius.prints.at(-1)).toMatchObject({ key: "kitchen1", from: "Serial", body: "<p>Today</p>" });
  });

  it("is on the default allow-list: looked up, and refused only because device.li is at loopback here", async () => {
    const { lookup, asked } = nameOnLoopback("device.li");
    const policy = { allowed: DEFAULT_PRINT_KEY_ORIGINS, lookup };
    expect(await askPrintKey(new URL("https://device.li/kitchen1"), { method: "GET" }, policy)).toEqual({
      refused: "the name resolves to a private address",
    });
    expect(asked).toEqual(["device.li"]);
    const page = await subscribe(policy, "https://device.li/kitchen1");
    expect(page.status).toBe(400);
    expect(page.body).toContain("It takes print keys from littleprinter.nordprojects.co, device.li,");
  });
});

describe("a print key pasted with a trailing slash", () => {
  it.each([
    ["device.li", (o: string) => `${o}/kitchen1/`, "http://device.li:PORT/kitchen1"],
    ["/printkey/", (o: string) => `${o}/printkey/kitchen1/`, "http://127.0.0.1:PORT/printkey/kitchen1"],
  ])("%s: the slash is taken off, so sirius knows the key; kept and posted to without it", async (form, key, kept) => {
    const deviceLi = asDeviceLi();
    const [origin, policy] = form === "device.li" ? [deviceLi.origin, deviceLi.policy] : [sirius.url, sirius.policy];
    const page = await subscribe(policy, key(origin));
    expect(page.status).toBe(200);
    expect(page.body).toContain("Kitchen will print Serial");
    const expected = kept.replace("PORT", new URL(sirius.url).port);
    expect(page.kept).toBe(expected);
    expect(sirius.requests.at(-1)).toBe(`GET ${new URL(expected).pathname}`);
  });
});

describe("a printer offline when its owner subscribes", () => {
  it("is subscribed, and the page says it is offline now and will print once it is back", async () => {
    const page = await subscribe(sirius.policy, sirius.keyUrl("attic3"));
    expect(page.status).toBe(200);
    expect(page.body).toContain("Attic will print Serial on the days it has an edition at 06:00 (UTC)");
    expect(page.body).toContain("Attic is offline just now: it will print Serial once it is back online.");
  });

  it("also when the key's check answers 504 failed-offline, which names no printer", async () => {
    const offline = createServer((_req, res) => {
      res.writeHead(504, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ status: "failed-offline" }));
    });
    await new Promise<void>((resolve) => offline.listen(0, "127.0.0.1", resolve));
    try {
      const origin = `http://127.0.0.1:${(offline.address() as AddressInfo).port}`;
      const page = await subscribe({ allowed: [{ origin, private: true }] }, `${origin}/printkey/away5`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("Your printer is offline just now: it will print Serial once it is back online.");
      expect(page.kept).toBe(`${origin}/printkey/away5`);
    } finally {
      offline.closeAllConnections();
      await new Promise((resolve) => offline.close(resolve));
    }
  });
});
