// Status for the printers on this machine, asked as the household's server
// asks: a receipt printer behind its device file (a pseudo-terminal standing
// for /dev/usb/lp0, device-printer.ts) answers DLE EOT through the same file,
// and a page is printed or held by what it said; a CUPS queue's state and its
// printer-state-reasons come from lpstat (a stand-in in CUPS's own output
// shape, fake-lpstat.ts, since cupsd does not run here).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Renderers } from "../../scripts/print/escpos-print.ts";
import { readLpstat } from "../../scripts/home/cups-status.ts";
import { openHomeDb, type Db } from "../../scripts/home/home-db.ts";
import { historyOf } from "../../scripts/home/home-jobs.ts";
import { escposStatus } from "../../scripts/home/printer-status.ts";
import { addPrinter, getPrinter, type HomePrinterRow } from "../../scripts/home/printers.ts";
import { allowOrigin, homePolicy } from "../../scripts/home/publications.ts";
import { runAll } from "../../scripts/home/runs.ts";
import { addSubscription } from "../../scripts/home/subscriptions.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { startDevicePrinter, type DevicePrinter } from "../helpers/device-printer.ts";
import { lpstatLines, startFakeLpstat, type FakeLpstat } from "../helpers/fake-lpstat.ts";
import { startHomePublication } from "../helpers/home-publication.ts";

describe("a printer behind its device file", () => {
  let device: DevicePrinter;
  beforeEach(async () => {
    device = await startDevicePrinter();
  });
  afterEach(() => device.close());

  it("is asked with DLE EOT through the file: ready, paper out, cover open, no answer, unplugged", async () => {
    const to = { kind: "device", path: device.path, text: device.path } as const;
    expect(await escposStatus(to)).toMatchObject({ state: "online" });
    await device.set("paper_out", true);
    expect(await escposStatus(to)).toMatchObject({ state: "paper out" });
    await device.set("paper_out", false);
    await device.set("cover_open", true);
    expect(await escposStatus(to)).toMatchObject({ state: "cover open" });
    await device.set("silent", true);
    const silent = await escposStatus(to, { timeoutMs: 300 });
    expect(silent).toEqual({ state: "no answer", detail: "it answered 0 of 3 status bytes in 300 ms" });
    expect(device.queries).toBe(4);
    const gone = { kind: "device", path: "/dev/usb/lp-none", text: "/dev/usb/lp-none" } as const;
    expect(await escposStatus(gone)).toMatchObject({ state: "offline", detail: expect.stringContaining("unplugged") });
  });

  describe("in a delivery", () => {
    let renderers: Renderers;
    let dir: string;
    let db: Db;
    beforeAll(async () => {
      renderers = new Renderers(await workerBrowser());
    });
    afterAll(() => renderers?.close());
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "littlepress-home-"));
      db = openHomeDb(path.join(dir, "home.db"));
    });
    afterEach(async () => {
      db.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("holds the page while the paper is out, and prints it through the file once it is back", async () => {
      const pub = await startHomePublication();
      try {
        allowOrigin(db, pub.origin, true);
        const ctx = { db, renderers, policy: () => homePolicy(db), log: () => undefined, retries: 0 };
        const usb = addPrinter(db, { name: "Desk", address: device.path, width: 576 }, new Date()) as HomePrinterRow;
        const s = { printerId: usb.id, base: new URL(pub.url), name: "The Daily Hello", hour: 7, zone: "UTC" };
        addSubscription(db, { ...s, settings: [["name", "Ada"]] }, new Date("2026-11-28T00:00:00Z"));
        await device.set("paper_out", true);
        await runAll(ctx, new Date("2026-11-28T07:00:00Z"));
        expect(device.stream.jobs).toHaveLength(0);
        expect(historyOf(db, usb.id)[0]).toMatchObject({
          outcome: "offline",
          detail: expect.stringContaining("paper"),
        });
        expect(getPrinter(db, usb.id)).toMatchObject({ status: "paper out" });
        await device.set("paper_out", false);
        await runAll(ctx, new Date("2026-11-28T07:16:00Z")); // the first try again is 15 minutes on
        await expect.poll(() => device.stream.jobs.length).toBe(1);
        expect(device.stream.jobs[0]!.width).toBe(576);
        expect(historyOf(db, usb.id)[0]).toMatchObject({ outcome: "printed" });
        expect(getPrinter(db, usb.id)).toMatchObject({ status: "online", last_seen: expect.any(String) as string });
      } finally {
        await pub.close();
      }
    });
  });
});

describe("a CUPS queue", () => {
  let lpstat: FakeLpstat;
  beforeEach(async () => {
    lpstat = await startFakeLpstat();
  });
  afterEach(() => lpstat.close());
  const ask = (queue: string) =>
    escposStatus({ kind: "cups", queue, text: `cups:${queue}` }, { lpstat: lpstat.command });

  it("reads its state and printer-state-reasons: online, paper out, cover open, offline, stopped", async () => {
    await lpstat.setQueue("receipt", { state: "idle" });
    expect(await ask("receipt")).toEqual({ state: "online", detail: "the CUPS queue is idle" });
    await lpstat.setQueue("receipt", { state: "printing", reasons: ["media-empty-error"], message: "Out of paper" });
    expect(await ask("receipt")).toEqual({
      state: "paper out",
      detail: "out of paper (CUPS: media-empty-error): Out of paper",
    });
    await lpstat.setQueue("receipt", { state: "idle", reasons: ["cover-open-report"] });
    expect(await ask("receipt")).toMatchObject({ state: "cover open" });
    await lpstat.setQueue("receipt", { state: "idle", reasons: ["offline-report"], message: "Waiting for printer" });
    expect(await ask("receipt")).toMatchObject({ state: "offline", detail: expect.stringContaining("Waiting") });
    await lpstat.setQueue("receipt", { state: "stopped", reasons: ["paused"] });
    expect(await ask("receipt")).toEqual({ state: "offline", detail: "the CUPS queue is stopped: reason unknown" });
    await lpstat.setQueue("receipt", { state: "idle", reasons: ["media-low-report"] });
    expect(await ask("receipt")).toMatchObject({ state: "paper near end" });
  });

  it("says what CUPS said of a queue it does not know, and when there is no lpstat", async () => {
    expect(await ask("nope")).toEqual({
      state: "error",
      detail: 'CUPS: lpstat: Invalid destination name in list "nope".',
    });
    const none = { kind: "cups", queue: "receipt", text: "cups:receipt" } as const;
    expect(await escposStatus(none, { lpstat: "/nonexistent/lpstat" })).toMatchObject({
      state: "not asked",
      detail: expect.stringContaining("apt-get install cups-client"),
    });
    expect(readLpstat(lpstatLines("other", { state: "idle" }), "receipt")).toMatchObject({ state: "error" });
  });
});
