// The subscribe page's limits under attack, over real HTTP on the local server
// (issue 36): the cap holds when subscribes arrive at the same moment, the
// rate limit counts an IPv6 client by its /64, and an unsubscribe link works on
// its own publication's page only. The server stands behind a proxy on
// loopback, so that each request can be another client (X-Forwarded-For).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utcHourOf } from "../../lib/model/dates.ts";
import { siteDataDir, SITE_INDEX } from "../../lib/model/site-paths.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { tempLocalState, type LocalState } from "../helpers/local-state.ts";
import { startPrintKeys, type FakePrintKeys } from "../helpers/print-keys.ts";
import { builtSite } from "../helpers/sites.ts";

let server: LocalServer;
let sirius: FakePrintKeys;
let local: LocalState;
let state: StateSetup;
let functionSite: string;

beforeAll(async () => {
  local = tempLocalState("subscribe-limits");
  sirius = await startPrintKeys({ kitchen1: { name: "Kitchen", owner: "Ada", online: true } });
  // The functions read a copy of the site's data whose site.json caps each publication at 2.
  functionSite = path.join(mkdtempSync(path.join(tmpdir(), "littlepress-capped-")), "site");
  cpSync(siteDataDir(builtSite("basic")), siteDataDir(functionSite), { recursive: true });
  const index = path.join(siteDataDir(functionSite), SITE_INDEX);
  const site = JSON.parse(readFileSync(index, "utf8")) as Record<string, unknown>;
  writeFileSync(index, JSON.stringify({ ...site, maxSubscriptions: 2 }));
  server = await startServer({
    port: 0,
    siteDir: builtSite("basic"),
    functionSite,
    stateDir: local.folder,
    keyFile: local.keyFile,
    printKeyOrigins: sirius.allowed,
    trustProxy: ["loopback"],
  });
  state = stateSetup(local) as StateSetup;
});
afterAll(async () => {
  await server.close();
  await sirius.close();
  local.remove();
  rmSync(path.dirname(functionSite), { recursive: true, force: true });
});

const post = (slug: string, fields: Record<string, string>, client: string) =>
  fetch(`${server.url}/${slug}/subscribe/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client },
    body: new URLSearchParams(fields),
  });
const good = (over: Record<string, string> = {}) => ({
  action: "subscribe",
  print_key: sirius.keyUrl("kitchen1"),
  zone: "Europe/London",
  hour: "8",
  ...over,
});
const storedOf = async (slug: string) =>
  (
    await Promise.all(
      (await state.store.list("subscriptions/")).map(async (k) => (await state.store.get<Subscription>(k))?.value),
    )
  ).filter((s) => s?.slug === slug);
const linkIn = (page: string) => {
  const [, id, token] = /unsubscribe=([\w-]+)\.([\w-]+)/.exec(page)!;
  return { action: "unsubscribe", id: id!, token: token! };
};

describe("the cap on subscriptions, under subscribes at the same moment", () => {
  it("lets exactly max_subscriptions in, refuses the others with 409, and an unsubscribe frees a place", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post("daily", good(), `203.0.113.${100 + i}`)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409, 409, 409, 409, 409]);
    const pages = await Promise.all(answers.map((r) => r.text()));
    expect(pages.filter((p) => p.includes("<h1>This publication is full</h1>"))).toHaveLength(8);
    expect(await storedOf("daily")).toHaveLength(2);
    expect((await state.store.list("seats/daily/")).sort()).toEqual(["seats/daily/0", "seats/daily/1"]);

    // still full, at once and after a try that fails on its print key
    expect((await post("daily", good(), "203.0.113.120")).status).toBe(409);
    const bye = await post("daily", linkIn(pages.find((p) => p.includes("unsubscribe="))!), "203.0.113.121");
    expect(bye.status).toBe(200);
    expect(await storedOf("daily")).toHaveLength(1);
    // a subscribe that fails after taking the place gives it back
    const refused = await post("daily", good({ print_key: sirius.keyUrl("nobody") }), "203.0.113.122");
    expect(refused.status).toBe(400);
    expect(await state.store.list("seats/daily/")).toHaveLength(1);
    const again = await Promise.all([1, 2, 3].map((i) => post("daily", good(), `203.0.113.${130 + i}`)));
    expect(again.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await storedOf("daily")).toHaveLength(2);
  });
});

describe("the rate limit, against many addresses of one client", () => {
  it("counts the addresses of one IPv6 /64 as one client, and a refused try writes nothing", async () => {
    const hour = `limits/subscribe/${utcHourOf(new Date())}/`;
    const before = (await state.store.list(hour)).length;
    const statuses: number[] = [];
    // 200 addresses in 2001:db8:36:4::/64, each once; the form is refused (no hour) after it is counted
    for (let i = 1; i <= 200; i++)
      statuses.push((await post("serial", good({ hour: "x" }), `2001:db8:36:4:${i.toString(16)}::${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array<number>(10).fill(400));
    expect(statuses.slice(10)).toEqual(Array<number>(190).fill(429));
    // one counter for the /64, however many addresses tried and were refused
    expect((await state.store.list(hour)).length).toBe(before + 1);
    // another /64 is another client
    expect((await post("serial", good({ hour: "x" }), "2001:db8:36:5::1")).status).toBe(400);
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address", async () => {
    for (let i = 0; i < 5; i++) expect((await post("serial", good({ hour: "x" }), "198.51.100.36")).status).toBe(400);
    for (let i = 0; i < 5; i++)
      expect((await post("serial", good({ hour: "x" }), "::ffff:198.51.100.36")).status).toBe(400);
    expect((await post("serial", good({ hour: "x" }), "198.51.100.36")).status).toBe(429);
  });
});

describe("an unsubscribe link", () => {
  it("is refused on another publication's page, changing nothing, and works on its own", async () => {
    const made = await post("serial", good(), "192.0.2.36");
    expect(made.status).toBe(200);
    const link = linkIn(await made.text());
    const elsewhere = await post("daily", link, "192.0.2.37");
    expect(elsewhere.status).toBe(404);
    const page = await elsewhere.text();
    expect(page).toContain("This unsubscribe link is for another publication, not Daily; nothing was changed.");
    expect(page).not.toContain("will not print");
    expect(await storedOf("serial")).toHaveLength(1);
    expect(await storedOf("daily")).toHaveLength(2);
    expect(await state.store.list("live/serial/")).toHaveLength(1);

    const home = await post("serial", link, "192.0.2.37");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Your printer will not print Serial any more.");
    expect(await storedOf("serial")).toHaveLength(0);
  });
});
