// `npm run deliver` as an author runs it, in-process: its report, the dry
// run's promise to change nothing, and a clear answer to a bad --at.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main, reportText } from "../../scripts/deliver.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { subscriptionHistories } from "../../lib/platform/stores/subscriptions.ts";
import { tempLocalState, type LocalState } from "../helpers/local-state.ts";
import { startPrintKeys, type FakePrintKeys } from "../helpers/print-keys.ts";
import { withServer } from "../helpers/server.ts";

const site = withServer("basic");
let sirius: FakePrintKeys;
let local: LocalState;
let state: StateSetup;
let id = "";
const key = randomBytes(6).toString("hex");

beforeAll(async () => {
  sirius = await startPrintKeys({ [key]: { name: "Kitchen", owner: "Ada", online: true } });
  local = tempLocalState("deliver-cli");
  state = stateSetup(local) as StateSetup;
  // The built site the CLI reads the print-key services from (--site): one whose content/site.json
  // lists the fake sirius on purpose, as an author lists their own sirius on their network.
  mkdirSync(path.join(local.folder, "_site_data"), { recursive: true });
  const index = { printKeyOrigins: sirius.allowed };
  writeFileSync(path.join(local.folder, "_site_data", "site.json"), JSON.stringify(index));
  const made = await createSubscription(state.store, state.sealKey, {
    slug: "serial",
    printKey: new URL(sirius.keyUrl(key)),
    printer: "Kitchen",
    zone: "Europe/Paris",
    hour: 6,
    settings: [],
    at: new Date("2026-03-01T00:00:00Z"),
  });
  id = made.subscription.id;
});
afterAll(async () => {
  await sirius.close();
  local.remove();
});

async function deliver(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const out = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
  const built = ["--site", path.join(local.folder, "_site")];
  const where = ["--state", local.folder, "--key-file", local.keyFile, ...built, "--origin", site.url];
  const code = await main([...where, ...argv], out, {});
  return { code, stdout, stderr };
}

it("says what would be sent and to whom on a dry run, never the print key, and sends nothing", async () => {
  const { code, stdout } = await deliver("--dry-run", "--at", "2026-03-02T06:05:00+01:00");
  expect(code).toBe(0);
  expect(stdout).toMatch(/^deliver: dry run at 2026-03-02T05:05:00.000Z: 1 subscription, 1 due\n/);
  expect(stdout).toContain(`  serial  ${id} (Kitchen)  2026-03-02 delivery_count 0: would print on Kitchen, ETag "`);
  expect(stdout).toContain("Dry run: nothing was sent or written.");
  expect(stdout).not.toContain(key);
  expect(sirius.prints).toHaveLength(0);
});

it("delivers, then says the day's delivery is done on a later run", async () => {
  const first = await deliver("--at", "2026-03-02T06:05:00+01:00");
  expect(first.stdout).toContain(`2026-03-02 delivery_count 0: printed (sent to the printer), ETag "`);
  expect(sirius.prints).toHaveLength(1);
  const again = await deliver("--at", "2026-03-02T06:20:00+01:00");
  expect(again.stdout).toBe(
    "deliver: at 2026-03-02T05:20:00.000Z: 1 subscription, 1 due, " +
      "1 of them delivered already today (or held by another run)\n",
  );
});

it("prunes delivery records older than 90 days on a run far on", async () => {
  const later = await deliver("--at", "2026-07-01T06:05:00+02:00");
  expect(later.code).toBe(0);
  expect(later.stdout).toMatch(/^deliver: at 2026-07-01T04:05:00.000Z: 1 subscription, 1 due; 1 old entry pruned\n/);
  expect(later.stdout).toContain(`2026-07-01 delivery_count 1: printed (sent to the printer)`);
  expect((await state.store.list(`deliveries/${id}/`)).map((k) => k.split("/").pop())).toEqual(["2026-07-01"]);
});

it("reports what a run left for the next one, what it did not read, and the paused subscriptions", () => {
  const paused = {
    subscription: "p1",
    printer: "Attic",
    slug: "daily",
    date: "2026-04-05",
    deliveryCount: 7,
    outcome: "paused",
    detail: "paused since 2026-04-02: …; next try on 2026-04-09",
    etag: null,
  };
  const report = { at: "2026-04-05T06:05:00.000Z", subscriptions: 40, due: 30, lines: [], left: 20, unchecked: 6 };
  expect(reportText({ ...report, paused: [paused], pruned: 0, notices: [], unknown: 0 }, false)).toBe(
    "deliver: at 2026-04-05T06:05:00.000Z: 40 subscriptions, 30 due, " +
      "10 of them delivered already today (or held by another run), " +
      "20 of them left for the next run (this run's time was up), 1 paused (their print keys kept failing); " +
      "6 subscriptions not read (this run's time was up), left for the next run\n" +
      "  daily  p1 (Attic)  2026-04-05 delivery_count 7: paused (paused since 2026-04-02: …; next try on 2026-04-09)\n",
  );
});

it("refuses an --at without a zone, which would be read in this machine's zone", async () => {
  const { code, stderr } = await deliver("--at", "2026-03-02T06:05:00");
  expect(code).toBe(2);
  expect(stderr).toMatch(/^deliver: --at takes an ISO 8601 time with Z or an offset/);
});

it("refuses a sealing key that is not 32 bytes", async () => {
  const out = { stdout: () => undefined, stderr: (t: string) => void (message += t) };
  let message = "";
  const code = await main(["--state", local.folder, "--origin", site.url], out, { LITTLEPRESS_SEAL_KEY: "short" });
  expect(code).toBe(2);
  expect(message).toMatch(/LITTLEPRESS_SEAL_KEY: the key must be 32 bytes written in base64/);
});

it("sends nothing to a print key whose service the site does not list", async () => {
  // The same subscription, but the built site lists only the default (the public sirius): refused, not sent.
  const elsewhere = mkdtempSync(path.join(tmpdir(), "littlepress-deliver-cli-site-"));
  const printed = sirius.prints.length;
  const posted = sirius.requests.filter((r) => r.startsWith("POST")).length;
  try {
    const out = { stdout: (t: string) => void (stdout += t), stderr: () => undefined };
    let stdout = "";
    const argv = [
      "--state",
      local.folder,
      "--key-file",
      local.keyFile,
      "--site",
      path.join(elsewhere, "_site"),
      "--origin",
      site.url,
    ];
    await main([...argv, "--at", "2026-03-03T06:05:00+01:00"], out, {});
    expect(stdout).toMatch(
      /2026-03-03 delivery_count \d+: failed \(the print key was not sent to: not a print-key service this site/,
    );
    expect(sirius.prints).toHaveLength(printed); // nothing more printed
    expect(sirius.requests.filter((r) => r.startsWith("POST"))).toHaveLength(posted); // nor asked
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

it("shows a printer's name without the control characters its print key service put in it", async () => {
  const evil = tempLocalState("deliver-cli-evil");
  try {
    const setup = stateSetup(evil) as StateSetup;
    await createSubscription(setup.store, setup.sealKey, {
      slug: "serial",
      printKey: new URL(sirius.keyUrl(key)),
      printer: "\u001b[2J\u001b[31mEvil\u0007\r\nLine",
      zone: "Europe/Paris",
      hour: 6,
      settings: [],
      at: new Date("2026-03-01T00:00:00Z"),
    });
    let stdout = "";
    const out = { stdout: (t: string) => void (stdout += t), stderr: () => undefined };
    const argv = ["--state", evil.folder, "--key-file", evil.keyFile, "--origin", site.url];
    expect(await main([...argv, "--dry-run", "--at", "2026-03-02T06:05:00+01:00"], out, {})).toBe(0);
    expect(stdout).toContain(
      "([2J [31mEvil Line)  2026-03-02 delivery_count 0: would print on [2J [31mEvil Line, ETag",
    );
    expect(stdout.replace(/\n/g, "")).not.toMatch(/\p{Cc}/u);

    // the desk's histories show it cleaned too
    const [history] = await subscriptionHistories(setup.store);
    expect(history!.subscription.printer).toBe("[2J [31mEvil Line");
  } finally {
    evil.remove();
  }
});
