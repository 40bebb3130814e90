// The local server routes /edition/ and /sample/ through the Hono app to the
// very function Netlify runs: over HTTP it must give the same status, headers
// and bytes as the function called directly, with Netlify's context (the
// route's `:slug` in context.params).
import path from "node:path";
import { describe, expect, it } from "vitest";
import edition from "../../functions/edition.mts";
import sample from "../../functions/sample.mts";
import { withServer } from "../helpers/server.ts";
import { builtSite } from "../helpers/sites.ts";

const server = withServer("examples");
const context = { littlepress: { site: path.resolve(builtSite("examples")) } };

const HEADERS = [
  "etag",
  "content-type",
  "content-length",
  "cache-control",
  "netlify-cdn-cache-control",
  "x-littlepress-reason",
];

const many = Array.from({ length: 70 }, (_, i) => `p${i}=1`).join("&");
const REQUESTS: [string, string][] = [
  ["GET", "/lighthouse/edition/?delivery_count=0"],
  ["GET", "/lighthouse/edition?delivery_count=3"],
  ["HEAD", "/lighthouse/edition/?delivery_count=3"],
  ["GET", "/lighthouse/edition/?delivery_count=6"],
  ["GET", "/lighthouse/edition/?delivery_count=7"], // past the end: 410
  ["GET", "/lighthouse/edition/?delivery_count=-1"],
  ["GET", "/lighthouse/edition/?delivery_count=x%ZZ"],
  ["GET", "/lighthouse/edition/"],
  ["GET", "/almanac/edition/?local_delivery_time=2026-11-20T06:00:00%2B01:00"],
  ["GET", "/almanac/edition/?local_delivery_time=2027-05-01T06:00:00-05:00"],
  ["GET", "/good-morning/edition/?lang=fr&name=%3Cb%3EL%C3%A9a%3C%2Fb%3E&local_delivery_time=2026-11-20T06:00:00Z"],
  ["GET", "/good-morning/edition/?lang=xx&local_delivery_time=2026-11-20T06:00:00Z"],
  ["GET", "/good-morning/sample/?lang=es"],
  ["HEAD", "/almanac/sample/"],
  ["GET", "/nowhere/edition/?delivery_count=0"],
  ["GET", "/edition/?delivery_count=0"], // no publication at the root of this site
  ["GET", `/lighthouse/edition/?${many}`],
];

describe("the local server against the function Netlify runs", () => {
  it.each(REQUESTS)("%s %s: the same status, headers and bytes", async (method, target) => {
    const url = server.url + target;
    const served = await fetch(url, { method, signal: AbortSignal.timeout(10_000) });
    const handler = target.includes("/sample") ? sample : edition;
    const slug = /^\/([^/?]+)\/(edition|sample)/.exec(target)?.[1];
    const direct = await handler(new Request(url, { method }), { ...context, params: slug ? { slug } : {} });
    expect(served.status).toBe(direct.status);
    for (const name of HEADERS) expect([name, served.headers.get(name)]).toEqual([name, direct.headers.get(name)]);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals(Buffer.from(await direct.arrayBuffer()))).toBe(true);
    if (method === "GET" && served.status === 200) expect(bytes.length).toBeGreaterThan(100);
  });
});
