// The local sealing key: kept outside the state folder it protects, in the
// user's config folder by default (here a temporary one), made once, moved
// there from <state>/seal.key where it was kept before, and never made anew
// over subscriptions sealed with another.
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openPrintKey } from "../../lib/model/print-key.ts";
import { subscriptionKey } from "../../lib/platform/stores/store-keys.ts";
import { localKeyFile, stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import type { Subscription } from "../../lib/model/subscription.ts";

let work: string;
let folder: string;
let keyFile: string;
beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), "littlepress-state-setup-"));
  folder = path.join(work, "project", ".littlepress", "state");
  keyFile = path.join(work, "config", "littlepress", "keys", "state.key");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(work, { recursive: true, force: true });
});

const unix = process.platform !== "win32";
const mode = (file: string) => statSync(file).mode & 0o777;
const setup = (options: Parameters<typeof stateSetup>[0]) => {
  const state = stateSetup(options);
  if ("error" in state) throw new Error(state.error);
  return state;
};
const subscribe = (state: StateSetup) =>
  createSubscription(state.store, state.sealKey, {
    slug: "serial",
    printKey: new URL("https://sirius.example/printkey/abc123"),
    printer: "Kitchen",
    zone: "UTC",
    hour: 6,
    settings: [],
    at: new Date("2026-03-01T00:00:00Z"),
  });
const opens = async (state: StateSetup, id: string) => {
  const sub = (await state.store.get<Subscription>(subscriptionKey(id)))!.value;
  return openPrintKey(sub.printKey, state.sealKey).href;
};

describe("the default key file", () => {
  it("is in $XDG_CONFIG_HOME/littlepress/keys/, else ~/.config/littlepress/keys/, named by the state folder", () => {
    const file = localKeyFile(folder, { XDG_CONFIG_HOME: path.join(work, "xdg") });
    expect(path.dirname(file)).toBe(path.join(work, "xdg", "littlepress", "keys"));
    expect(path.basename(file)).toMatch(/^[0-9a-f]{16}\.key$/);
    // a relative XDG_CONFIG_HOME is not one (the XDG spec)
    const home = path.join(homedir(), ".config", "littlepress", "keys");
    expect(path.dirname(localKeyFile(folder, { XDG_CONFIG_HOME: "relative" }))).toBe(home);
    expect(path.dirname(localKeyFile(folder, {}))).toBe(home);
    // another state folder, another key
    expect(localKeyFile(path.join(work, "other"), {})).not.toBe(localKeyFile(folder, {}));
  });

  it("is the same for the folder however it is named: relative, before and after it exists, through a link", () => {
    const env = { XDG_CONFIG_HOME: path.join(work, "xdg") };
    const before = localKeyFile(folder, env);
    mkdirSync(folder, { recursive: true });
    expect(localKeyFile(folder, env)).toBe(before);
    expect(localKeyFile(path.relative(process.cwd(), folder), env)).toBe(before);
    if (unix) {
      symlinkSync(path.join(work, "project"), path.join(work, "linked"));
      expect(localKeyFile(path.join(work, "linked", ".littlepress", "state"), env)).toBe(before);
    }
  });

  it("is where stateSetup keeps the key when it is given no key file", async () => {
    vi.stubEnv("XDG_CONFIG_HOME", path.join(work, "xdg"));
    const state = setup({ folder });
    const file = localKeyFile(folder);
    expect(file.startsWith(path.join(work, "xdg", "littlepress", "keys") + path.sep)).toBe(true);
    expect(existsSync(file)).toBe(true);
    if (unix) {
      expect(mode(file)).toBe(0o600);
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(path.join(work, "xdg", "littlepress"))).toBe(0o700);
    }
    const { subscription } = await subscribe(state);
    expect(await opens(setup({ folder }), subscription.id)).toBe("https://sirius.example/printkey/abc123");
  });
});

describe("the local key", () => {
  it("is made once, outside the state folder, readable by its owner only, and names its state folder", async () => {
    const state = setup({ folder, keyFile });
    expect(existsSync(path.join(folder, "seal.key"))).toBe(false);
    if (unix) expect(mode(keyFile)).toBe(0o600);
    const text = readFileSync(keyFile, "utf8");
    expect(text).toMatch(
      /^# The littlepress sealing key of the print keys in .*state: keep it private\.\n[\w+/]{43}=\n$/,
    );
    const { subscription } = await subscribe(state);
    const again = setup({ folder, keyFile });
    expect(again.sealKey.equals(state.sealKey)).toBe(true);
    expect(readFileSync(keyFile, "utf8")).toBe(text);
    expect(await opens(again, subscription.id)).toBe("https://sirius.example/printkey/abc123");
  });

  it("moves from <state>/seal.key, where it was kept before, so its subscriptions still open", async () => {
    const old = randomBytes(32).toString("base64");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "seal.key"), old, { mode: 0o600 });
    const before = setup({ folder, sealKey: old });
    const { subscription } = await subscribe(before);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);

    const state = setup({ folder, keyFile });
    expect(state.sealKey.toString("base64")).toBe(old);
    expect(await opens(state, subscription.id)).toBe("https://sirius.example/printkey/abc123");
    expect(existsSync(path.join(folder, "seal.key"))).toBe(false);
    expect(readFileSync(keyFile, "utf8")).toBe(
      `# The littlepress sealing key of the print keys in ${realpathSync(folder)}: keep it private.\n${old}\n`,
    );
    if (unix) expect(mode(keyFile)).toBe(0o600);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe(
      "littlepress: the local sealing key moved out of the state folder, " +
        `from ${path.join(folder, "seal.key")} to ${keyFile}`,
    );

    // once moved, it is read from its new place, silently
    expect(setup({ folder, keyFile }).sealKey.toString("base64")).toBe(old);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("finishes a move that was cut short: the same key in both places leaves the new one", () => {
    const old = randomBytes(32).toString("base64");
    mkdirSync(folder, { recursive: true });
    mkdirSync(path.dirname(keyFile), { recursive: true });
    writeFileSync(path.join(folder, "seal.key"), old);
    writeFileSync(keyFile, `${old}\n`);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(setup({ folder, keyFile }).sealKey.toString("base64")).toBe(old);
    expect(existsSync(path.join(folder, "seal.key"))).toBe(false);
  });

  it("answers two different keys with which to keep, and deletes neither", () => {
    mkdirSync(folder, { recursive: true });
    mkdirSync(path.dirname(keyFile), { recursive: true });
    writeFileSync(path.join(folder, "seal.key"), randomBytes(32).toString("base64"));
    writeFileSync(keyFile, randomBytes(32).toString("base64"));
    const state = stateSetup({ folder, keyFile });
    expect(state).toEqual({
      error:
        `two sealing keys: ${path.join(folder, "seal.key")} (where the key was kept before) and ${keyFile} differ; ` +
        `keep at ${keyFile} the one the subscriptions were sealed with, and delete ${path.join(folder, "seal.key")}`,
    });
    expect(existsSync(path.join(folder, "seal.key"))).toBe(true);
    expect(existsSync(keyFile)).toBe(true);
  });

  it("is not made anew over subscriptions sealed with a key that is elsewhere (a project that moved)", async () => {
    const { subscription } = await subscribe(setup({ folder, keyFile }));
    const moved = path.join(work, "config", "littlepress", "keys", "moved.key");
    const state = stateSetup({ folder, keyFile: moved });
    expect(state).toEqual({
      error: expect.stringMatching(/^.*state holds subscriptions, but their sealing key is not at /),
    });
    expect((state as { error: string }).error).toContain("move the key file made for it there");
    expect(existsSync(moved)).toBe(false);
    expect(await opens(setup({ folder, keyFile }), subscription.id)).toBe("https://sirius.example/printkey/abc123");
  });

  it("is refused, with the file and how to make a good key, when the file holds a weak or broken key", () => {
    mkdirSync(path.dirname(keyFile), { recursive: true });
    for (const [text, why] of [
      [Buffer.alloc(32).toString("base64"), /the key is not random: its 32 bytes are all the same \(0x00\)/],
      ["not a key", /not base64/],
      [randomBytes(16).toString("base64"), /and this is 16 bytes/],
    ] as const) {
      writeFileSync(keyFile, text);
      const state = stateSetup({ folder, keyFile });
      expect("error" in state && state.error).toMatch(
        new RegExp(`^the local sealing key ${keyFile.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")}: `),
      );
      expect("error" in state && state.error).toMatch(why);
      expect("error" in state && state.error).toMatch(/make one with: openssl rand -base64 32$/);
    }
  });
});

describe("a key file that cannot be made", () => {
  it("is an answer, not an exception", () => {
    writeFileSync(path.join(work, "a-file"), "");
    const file = path.join(work, "a-file", "keys", "state.key");
    const state = stateSetup({ folder, keyFile: file });
    expect("error" in state && state.error.startsWith(`the local sealing key ${file}: `)).toBe(true);
    expect("error" in state && state.error).toMatch(/ENOTDIR/);
  });
});

describe("the deploy's key", () => {
  it("is used instead of a key file, and refused when weak or malformed, saying which variable", () => {
    const given = randomBytes(32).toString("base64");
    expect(setup({ folder, keyFile, sealKey: given }).sealKey.toString("base64")).toBe(given);
    expect(existsSync(keyFile)).toBe(false);
    expect(stateSetup({ sealKey: Buffer.alloc(32).toString("base64") })).toEqual({
      error:
        "LITTLEPRESS_SEAL_KEY: the key is not random: its 32 bytes are all the same (0x00); " +
        "make one with: openssl rand -base64 32",
    });
    expect(stateSetup({ sealKey: `${given.slice(0, 8)}*${given.slice(9)}` })).toMatchObject({
      error: expect.stringMatching(/^LITTLEPRESS_SEAL_KEY: the key holds characters that are not base64/),
    });
  });

  it("is required when there is no state folder (deployed)", () => {
    expect(stateSetup({})).toEqual({
      error: "LITTLEPRESS_SEAL_KEY is not set: set it in the site's environment variables",
    });
  });
});
