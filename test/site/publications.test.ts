// Your publications, built and served as the printer platform will meet them:
// every folder of content/ builds, and answers its meta.json, its sample, and
// /edition/ for a first delivery now (200 with an ETag, 204 or 410, nothing
// else). `npm run verify` goes further: every edition, every variant, the
// conformance checker and the print preview.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startServer, type LocalServer } from "littlepress/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const slugs = readdirSync("content", { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

let work: string;
let server: LocalServer;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "site-test-"));
  const site = path.join(work, "_site");
  await run(path.resolve("node_modules/.bin/littlepress"), ["build", "--content", "content", "--output", site], {
    timeout: 120_000,
  });
  server = await startServer({
    port: 0,
    siteDir: site,
    stateDir: path.join(work, "state"),
    keyFile: path.join(work, "seal.key"),
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

it("has publications in content/", () => {
  expect(slugs.length).toBeGreaterThan(0);
});

describe.each(slugs)("content/%s", (slug) => {
  it("serves its meta.json, with a name and a description", async () => {
    const response = await fetch(`${server.url}/${slug}/meta.json`);
    expect(response.status).toBe(200);
    const meta = (await response.json()) as { name?: string; description?: string };
    expect(meta.name).toBeTruthy();
    expect(meta.description).toBeTruthy();
  });

  it("serves its sample as a printable page", async () => {
    const response = await fetch(`${server.url}/${slug}/sample/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("answers a first delivery with 200 and an ETag, or 204, or 410", async () => {
    const now = new Date().toISOString().slice(0, 19);
    const query = new URLSearchParams({ delivery_count: "0", local_delivery_time: `${now}+00:00` });
    const response = await fetch(`${server.url}/${slug}/edition/?${query.toString()}`);
    expect([200, 204, 410]).toContain(response.status);
    if (response.status === 200) {
      expect(response.headers.get("etag")).toMatch(/^"/);
      expect(await response.text()).toMatch(/<html/i);
    }
  });
});
