// The home print server answers the home network only: the client's socket
// address decides (never a header), and only Host names that are this
// machine's are answered (DNS rebinding); publication errors land beside the
// field they name.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { homeNetworkOnly, type HomeEnv } from "../../scripts/home/page/guards.ts";
import { errorsByField } from "../../scripts/home/publications.ts";

function app(allowPublic = false) {
  const a = new Hono<HomeEnv>();
  a.use(homeNetworkOnly({ allowPublic, hosts: ["printers.example.org"] }));
  a.get("/", (c) => c.text("ok"));
  return a;
}

const ask = (a: Hono<HomeEnv>, peer: string, host = "192.168.1.2:8631", headers: Record<string, string> = {}) =>
  a.fetch(new Request("http://x/", { headers: { host, ...headers } }), {
    incoming: { socket: { remoteAddress: peer } },
  });

describe("home network only", () => {
  it("answers loopback, private, link-local and unique-local clients", async () => {
    for (const peer of [
      "127.0.0.1",
      "::1",
      "192.168.1.20",
      "10.0.0.3",
      "172.16.4.4",
      "169.254.1.1",
      "fd00::5",
      "::ffff:192.168.1.9",
    ])
      expect((await ask(app(), peer)).status, peer).toBe(200);
  });

  it("refuses public clients, whatever X-Forwarded-For says, unless allowed", async () => {
    const res = await ask(app(), "203.0.113.9", undefined, { "x-forwarded-for": "192.168.1.3" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("home network only");
    expect((await ask(app(), "2a00:1450::1")).status).toBe(403);
    expect((await ask(app(), "8.8.8.8")).status).toBe(403);
    expect((await ask(app(), "100.64.0.1")).status).toBe(403); // carrier-grade NAT: the provider's, not the home's
    expect((await ask(app(true), "203.0.113.9")).status).toBe(200);
  });

  it("answers only this machine's Host names", async () => {
    expect((await ask(app(), "192.168.1.20", "pi.local")).status).toBe(200);
    expect((await ask(app(), "192.168.1.20", "[fd00::1]:8631")).status).toBe(200);
    expect((await ask(app(), "192.168.1.20", "printers.example.org")).status).toBe(200);
    expect((await ask(app(), "192.168.1.20", "rebind.attacker.example")).status).toBe(421);
  });
});

describe("errors beside fields", () => {
  const fields = [
    { type: "text", name: "name", label: "Your name" },
    { type: "select", name: "lang", label: "Language", options: [["English", "en"]] as [string, string][] },
  ];
  it("matches an error to the field whose label (or else name) it names; the rest go above the form", () => {
    const { byField, rest } = errorsByField(fields, ["Your name is too long", "lang: not offered", "Try again later"]);
    expect(byField.get("name")).toEqual(["Your name is too long"]);
    expect(byField.get("lang")).toEqual(["lang: not offered"]);
    expect(rest).toEqual(["Try again later"]);
  });
});
