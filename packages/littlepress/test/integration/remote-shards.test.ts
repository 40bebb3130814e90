// Shards past the function bundle's budget: published as static files and
// fetched by the edition function from the site's own address. The site is
// built with a budget of a few bytes, so every shard is remote (and sealed);
// the function then runs on a copy of the site that holds only what Netlify
// bundles with it (the data beside the site), while the local server serves
// the whole site.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as edition from "../../functions/edition.mts";
import { callFunction } from "../helpers/handlers.ts";
import { decodeShard, openSealedShard, shardDictionary, type PublicationIndex } from "../../lib/model/shard.ts";
import { PUBLIC_SHARDS_DIR, publicationDataDir, siteDataDir } from "../../lib/model/site-paths.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { buildSite } from "../helpers/build-sites.ts";
import { EXAMPLES } from "../helpers/sites.ts";

const ROOT = path.resolve(".test-work", `remote-shards-${process.pid}`);
const FULL = path.join(ROOT, "_site");
const BUNDLED = path.join(ROOT, "bundled");
let server: LocalServer;
/** The functions see only their bundle. */
const bundled = { littlepress: { site: BUNDLED } };

const index = (slug: string) =>
  JSON.parse(readFileSync(path.join(publicationDataDir(FULL, slug), "index.json"), "utf8")) as PublicationIndex;

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  await buildSite(EXAMPLES, FULL, { bundleBudget: 10 });
  cpSync(siteDataDir(FULL), siteDataDir(BUNDLED), { recursive: true });
  server = await startServer({ port: 0, siteDir: FULL, functionSite: BUNDLED });
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(ROOT, { recursive: true, force: true });
});

describe("a site whose shards do not fit in the function bundle", () => {
  it("publishes them under /_littlepress-shards/ with a content hash, and the index says where", async () => {
    const ranges = index("lighthouse").shards;
    expect(ranges.length).toBeGreaterThan(0);
    for (const r of ranges) {
      expect(r.remote).toMatch(new RegExp(`^/${PUBLIC_SHARDS_DIR}/lighthouse/${r.id}-[0-9a-f]{16}\\.shard$`));
      expect(existsSync(path.join(publicationDataDir(BUNDLED, "lighthouse"), "shards"))).toBe(false);
      const res = await fetch(server.url + r.remote);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(path.join(FULL, r.remote!)))).toBe(true);
    }
  });

  it("publishes them sealed: without the key the functions hold, the public bytes give no edition", async () => {
    const ix = index("lighthouse");
    const range = ix.shards[0]!;
    const published = Buffer.from(await (await fetch(server.url + range.remote)).arrayBuffer());
    expect(() => decodeShard(published, shardDictionary(ix))).toThrow();
    expect(published.includes(Buffer.from("Part 1"))).toBe(false);
    expect(() => openSealedShard(published, Buffer.alloc(32))).toThrow();
    // The key is in the functions' data only: nowhere in the published site.
    const key = Buffer.from(ix.sealKey!, "base64");
    const site = readdirSync(FULL, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const e of site) expect(readFileSync(path.join(e.parentPath, e.name)).includes(ix.sealKey!)).toBe(false);
    expect(decodeShard(openSealedShard(published, key), shardDictionary(ix)).keys.length).toBeGreaterThan(0);
  });

  const title = "answers through the local server exactly what the shard holds: the function fetched it from the site";
  it(title, async () => {
    const range = index("lighthouse").shards[0]!;
    const key = Buffer.from(index("lighthouse").sealKey!, "base64");
    const stored = openSealedShard(readFileSync(path.join(FULL, range.remote!)), key);
    const shard = decodeShard(stored, shardDictionary(index("lighthouse")));
    const copy = shard.editions["1"]![""]!;
    const res = await fetch(`${server.url}/lighthouse/edition/?delivery_count=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(copy.etag);
    expect(await res.text()).toBe(shard.bodies[copy.body]);
    expect((await fetch(`${server.url}/lighthouse/edition/?delivery_count=7`)).status).toBe(410);
  });

  it("answers 204, not an error, when the site cannot be reached for a shard", async () => {
    // Nothing listens on port 1; the almanac's shard has not been fetched before.
    const url = "http://127.0.0.1:1/almanac/edition/?local_delivery_time=2026-11-18T07:00:00-05:00";
    const res = await callFunction(edition, new Request(url), bundled);
    expect(res.status).toBe(204);
    expect(res.headers.get("x-littlepress-reason")).toBe("internal fault");
  });

  it("refuses bytes that are not the shard its name promises (a catch-all page, say): 204", async () => {
    const impostor = createServer((_, res) =>
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><p>Welcome!</p>"),
    );
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = impostor.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/good-morning/edition/?local_delivery_time=2026-11-19T07:00:00Z`;
      const res = await callFunction(edition, new Request(url), bundled);
      expect(res.status).toBe(204);
      expect(res.headers.get("x-littlepress-reason")).toBe("internal fault");
    } finally {
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it("keeps the bundle's own files to the indexes", () => {
    expect(existsSync(BUNDLED)).toBe(false);
    const files = readdirSync(siteDataDir(BUNDLED), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    // One index per example publication, and the site's.
    expect(files.sort()).toEqual(["index.json", "index.json", "index.json", "index.json", "site.json"]);
  });
});
