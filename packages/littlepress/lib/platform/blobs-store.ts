// The state store on Netlify: a Netlify Blobs store, whose conditional writes
// (onlyIfNew, onlyIfMatch on the blob's ETag) give the same guarantees as the
// file store's, across functions running at once. Strong consistency, so a
// run reads what the last one wrote.
import { getStore, type Store } from "@netlify/blobs";
import { checkKey, type StateStore, type Stored } from "./state-store.ts";

/** A Blobs site named explicitly (a deployed function finds its own). */
export interface BlobsSite {
  siteID: string;
  token: string;
  edgeURL: string;
  /** Where strong-consistency reads go. */
  uncachedEdgeURL: string;
}

/** The Blobs store's name on the site. */
export const BLOBS_STORE_NAME = "littlepress-subscriptions";

/**
 * A state store over Netlify Blobs. Inside a deployed function `getStore`
 * finds the site by itself; `options` names another (the tests' local Blobs server).
 */
export function blobsStore(options?: BlobsSite): StateStore {
  const store: Store = options
    ? getStore({ name: BLOBS_STORE_NAME, consistency: "strong", ...options })
    : getStore({ name: BLOBS_STORE_NAME, consistency: "strong" });
  return {
    async get<T>(key: string): Promise<Stored<T> | undefined> {
      const found = await store.getWithMetadata(checkKey(key), { type: "json" });
      if (!found) return undefined;
      return { value: found.data as T, version: found.etag ?? "" };
    },
    async create(key, value) {
      return (await store.setJSON(checkKey(key), value, { onlyIfNew: true })).modified;
    },
    async createVersioned(key, value) {
      const written = await store.setJSON(checkKey(key), value, { onlyIfNew: true });
      if (!written.modified) return undefined;
      // The service answers the new ETag; without one (the local emulator), a read gives it.
      return written.etag ?? (await store.getWithMetadata(key, { type: "json" }))?.etag ?? "";
    },
    async replace(key, value, version) {
      // An empty condition would write unconditionally: refuse instead (Netlify's
      // local emulator answers reads without ETags; the service always sends one).
      if (!version) return false;
      return (await store.setJSON(checkKey(key), value, { onlyIfMatch: version })).modified;
    },
    async put(key, value) {
      await store.setJSON(checkKey(key), value);
    },
    async delete(key) {
      await store.delete(checkKey(key));
    },
    async list(prefix) {
      const { blobs } = await store.list({ prefix });
      return blobs.map((b) => b.key);
    },
    async folders(prefix) {
      // Blobs names a directory by its whole key prefix ("limits/subscribe/2026-11-22T06"): its last part is its name.
      const { directories } = await store.list({ prefix, directories: true });
      return directories.map((d) => d.replace(/\/$/, "").split("/").pop() ?? "").filter(Boolean);
    },
  };
}
