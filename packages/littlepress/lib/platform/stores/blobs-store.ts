// The state store on Netlify: a Netlify Blobs store, whose conditional writes
// (onlyIfNew, onlyIfMatch on the blob's ETag) give the same guarantees as the
// file store's, across functions running at once. Strong consistency, so a
// run reads what the last one wrote.
import type { Store } from "@netlify/blobs";
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
  let opened: Promise<Store> | undefined;
  const open = () => (opened ??= openStore(options));
  return { ...blobsReads(open), ...blobsWrites(open) };
}

/** The store's reads: a value with its ETag as its version, the keys and the folders under a prefix. */
function blobsReads(open: () => Promise<Store>): Pick<StateStore, "get" | "list" | "folders"> {
  return {
    async get<T>(key: string): Promise<Stored<T> | undefined> {
      const found = await (await open()).getWithMetadata(checkKey(key), { type: "json" });
      if (!found) return undefined;
      return { value: found.data as T, version: found.etag ?? "" };
    },
    async list(prefix) {
      const { blobs } = await (await open()).list({ prefix });
      return blobs.map((b) => b.key);
    },
    async folders(prefix) {
      // Blobs names a directory by its whole key prefix ("limits/subscribe/2026-11-22T06"): its last part is its name.
      const { directories } = await (await open()).list({ prefix, directories: true });
      return directories.map((d) => d.replace(/\/$/, "").split("/").pop() ?? "").filter(Boolean);
    },
  };
}

/** The store's writes: the conditional ones on the blob's ETag (onlyIfNew, onlyIfMatch), a put and a delete. */
function blobsWrites(open: () => Promise<Store>): Omit<StateStore, "get" | "list" | "folders"> {
  return {
    async create(key, value) {
      return (await (await open()).setJSON(checkKey(key), value, { onlyIfNew: true })).modified;
    },
    async createVersioned(key, value) {
      const store = await open();
      const written = await store.setJSON(checkKey(key), value, { onlyIfNew: true });
      if (!written.modified) return undefined;
      // The service answers the new ETag; without one (the local emulator), a read gives it.
      return written.etag ?? (await store.getWithMetadata(key, { type: "json" }))?.etag ?? "";
    },
    async replace(key, value, version) {
      const store = await open();
      // An empty condition would write unconditionally: refuse instead (Netlify's
      // local emulator answers reads without ETags; the service always sends one).
      if (!version) return false;
      return (await store.setJSON(checkKey(key), value, { onlyIfMatch: version })).modified;
    },
    async put(key, value) {
      await (await open()).setJSON(checkKey(key), value);
    },
    async delete(key) {
      await (await open()).delete(checkKey(key));
    },
  };
}

/**
 * The Netlify Blobs client, loaded when a store is first used: @netlify/blobs is an optional peer
 * dependency (with its telemetry, 26 MB a blog that never deploys subscriptions to Netlify need
 * not install). The starter depends on it; Netlify's bundler packs it with the functions.
 */
async function openStore(options: BlobsSite | undefined): Promise<Store> {
  const blobs = await import("@netlify/blobs").catch((error: unknown) => {
    throw new Error(
      "the state store on Netlify needs the package @netlify/blobs, which is not installed: " +
        'npm install @netlify/blobs (docs/deploying-and-self-hosting.md: "Deploying to Netlify")',
      { cause: error },
    );
  });
  return blobs.getStore({ name: BLOBS_STORE_NAME, consistency: "strong", ...options });
}
