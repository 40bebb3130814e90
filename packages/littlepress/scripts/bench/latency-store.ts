// Stores for the delivery bench: one in memory with the file store's and
// Netlify Blobs' semantics (versions, create only if new, replace only if
// unchanged), and a wrapper that makes every call a round trip of so many
// milliseconds, as each Netlify Blobs call is (a list: one round trip per page
// of 1,000 keys, as Blobs pages its listings). Counts the calls.
import { createHash } from "node:crypto";
import { checkKey, type StateStore } from "../../lib/platform/stores/state-store.ts";

/** A folder of the memory store: its keys, and the folders under it. */
interface Folder {
  keys: Set<string>;
  children: Map<string, Folder>;
}

/**
 * A store in memory: values kept as JSON text, versions hashed from it; keys
 * kept in a tree of folders, so that a listing reads only the folder it names
 * (as the file store's does), not every key.
 */
export function memoryStore(): StateStore {
  const data = new Map<string, string>();
  const root: Folder = { keys: new Set(), children: new Map() };
  const folderOf = (parts: string[], make: boolean): Folder | undefined => {
    let at = root;
    for (const part of parts) {
      let next = at.children.get(part);
      if (!next) {
        if (!make) return undefined;
        at.children.set(part, (next = { keys: new Set(), children: new Map() }));
      }
      at = next;
    }
    return at;
  };
  const parentParts = (key: string) => key.split("/").slice(0, -1);
  const add = (key: string, text: string) => {
    data.set(key, text);
    folderOf(parentParts(key), true)!.keys.add(key);
  };
  const version = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 20);
  const createVersioned = (key: string, value: unknown) => {
    if (data.has(checkKey(key))) return Promise.resolve(undefined);
    const text = JSON.stringify(value);
    add(key, text);
    return Promise.resolve(version(text));
  };
  const collect = (folder: Folder, into: string[]) => {
    into.push(...folder.keys);
    for (const child of folder.children.values()) collect(child, into);
  };
  return {
    get<T>(key: string) {
      const text = data.get(checkKey(key));
      return Promise.resolve(text === undefined ? undefined : { value: JSON.parse(text) as T, version: version(text) });
    },
    createVersioned,
    async create(key, value) {
      return (await createVersioned(key, value)) !== undefined;
    },
    replace(key, value, expected) {
      const text = data.get(checkKey(key));
      if (text === undefined || version(text) !== expected) return Promise.resolve(false);
      data.set(key, JSON.stringify(value));
      return Promise.resolve(true);
    },
    put(key, value) {
      add(checkKey(key), JSON.stringify(value));
      return Promise.resolve();
    },
    delete(key) {
      data.delete(checkKey(key));
      folderOf(parentParts(key), false)?.keys.delete(key);
      return Promise.resolve();
    },
    list(prefix) {
      const folder = folderOf(parentParts(prefix), false);
      const keys: string[] = [];
      if (folder) collect(folder, keys);
      return Promise.resolve(keys.filter((k) => k.startsWith(prefix)));
    },
    folders(prefix) {
      const folder = folderOf(prefix.replace(/\/$/, "").split("/").filter(Boolean), false);
      const names = [...(folder?.children ?? new Map<string, Folder>()).entries()];
      const nonEmpty = (f: Folder): boolean => f.keys.size > 0 || [...f.children.values()].some(nonEmpty);
      return Promise.resolve(names.filter(([, f]) => nonEmpty(f)).map(([name]) => name));
    },
  };
}

/** Blobs lists keys in pages of this many: a listing is one round trip per page. */
export const LIST_PAGE = 1_000;

export interface CountedStore extends StateStore {
  /** Calls made (round trips: a listing counts one per page). */
  calls: number;
}

/** `store` with every call `ms` milliseconds longer (a listing, `ms` per page of LIST_PAGE), counted. */
export function withLatency(store: StateStore, ms: number): CountedStore {
  const wait = (trips = 1) => new Promise<void>((r) => setTimeout(r, ms * trips));
  const counted: CountedStore = {
    calls: 0,
    async get<T>(key: string) {
      counted.calls++;
      await wait();
      return store.get<T>(key);
    },
    async create(key, value) {
      counted.calls++;
      await wait();
      return store.create(key, value);
    },
    async createVersioned(key, value) {
      counted.calls++;
      await wait();
      return store.createVersioned(key, value);
    },
    async replace(key, value, version) {
      counted.calls++;
      await wait();
      return store.replace(key, value, version);
    },
    async put(key, value) {
      counted.calls++;
      await wait();
      return store.put(key, value);
    },
    async delete(key) {
      counted.calls++;
      await wait();
      return store.delete(key);
    },
    async list(prefix) {
      const keys = await store.list(prefix);
      const pages = Math.max(1, Math.ceil(keys.length / LIST_PAGE));
      counted.calls += pages;
      await wait(pages);
      return keys;
    },
    async folders(prefix) {
      counted.calls++;
      await wait();
      return store.folders(prefix);
    },
  };
  return counted;
}
