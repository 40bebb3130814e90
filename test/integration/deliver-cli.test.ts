// `npm run deliver` as an author runs it, in-process: its report, the dry
// run's promise to change nothing, and a clear answer to a bad --at.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main, reportText } from "../../scripts/deliver.ts";
import { stateSetup, type StateSetup } from "../../lib/serve/state-setup.ts";
import { createSubscription } from "../../lib/serve/subscriptions.ts";
import { startPrintKeys, type FakePrintKeys } from "../helpers/print-keys.ts";
import { withServer } from "../helpers/server.ts";

const site = withServer("basic");
let sirius: FakePrintKeys;
let folder: string;
let state: StateSetup;
let id = "";
const key = randomBytes(6).toString("hex");

beforeAll(async () => {
  sirius = await startPrintKeys({ [key]: { name: "Kitchen", owner: "Ada", online: true } });
  folder = mkdtempSync(path.join(tmpdir(), "littlepress-deliver-cli-"));
  state = stateSetup({ folder }) as StateSetup;
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
  rmSync(folder, { recursive: true, force: true });
});

async function deliver(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const out = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
  const code = await main(["--state", folder, "--origin", site.url, ...argv], out, {});
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
  expect(reportText({ ...report, paused: [paused], pruned: 0 }, false)).toBe(
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
  const code = await main(["--state", folder, "--origin", site.url], out, { LITTLEPRESS_SEAL_KEY: "short" });
  expect(code).toBe(2);
  expect(message).toMatch(/LITTLEPRESS_SEAL_KEY: the key must be 32 bytes written in base64/);
});
