// Which state store and which sealing key a function or a tool uses: on
// Netlify, Blobs and the deploy's secret; under the local server and the
// tools, a file store and, unless the secret is given, a key kept in a file of
// the user's own, outside the state it protects.
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { SEAL_KEY_BYTES, sealKeyFrom } from "../../model/seal.ts";
import { blobsStore } from "./blobs-store.ts";
import { fileStore, type StateStore } from "./state-store.ts";
import { SUBSCRIPTIONS } from "./store-keys.ts";

/** The environment variable that holds the deploy's sealing key (base64 of 32 bytes); read by entry points only. */
export const SEAL_KEY_VARIABLE = "LITTLEPRESS_SEAL_KEY";
/** The local state's folder in a project (git ignores it). */
export const LOCAL_STATE = ".littlepress/state";
/** Where the local key was kept before it moved out of the state folder: `<state>/seal.key`. */
const OLD_KEY_FILE = "seal.key";

export interface StateSetup {
  store: StateStore;
  sealKey: Buffer;
}

export interface StateOptions {
  /** A file store's folder (the local server, the tools); none: Netlify Blobs. */
  folder?: string;
  /** The sealing key's text, from the deploy's secret (LITTLEPRESS_SEAL_KEY). */
  sealKey?: string;
  /**
   * The file that keeps the local sealing key for `folder` when `sealKey` is
   * not given (default: localKeyFile(folder), in the user's config folder).
   */
  keyFile?: string;
}

/**
 * The state a command-line tool runs with (npm run deliver, npm run push): its
 * --state folder (default LOCAL_STATE) and --key-file, sealed under
 * LITTLEPRESS_SEAL_KEY when its environment sets it.
 */
export function stateForTool(
  values: { state?: string; "key-file"?: string },
  env: NodeJS.ProcessEnv,
): StateSetup | { error: string } {
  return stateSetup({
    folder: values.state ?? LOCAL_STATE,
    keyFile: values["key-file"],
    sealKey: env[SEAL_KEY_VARIABLE],
  });
}

/**
 * The store and the key. Deployed (no folder), the key must be given: without
 * it no print key could be sealed or opened, which is an answer, not a guess.
 * Locally, a key is made on first use and kept in `keyFile`, outside the state
 * folder, so the subscriptions made under `npm start` keep working from run to
 * run and a copy of the state folder alone does not open them.
 */
export function stateSetup(options: StateOptions): StateSetup | { error: string } {
  const { folder } = options;
  if (options.sealKey) {
    const key = sealKeyFrom(options.sealKey);
    if ("error" in key) return { error: `${SEAL_KEY_VARIABLE}: ${key.error}` };
    return { store: folder ? fileStore(folder) : blobsStore(), sealKey: key };
  }
  if (!folder) return { error: `${SEAL_KEY_VARIABLE} is not set: set it in the site's environment variables` };
  const file = options.keyFile ?? localKeyFile(folder);
  let key: Buffer | { error: string };
  try {
    key = localKey(folder, file);
  } catch (error) {
    // A folder that cannot be made or a file that cannot be written or read: said, not thrown.
    return { error: `the local sealing key ${file}: ${(error as Error).message}` };
  }
  if ("error" in key) return key;
  return { store: fileStore(folder), sealKey: key };
}

/**
 * The default file of the local sealing key for a state folder, the one place
 * it is worked out: `$XDG_CONFIG_HOME/littlepress/keys/<hash>.key` (else
 * `~/.config/…`), the hash being the first 16 hex digits of the SHA-256 of
 * the folder's real absolute path, so that each project's state has its own
 * key. The key is never in the state folder: a copy of the state (a backup, a
 * zip sent to someone) does not open the print keys in it. Reading HOME and
 * XDG_CONFIG_HOME here is the one exception to "entry points read the
 * environment": it is where the default is worked out, once.
 */
export function localKeyFile(folder: string, env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  const keys = path.join(config ?? path.join(homedir(), ".config"), "littlepress", "keys");
  return path.join(keys, `${createHash("sha256").update(absolute(folder)).digest("hex").slice(0, 16)}.key`);
}

/**
 * The folder's absolute path, through its real parent when it does not exist
 * yet: the same before and after it is made.
 */
function absolute(folder: string): string {
  const full = path.resolve(folder);
  const rest: string[] = [];
  for (let base = full; ; base = path.dirname(base)) {
    try {
      return path.join(realpathSync(base), ...rest.reverse());
    } catch {
      // Not there yet (a state folder made on first use): resolve the nearest part that is.
      if (path.dirname(base) === base) return full;
      rest.push(path.basename(base));
    }
  }
}

/**
 * The local key: read from `file`; moved there from `<folder>/seal.key`, where
 * it was kept before, so the subscriptions sealed with it still open; else
 * made. A new key is never made over subscriptions already sealed with
 * another one: that is an answer saying where the key was looked for.
 */
function localKey(folder: string, file: string): Buffer | { error: string } {
  const old = path.join(folder, OLD_KEY_FILE);
  if (existsSync(old)) {
    const moved = moveOldKey(folder, old, file);
    if (moved) return moved;
  } else if (!existsSync(file)) {
    if (holdsSubscriptions(folder))
      return {
        error:
          `${folder} holds subscriptions, but their sealing key is not at ${file}: if the project or ` +
          `its state folder moved, move the key file made for it there (the first line of each file ` +
          `in ${path.dirname(file)} names its state folder)`,
      };
    createOnce(file, `${note(folder)}\n${randomBytes(SEAL_KEY_BYTES).toString("base64")}\n`);
  }
  const key = sealKeyFrom(keyLine(readFileSync(file, "utf8")));
  if ("error" in key) return { error: `the local sealing key ${file}: ${key.error}` };
  return key;
}

/** Moves the key kept in the state folder to `file`; an error when both are there and differ. */
function moveOldKey(folder: string, old: string, file: string): { error: string } | undefined {
  const text = readFileSync(old, "utf8");
  if (!existsSync(file)) createOnce(file, `${note(folder)}\n${keyLine(text)}\n`);
  if (keyLine(readFileSync(file, "utf8")) !== keyLine(text))
    return {
      error:
        `two sealing keys: ${old} (where the key was kept before) and ${file} differ; ` +
        `keep at ${file} the one the subscriptions were sealed with, and delete ${old}`,
    };
  rmSync(old, { force: true });
  console.warn(`littlepress: the local sealing key moved out of the state folder, from ${old} to ${file}`);
  return undefined;
}

/**
 * Writes `file` with `text` unless it exists, at once: the text goes to a
 * file of its own first, then is linked in, so a process that reads it at the
 * same moment never sees it half written, and two that race keep one key.
 * The file is readable by its owner only, in a folder that only they can open.
 */
function createOnce(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, text, { flag: "wx", mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV") throw error;
    // A file system without hard links: created exclusively, written right after.
    try {
      writeFileSync(file, text, { flag: "wx", mode: 0o600 });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== "EEXIST") throw again;
    }
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** A key file's first line: which state folder's key it is, so that it can be found again if the project moves. */
function note(folder: string): string {
  return `# The littlepress sealing key of the print keys in ${absolute(folder)}: keep it private.`;
}

/** The key's line in a key file: lines starting with # are notes. */
function keyLine(text: string): string {
  return text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n")
    .trim();
}

/** Whether the file store in `folder` holds subscriptions (sealed with some key). */
function holdsSubscriptions(folder: string): boolean {
  try {
    return readdirSync(path.join(folder, SUBSCRIPTIONS)).some((f) => f.endsWith(".json"));
  } catch {
    // No subscriptions folder: none to keep a key for.
    return false;
  }
}
