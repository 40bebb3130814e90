// Where subscriptions and deliveries are kept: a small key-value store of JSON
// values with the two conditional writes that make overlapping runs safe
// (create only if new; replace only if unchanged since read). Netlify Blobs
// when deployed (blobs-store.ts); files under `npm start` and in the tests
// (here).
import { createHash, randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rename, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/** A stored value and its version (a token that changes whenever the value does). */
export interface Stored<T> {
  value: T;
  version: string;
}

export interface StateStore {
  get<T>(key: string): Promise<Stored<T> | undefined>;
  /** Writes `value` only when `key` holds nothing yet; false when it already did (someone else was first). */
  create(key: string, value: unknown): Promise<boolean>;
  /**
   * `create`, answering the version written (undefined: `key` held something
   * already), so that a claim can later be replaced without reading it back.
   */
  createVersioned(key: string, value: unknown): Promise<string | undefined>;
  /** Writes `value` only when `key` still holds `version`; false when it changed or went. */
  replace(key: string, value: unknown, version: string): Promise<boolean>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** The keys that start with `prefix` ("subscriptions/"), in no set order. */
  list(prefix: string): Promise<string[]>;
  /**
   * The folders one level under `prefix` (which ends with "/"), by their own
   * name: "2026-11-22T06" for the keys "limits/subscribe/2026-11-22T06/…"
   * under "limits/subscribe/". A folder goes with the last key under it (in
   * the file store, and in Blobs, where folders are key prefixes; Netlify's
   * local Blobs emulator keeps emptied ones, which then list no keys).
   */
  folders(prefix: string): Promise<string[]>;
}

/**
 * What a pruning may still do: `deletes` more deletions (counted down by
 * whoever deletes, and `taken` up), and only while `inTime` says so (none:
 * no time limit).
 */
export interface PruneBudget {
  deletes: number;
  taken?: number;
  inTime?: () => boolean;
}

/** Whether `budget` still allows a deletion (it has some left, in time), without counting one. */
export function budgetLeft(budget: PruneBudget): boolean {
  return budget.deletes > 0 && (!budget.inTime || budget.inTime());
}

/** Whether `budget` allows one more deletion; counts it when it does. */
export function takeDelete(budget: PruneBudget): boolean {
  if (!budgetLeft(budget)) return false;
  budget.deletes--;
  budget.taken = (budget.taken ?? 0) + 1;
  return true;
}

/** Keys are paths of plain names: letters, digits, `.`, `_`, `-`, and `/` between them. */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a store key: ${JSON.stringify(key)}`);
  return key;
}

/** How long a file store's write lock may be held before it is taken to be a crashed writer's. */
const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 5;

/**
 * `fallback` for a path that is not there (a key never written, a folder no
 * key made yet); any other failure (a disk that refuses) is thrown, never read
 * as an empty store: a run that saw no subscriptions would deliver to no one.
 */
const ifAbsent =
  <T>(fallback: T) =>
  (error: unknown): T => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return fallback;
    throw error;
  };

/**
 * A store in a folder: one JSON file per key. A create is atomic (the file is
 * written aside, then hard-linked into place, which fails if the name exists:
 * no reader ever sees half a file); a replace holds a lock file made with
 * O_EXCL while it compares and renames. Safe between processes on one machine.
 */
export function fileStore(folder: string): StateStore {
  const files = new StoreFolder(folder);
  const createVersioned = (key: string, value: unknown) => files.createVersioned(files.file(key), value);
  return {
    async get<T>(key: string) {
      const bytes = await readIfThere(files.file(key));
      return bytes === undefined
        ? undefined
        : { value: JSON.parse(bytes.toString("utf8")) as T, version: versionOf(bytes) };
    },
    async create(key, value) {
      return (await createVersioned(key, value)) !== undefined;
    },
    createVersioned,
    async replace(key, value, expected) {
      const target = files.file(key);
      return files.locked(target, async () => {
        const bytes = await readIfThere(target);
        if (bytes === undefined || versionOf(bytes) !== expected) return false;
        await rename(await files.aside(target, value), target);
        return true;
      });
    },
    async put(key, value) {
      const target = files.file(key);
      await files.locked(target, async () => rename(await files.aside(target, value), target));
    },
    async delete(key) {
      const target = files.file(key);
      await files.locked(target, () => unlink(target).catch(ifAbsent(undefined)));
      await files.removeEmpty(path.dirname(target));
    },
    list: (prefix) => files.list(prefix),
    folders: (prefix) => files.folders(prefix),
  };
}

/** A value's version in the file store: a hash of its bytes. */
const versionOf = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex").slice(0, 20);

/** A file's bytes; undefined when it is not there. */
async function readIfThere(target: string): Promise<Buffer | undefined> {
  try {
    return await readFile(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The file store's folder: its files, the folders it made, its writes aside and its locks. */
class StoreFolder {
  readonly #folder: string;
  readonly #root: string;
  /**
   * Each folder is made once per store, not before every write (a delivery run writes thousands of
   * records); a folder removed behind the store's back (or emptied and removed by a delete, in this
   * process or another) is made again on the ENOENT that follows.
   */
  readonly #made = new Set<string>();

  constructor(folder: string) {
    this.#folder = folder;
    this.#root = path.resolve(folder);
  }

  file(key: string): string {
    return path.join(this.#folder, `${checkKey(key)}.json`);
  }

  /** Runs `write` to `target`, its folder made first if this store has not made it yet (or it went). */
  async inFolder<R>(target: string, write: () => Promise<R>): Promise<R> {
    const dir = path.dirname(target);
    for (let tries = 0; ; tries++) {
      if (this.#made.has(dir)) {
        try {
          return await write();
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT" || tries >= 3) throw error;
        }
      }
      await mkdir(dir, { recursive: true });
      this.#made.add(dir);
    }
  }

  /**
   * A delete that empties a folder removes it, and its emptied parents, so that folders() does not list
   * a folder with nothing under it (rmdir fails on a folder that holds anything, a writer's temp file too).
   */
  async removeEmpty(from: string): Promise<void> {
    for (let dir = path.resolve(from); dir.startsWith(this.#root + path.sep); dir = path.dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or gone already)
      }
    }
  }

  /** `value` written to a temporary file beside `target`: its path. */
  async aside(target: string, value: unknown): Promise<string> {
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    await this.inFolder(target, () => writeFile(temp, JSON.stringify(value)));
    return temp;
  }

  /** `work` while holding `target`'s lock file (a stale one, a crashed writer's, is taken over). */
  async locked<R>(target: string, work: () => Promise<R>): Promise<R> {
    const lock = `${target}.lock`;
    for (;;) {
      try {
        await this.inFolder(target, async () => (await open(lock, "wx")).close());
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const held = await stat(lock).catch(ifAbsent(undefined));
        if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) await unlink(lock).catch(ifAbsent(undefined));
        else await new Promise((r) => setTimeout(r, LOCK_WAIT_MS));
      }
    }
    try {
      return await work();
    } finally {
      // Not thrown over the work's own outcome: a lock left behind goes stale and is taken over (LOCK_STALE_MS).
      await unlink(lock).catch(() => undefined);
    }
  }

  /** Writes `value` as `target` only if nothing is there yet: its version, or undefined. */
  async createVersioned(target: string, value: unknown): Promise<string | undefined> {
    const bytes = JSON.stringify(value);
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    await this.inFolder(target, () => writeFile(temp, bytes));
    try {
      await link(temp, target);
      return versionOf(bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
      throw error;
    } finally {
      // Not thrown over the create's outcome: a .tmp file left behind is never read as a key (list reads .json).
      await unlink(temp).catch(() => undefined);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const walk = async (dir: string, under: string) => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(ifAbsent([]));
      for (const e of entries) {
        const key = under ? `${under}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path.join(dir, e.name), key);
        else if (e.name.endsWith(".json")) keys.push(key.slice(0, -".json".length));
      }
    };
    // Only the folder the prefix names is walked ("subscriptions/" skips every delivery record).
    const under = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
    if (under) checkKey(under);
    await walk(under ? path.join(this.#folder, under) : this.#folder, under);
    return keys.filter((k) => k.startsWith(prefix));
  }

  async folders(prefix: string): Promise<string[]> {
    const dir = prefix ? path.join(this.#folder, checkKey(prefix.replace(/\/$/, ""))) : this.#folder;
    const entries = await readdir(dir, { withFileTypes: true }).catch(ifAbsent([]));
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  }
}
