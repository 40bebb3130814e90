// `npm start`'s server: static files and the functions, routed by netlify.toml,
// against the example publications (test/fixtures/examples).
import { describe, expect, it } from "vitest";
import { withServer } from "../helpers/server.ts";

const server = withServer("examples");

const get = (path: string, init?: RequestInit) =>
  fetch(server.url + path, { ...init, signal: AbortSignal.timeout(10_000) });

describe("the local server", () => {
  it("binds 127.0.0.1", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(["lighthouse", "almanac", "good-morning"])(
    "serves /%s/meta.json as JSON with the spec's fields",
    async (slug) => {
      const res = await get(`/${slug}/meta.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const meta = (await res.json()) as Record<string, unknown>;
      expect(
        Object.keys(meta)
          .filter((k) => k !== "config")
          .sort(),
      ).toEqual([
        "delivered_on",
        "description",
        "external_configuration",
        "name",
        "owner_email",
        "publication_api_version",
        "send_delivery_count",
        "send_timezone_info",
      ]);
      expect(meta.publication_api_version).toBe("1.0");
    },
  );

  it("serves the serial's editions by delivery_count, then 410", async () => {
    const meta = (await (await get("/lighthouse/meta.json")).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ send_delivery_count: true, send_timezone_info: false });
    const first = await get("/lighthouse/edition/?delivery_count=0");
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toMatch(/^"0-[0-9a-f]{16}"$/);
    expect(await first.text()).toContain("Part 1");
    const last = await get("/lighthouse/edition?delivery_count=6");
    expect(await last.text()).toContain("The end.");
    const over = await get("/lighthouse/edition/?delivery_count=7");
    expect(over.status).toBe(410);
    expect(await over.text()).toBe("");
  });

  it("serves the almanac by the printer's local date, 204 on Sundays", async () => {
    const meta = (await (await get("/almanac/meta.json")).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ send_delivery_count: false, send_timezone_info: true });
    const monday = await get(
      `/almanac/edition/?local_delivery_time=${encodeURIComponent("2026-11-23T06:00:00-08:00")}`,
    );
    expect(monday.status).toBe(200);
    expect(await monday.text()).toContain("Monday 23 November");
    const sunday = await get(
      `/almanac/edition/?local_delivery_time=${encodeURIComponent("2026-11-22T06:00:00+01:00")}`,
    );
    expect(sunday.status).toBe(204);
  });

  it("prints two identical almanac days with two ETags", async () => {
    const day = (d: string) => get(`/almanac/edition/?local_delivery_time=${d}T06:00:00Z`);
    const [a, b] = await Promise.all([day("2026-12-11"), day("2026-12-12")]);
    expect(await a.text()).toBe(await b.text());
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
  });

  it("validates settings and serves per-subscriber editions", async () => {
    const post = (config: object) =>
      get("/good-morning/validate_config/", {
        method: "POST",
        body: new URLSearchParams({ config: JSON.stringify(config) }),
      });
    expect(await (await post({ lang: "fr", name: "Ada" })).json()).toEqual({ valid: true });
    expect(await (await post({ lang: "de" })).json()).toEqual({
      valid: false,
      errors: ["Language: choose English, Français or Español."],
    });
    const res = await get(
      `/good-morning/edition/?local_delivery_time=2026-11-22T07:00:00Z&lang=fr&name=${encodeURIComponent("<Ada>")}`,
    );
    expect(await res.text()).toContain("Bon dimanche, &lt;Ada&gt; !");
  });

  it("keeps the functions' data private and stays inside the site", async () => {
    expect((await get("/_littlepress/lighthouse/index.json")).status).toBe(404);
    expect((await get("/../package.json")).status).toBe(404);
    expect((await get("/%2e%2e/package.json")).status).toBe(404);
    expect((await get("/nothing-here")).status).toBe(404);
  });
});
