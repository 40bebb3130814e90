// The state store's contract: what every store the kit runs on must do, as
// tests. test/unit/state-store.test.ts runs it for the file store and for the
// Netlify Blobs store (against a stand-in for Blobs that keeps Netlify's
// documented promises: test/helpers/blobs-stand-in.ts says why not Netlify's
// own local server). The delivery runs' claims rest on `create` and `replace`.
import { expect, it } from "vitest";
import type { StateStore } from "../../lib/platform/stores/state-store.ts";

export function stateStoreContract(store: () => StateStore): void {
  it("creates a key once: a second create is refused and the first value stays", async () => {
    const s = store();
    expect(await s.create("deliveries/a/2026-11-22", { n: 1 })).toBe(true);
    expect(await s.create("deliveries/a/2026-11-22", { n: 2 })).toBe(false);
    expect((await s.get<{ n: number }>("deliveries/a/2026-11-22"))?.value).toEqual({ n: 1 });
  });

  it("replaces only from the version read: a stale version, a gone key and no version are refused", async () => {
    const s = store();
    await s.put("subscriptions/x", { count: 0 });
    const read = (await s.get<{ count: number }>("subscriptions/x"))!;
    expect(read.version).not.toBe("");
    expect(await s.replace("subscriptions/x", { count: 1 }, read.version)).toBe(true);
    expect(await s.replace("subscriptions/x", { count: 2 }, read.version)).toBe(false);
    expect((await s.get("subscriptions/x"))?.value).toEqual({ count: 1 });
    expect(await s.replace("subscriptions/gone", { count: 1 }, read.version)).toBe(false);
    expect(await s.get("subscriptions/gone")).toBeUndefined();
    expect(await s.replace("subscriptions/x", { count: 3 }, "")).toBe(false);
    expect((await s.get("subscriptions/x"))?.value).toEqual({ count: 1 });
  });

  // A claim is taken with createVersioned, and settled from the version it answers without reading it back.
  it("answers a create's version, which a replace can go on from; none when the key was there", async () => {
    const s = store();
    const version = await s.createVersioned("claims/a", { by: 1 });
    expect(version).toBeTruthy();
    expect(version).toBe((await s.get("claims/a"))!.version);
    expect(await s.createVersioned("claims/a", { by: 2 })).toBeUndefined();
    expect(await s.replace("claims/a", { by: 1, done: true }, version!)).toBe(true);
    expect(await s.replace("claims/a", { by: 3 }, version!)).toBe(false);
    expect((await s.get("claims/a"))?.value).toEqual({ by: 1, done: true });
  });

  it("gives every write a new version, even writes within the same millisecond", async () => {
    const s = store();
    await s.put("versions/a", { n: 0 });
    const seen = new Set<string>();
    let { version } = (await s.get("versions/a"))!;
    seen.add(version);
    for (let n = 1; n <= 5; n++) {
      expect(await s.replace("versions/a", { n }, version)).toBe(true);
      ({ version } = (await s.get("versions/a"))!);
      expect(seen.has(version)).toBe(false);
      seen.add(version);
    }
    expect((await s.get("versions/a"))?.value).toEqual({ n: 5 });
  });

  it("lists by prefix and deletes (a missing key's delete is no error)", async () => {
    const s = store();
    await s.put("list/a", 1);
    await s.put("list/b/c", 2);
    await s.put("other/d", 3);
    expect((await s.list("list/")).sort()).toEqual(["list/a", "list/b/c"]);
    await s.delete("list/a");
    await s.delete("list/never");
    expect(await s.get("list/a")).toBeUndefined();
    expect(await s.list("list/")).toEqual(["list/b/c"]);
    expect(await s.create("list/a", 4)).toBe(true);
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
    await expect(store().create("a/../b", 1)).rejects.toThrow(/not a store key/);
  });

  it("lets exactly one of many simultaneous creates of a key win", async () => {
    const s = store();
    const wins = await Promise.all(Array.from({ length: 16 }, (_, i) => s.create("race/one", { i })));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const winner = wins.indexOf(true);
    expect((await s.get("race/one"))?.value).toEqual({ i: winner });
  });

  it("lets exactly one of many simultaneous replaces from one version win", async () => {
    const s = store();
    await s.put("race/two", { n: 0 });
    const { version } = (await s.get("race/two"))!;
    const wins = await Promise.all(Array.from({ length: 16 }, (_, i) => s.replace("race/two", { n: i + 1 }, version)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect((await s.get("race/two"))?.value).toEqual({ n: wins.indexOf(true) + 1 });
  });
}
