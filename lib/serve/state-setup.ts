// Which state store and which sealing key a function or a tool uses: on
// Netlify, Blobs and the deploy's secret; under the local server and the
// tools, a file store and, unless the secret is given, a key kept beside it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { SEAL_KEY_BYTES, sealKeyFrom } from "../model/seal.ts";
import { blobsStore } from "./blobs-store.ts";
import { fileStore, type StateStore } from "./state-store.ts";

/** The environment variable that holds the deploy's sealing key (base64 of 32 bytes); read by entry points only. */
export const SEAL_KEY_VARIABLE = "LITTLEPRESS_SEAL_KEY";
/** The local state's folder in a project (git ignores it). */
export const LOCAL_STATE = ".littlepress/state";

export interface StateSetup {
  store: StateStore;
  sealKey: Buffer;
}

export interface StateOptions {
  /** A file store's folder (the local server, the tools); none: Netlify Blobs. */
  folder?: string;
  /** The sealing key's text, from the deploy's secret (LITTLEPRESS_SEAL_KEY). */
  sealKey?: string;
}

/**
 * The store and the key. Deployed (no folder), the key must be given: without
 * it no print key could be sealed or opened, which is an answer, not a guess.
 * Locally, a key is made on first use and kept in the state folder, so the
 * subscriptions made under `npm start` keep working from run to run.
 */
export function stateSetup(options: StateOptions): StateSetup | { error: string } {
  const { folder } = options;
  if (options.sealKey) {
    const key = sealKeyFrom(options.sealKey);
    if ("error" in key) return { error: `${SEAL_KEY_VARIABLE}: ${key.error}` };
    return { store: folder ? fileStore(folder) : blobsStore(), sealKey: key };
  }
  if (!folder) return { error: `${SEAL_KEY_VARIABLE} is not set: set it in the site's environment variables` };
  return { store: fileStore(folder), sealKey: localKey(folder) };
}

function localKey(folder: string): Buffer {
  const file = path.join(folder, "seal.key");
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(file, randomBytes(SEAL_KEY_BYTES).toString("base64"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const key = sealKeyFrom(readFileSync(file, "utf8"));
  if ("error" in key) throw new Error(`${file}: ${key.error}`);
  return key;
}
