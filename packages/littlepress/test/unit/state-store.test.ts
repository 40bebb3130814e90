// Both state stores, with the same tests: the file store (npm start, tests)
// and the Netlify Blobs store, against Netlify's own local Blobs server.
import { BlobsServer } from "@netlify/blobs/server";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobsStore } from "../../lib/platform/blobs-store.ts";
import { fileStore, type StateStore } from "../../lib/platform/state-store.ts";

const folder = mkdtempSync(path.join(tmpdir(), "littlepress-store-"));
const server = new BlobsServer({ directory: path.join(folder, "blobs"), token: "test-token" });
let blobs: StateStore;

beforeAll(async () => {
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  blobs = blobsStore({ siteID: "test-site", token: "test-token", edgeURL: url, uncachedEdgeURL: url });
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

const stores: [string, () => StateStore][] = [
  ["file store", () => fileStore(path.join(folder, "files"))],
  ["Netlify Blobs store", () => blobs],
];

describe.each(stores)("%s", (_, store) => {
  it("creates a key once: a second create is refused and the first value stays", async () => {
    const s = store();
    expect(await s.create("deliveries/a/2026-11-22", { n: 1 })).toBe(true);
    expect(await s.create("deliveries/a/2026-11-22", { n: 2 })).toBe(false);
    expect((await s.get<{ n: number }>("deliveries/a/2026-11-22"))?.value).toEqual({ n: 1 });
  });

  it("lists by prefix and deletes", async () => {
    const s = store();
    await s.put("list/a", 1);
    await s.put("list/b/c", 2);
    await s.put("other/d", 3);
    expect((await s.list("list/")).sort()).toEqual(["list/a", "list/b/c"]);
    await s.delete("list/a");
    expect(await s.get("list/a")).toBeUndefined();
    expect(await s.list("list/")).toEqual(["list/b/c"]);
  });

  it("lists the folders one level under a prefix, by name", async () => {
    const s = store();
    for (const key of ["tree/a/1", "tree/a/2", "tree/b/c/3", "tree/d"]) await s.put(key, 1);
    expect((await s.folders("tree/")).sort()).toEqual(["a", "b"]);
    expect(await s.folders("tree/b/")).toEqual(["c"]);
    expect(await s.folders("nothing/")).toEqual([]);
  });

  it("refuses keys that are not plain paths", async () => {
    await expect(store().get("../escape")).rejects.toThrow(/not a store key/);
    await expect(store().put("a//b", 1)).rejects.toThrow(/not a store key/);
  });
});

describe("file store versions", () => {
  it("replaces only from the version read: a stale version is refused", async () => {
    const s = fileStore(path.join(folder, "files"));
    await s.put("subscriptions/x", { count: 0 });
    const read = (await s.get<{ count: number }>("subscriptions/x"))!;
    expect(await s.replace("subscriptions/x", { count: 1 }, read.version)).toBe(true);
    expect(await s.replace("subscriptions/x", { count: 2 }, read.version)).toBe(false);
    expect((await s.get("subscriptions/x"))?.value).toEqual({ count: 1 });
    expect(await s.replace("subscriptions/gone", { count: 1 }, read.version)).toBe(false);
  });

  it("writes again after its folder was removed behind its back (folders are made once, then on demand)", async () => {
    const root = path.join(folder, "removed");
    const s = fileStore(root);
    await s.put("deliveries/a/2026-01-01", { n: 1 });
    rmSync(root, { recursive: true, force: true });
    expect(await s.create("deliveries/a/2026-01-02", { n: 2 })).toBe(true);
    await s.put("deliveries/a/2026-01-01", { n: 3 });
    expect((await s.list("deliveries/a/")).sort()).toEqual(["deliveries/a/2026-01-01", "deliveries/a/2026-01-02"]);
    expect(await s.list("subscriptions/")).toEqual([]);
  });

  it("removes the folders a delete empties, and makes them again for the next write", async () => {
    const root = path.join(folder, "emptied");
    const s = fileStore(root);
    await s.put("limits/subscribe/2026-01-01T05/abc", 1);
    await s.put("limits/subscribe/2026-01-01T06/abc", 1);
    await s.delete("limits/subscribe/2026-01-01T05/abc");
    expect(readdirSync(path.join(root, "limits", "subscribe"))).toEqual(["2026-01-01T06"]);
    await s.delete("limits/subscribe/2026-01-01T06/abc");
    expect(readdirSync(root)).toEqual([]);
    expect(await s.create("limits/subscribe/2026-01-01T06/abc", 2)).toBe(true);
    await s.put("limits/subscribe/2026-01-01T06/def", 3);
    expect((await s.list("limits/")).sort()).toEqual([
      "limits/subscribe/2026-01-01T06/abc",
      "limits/subscribe/2026-01-01T06/def",
    ]);
  });
});

describe("Netlify Blobs store without versions", () => {
  // Netlify's local Blobs server answers reads without an ETag (the service
  // sends one): a replace from such a read must not turn into a blind write.
  it("refuses a replace that has no version to hold it to", async () => {
    await blobs.put("versionless/a", { n: 0 });
    const read = (await blobs.get("versionless/a"))!;
    expect(read.version).toBe("");
    expect(await blobs.replace("versionless/a", { n: 1 }, read.version)).toBe(false);
    expect((await blobs.get("versionless/a"))?.value).toEqual({ n: 0 });
  });
});

describe("file store under overlapping writers", () => {
  // Netlify's service makes onlyIfNew atomic; its local emulator checks, then
  // writes (two steps), so only the file store is raced here.
  it("lets exactly one of many simultaneous creates of a key win", async () => {
    const s = fileStore(path.join(folder, "race"));
    const wins = await Promise.all(Array.from({ length: 16 }, (_, i) => s.create("race/one", { i })));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it("lets exactly one of many simultaneous replaces from one version win", async () => {
    const s = fileStore(path.join(folder, "race"));
    await s.put("race/two", { n: 0 });
    const { version } = (await s.get("race/two"))!;
    const wins = await Promise.all(Array.from({ length: 16 }, (_, i) => s.replace("race/two", { n: i + 1 }, version)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});
