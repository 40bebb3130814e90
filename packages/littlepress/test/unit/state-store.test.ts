// Both state stores, with the same contract (test/helpers/state-store-contract.ts):
// the file store (npm start, tests) and the Netlify Blobs store, against a
// stand-in for Blobs that keeps Netlify's documented promises; and why not
// against Netlify's own local Blobs server.
import { BlobsServer } from "@netlify/blobs/server";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobsStore } from "../../lib/platform/stores/blobs-store.ts";
import { fileStore, type StateStore } from "../../lib/platform/stores/state-store.ts";
import { startBlobsStandIn, type BlobsStandIn } from "../helpers/blobs-stand-in.ts";
import { stateStoreContract } from "../helpers/state-store-contract.ts";

const folder = mkdtempSync(path.join(tmpdir(), "littlepress-store-"));
const server = new BlobsServer({ directory: path.join(folder, "blobs"), token: "test-token" });
let standIn: BlobsStandIn;
let blobs: StateStore;
let netlify: StateStore;

beforeAll(async () => {
  standIn = await startBlobsStandIn();
  blobs = blobsStore({ ...standIn, edgeURL: standIn.url, uncachedEdgeURL: standIn.url });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  netlify = blobsStore({ siteID: "test-site", token: "test-token", edgeURL: url, uncachedEdgeURL: url });
});
afterAll(async () => {
  await standIn.stop();
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

const stores: [string, () => StateStore][] = [
  ["the file store", () => fileStore(path.join(folder, "files"))],
  ["the Netlify Blobs store (on a stand-in for Blobs)", () => blobs],
];

describe("the file store on a disk that refuses", () => {
  it("lists nothing where no key was written, and throws where a folder cannot be read", async () => {
    const root = path.join(folder, "refusing");
    mkdirSync(root, { recursive: true });
    const store = fileStore(root);
    expect(await store.list("subscriptions/")).toEqual([]);
    expect(await store.folders("slots/")).toEqual([]);
    // A folder that loops on itself: reading it fails (ELOOP), as a disk that refuses would.
    symlinkSync("subscriptions", path.join(root, "subscriptions"));
    await expect(store.list("subscriptions/")).rejects.toMatchObject({ code: "ELOOP" });
    symlinkSync("slots", path.join(root, "slots"));
    await expect(store.folders("slots/")).rejects.toMatchObject({ code: "ELOOP" });
  });
});

describe.each(stores)("%s keeps the state store's contract", (_, store) => {
  stateStoreContract(store);
});

describe("file store folders", () => {
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

describe("Netlify's own local Blobs server (why the contract runs against a stand-in)", () => {
  // @netlify/blobs' BlobsServer, in the version installed (the same code as
  // the newest, 11.1.1), does not keep the promises the claims rest on. Should
  // one of these start failing, the server has caught up: run the contract
  // against it (test/helpers/blobs-stand-in.ts).
  it("answers reads without an ETag, so the store refuses a replace rather than write blindly", async () => {
    await netlify.put("versionless/a", { n: 0 });
    const read = (await netlify.get("versionless/a"))!;
    expect(read.version).toBe("");
    expect(await netlify.replace("versionless/a", { n: 1 }, read.version)).toBe(false);
    expect((await netlify.get("versionless/a"))?.value).toEqual({ n: 0 });
  });

  it("checks onlyIfNew, then writes, in two steps: simultaneous creates can both win", async () => {
    let both = 0;
    for (let i = 0; i < 20 && both === 0; i++) {
      const wins = await Promise.all(Array.from({ length: 16 }, (_, n) => netlify.create(`race/new-${i}`, { n })));
      if (wins.filter(Boolean).length > 1) both++;
    }
    expect(both).toBeGreaterThan(0);
  });
});
