// A local state for a test: a file store's folder and the file of its sealing
// key, both in a temporary folder of their own, so that no test makes a key in
// the user's ~/.config (state-setup.ts's default for a state folder).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface LocalState {
  /** The file store's folder: <temporary>/state. */
  folder: string;
  /** The sealing key's file, outside the state: <temporary>/keys/seal.key. */
  keyFile: string;
  /** Removes both. */
  remove(): void;
}

export function tempLocalState(name: string): LocalState {
  const root = mkdtempSync(path.join(tmpdir(), `littlepress-${name}-`));
  return {
    folder: path.join(root, "state"),
    keyFile: path.join(root, "keys", "seal.key"),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
