// The home print server's store and printers: the store survives a SIGKILL
// mid-write with every committed row and nothing half-written; printers are
// added with clear answers to bad input; an ESC/POS printer's status is read
// from its DLE EOT answer (the fake answers as Epson documents it, paper out
// and cover open included); a Little Printer's from sirius (the stand-in).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openHomeDb, type Db } from "../../scripts/home/home-db.ts";
import { readStatusBytes } from "../../scripts/home/printer-state.ts";
import { escposStatus, keyStatus } from "../../scripts/home/printer-status.ts";
import { addPrinter, destinationOf, listPrinters, removePrinter, shownAddress } from "../../scripts/home/printers.ts";
import { startStatusPrinter, statusByte, type StatusPrinter } from "../helpers/escpos-status-printer.ts";
import { startPrintKeys } from "../helpers/print-keys.ts";

let dir: string;
let db: Db;
let printer: StatusPrinter;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "littlepress-home-"));
  db = openHomeDb(path.join(dir, "home.db"));
  printer = await startStatusPrinter();
});
afterEach(async () => {
  db.close();
  await printer.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the store", () => {
  it("is in WAL mode with full syncs", () => {
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(2); // FULL
  });

  it("keeps every committed row, and nothing half-written, when its process is SIGKILLed mid-write", async () => {
    const file = path.join(dir, "killed.db");
    const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/home-writer.ts", file], { stdio: "pipe" });
    let said = 0;
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        const last = chunk.toString().trim().split("\n").pop();
        said = Number(last);
        if (said >= 200) resolve();
      });
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const after = openHomeDb(file);
    expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
    const rows = after.prepare("SELECT COUNT(*) AS n, MAX(CAST(detail AS INTEGER)) AS last FROM history").get() as {
      n: number;
      last: number;
    };
    expect(rows.last).toBeGreaterThanOrEqual(said); // everything it said was committed is there
    expect(rows.n).toBe(rows.last); // and every row before it, whole
    const short = after.prepare("SELECT COUNT(*) AS n FROM history WHERE length(picture) <> 20000").get() as {
      n: number;
    };
    expect(short.n).toBe(0);
    after.close();
  });
});

describe("printers", () => {
  const at = new Date("2026-11-29T08:00:00Z");

  it("adds ESC/POS printers at 384 or 576 dots and Little Printers by either form of their key", () => {
    const kitchen = addPrinter(db, { name: "Kitchen", address: printer.url, width: "576" }, at);
    const lp = addPrinter(db, { name: "Hall", address: "https://device.li/abcdef123456" }, at);
    const lp2 = addPrinter(db, { name: "Desk", address: "https://sirius.example/printkey/abcdef123456/" }, at);
    expect(kitchen).toMatchObject({ kind: "escpos", width: 576, address: printer.url });
    expect(lp).toMatchObject({ kind: "key", address: "https://device.li/abcdef123456" });
    expect(lp2).toMatchObject({ kind: "key", address: "https://sirius.example/printkey/abcdef123456" });
    expect(shownAddress(lp as never)).toBe("https://device.li/abcd…"); // the key is never shown back whole
    expect(listPrinters(db).map((p) => p.name)).toEqual(["Kitchen", "Hall", "Desk"]);
    removePrinter(db, (lp as { id: string }).id);
    expect(listPrinters(db).map((p) => p.name)).toEqual(["Kitchen", "Desk"]);
  });

  it("answers bad input by field, saying what to write", () => {
    expect(addPrinter(db, { name: " ", address: printer.url }, at)).toMatchObject({ field: "name" });
    expect(addPrinter(db, { name: "K", address: printer.url, width: 500 }, at)).toMatchObject({
      field: "width",
      problem: expect.stringContaining("384 dots (58 mm paper) or 576") as string,
    });
    expect(addPrinter(db, { name: "K", address: "ftp://x" }, at)).toMatchObject({ field: "address" });
    expect(addPrinter(db, { name: "K", address: "https://device.li/" }, at)).toMatchObject({
      field: "address",
      problem: expect.stringContaining("/printkey/<key>") as string,
    });
    expect(listPrinters(db)).toEqual([]);
  });
});

describe("status", () => {
  const to = () => destinationOf(addPrinter(db, { name: "K", address: printer.url }, new Date()) as never);

  it("reads Epson's DLE EOT bits: ready, paper out, cover open, offline", async () => {
    expect(await escposStatus(to())).toMatchObject({ state: "online" });
    printer.paperOut = true;
    expect(await escposStatus(to())).toMatchObject({ state: "paper out" });
    printer.paperOut = false;
    printer.coverOpen = true;
    expect(await escposStatus(to())).toMatchObject({ state: "cover open" });
    expect(printer.queries).toBe(9);
    const gone = to();
    await printer.close();
    expect(await escposStatus(gone, { timeoutMs: 500 })).toMatchObject({ state: "offline" });
  });

  it("knows the fixed bits: a byte that is no status is said to be none", () => {
    expect(statusByte({ paperOut: false, coverOpen: false }, 1)).toBe(0x12);
    expect(readStatusBytes(0x12, 0x12, 0x12).state).toBe("online");
    expect(readStatusBytes(0x12, 0x12, 0x1e).state).toBe("paper near end");
    expect(readStatusBytes(0x41, 0x12, 0x12).state).toBe("no answer");
  });

  it("asks sirius for a Little Printer, GET with Accept: application/json", async () => {
    const sirius = await startPrintKeys({ abc123: { name: "Hall", owner: "o", online: true } });
    try {
      expect(await keyStatus(new URL(sirius.keyUrl("abc123")), sirius.policy)).toMatchObject({ state: "online" });
      sirius.printers.get("abc123")!.online = false;
      expect(await keyStatus(new URL(sirius.keyUrl("abc123")), sirius.policy)).toMatchObject({ state: "offline" });
      expect(await keyStatus(new URL(sirius.keyUrl("nope99")), sirius.policy)).toMatchObject({ state: "error" });
      expect(sirius.requests).toContain("GET /printkey/abc123");
    } finally {
      await sirius.close();
    }
  });
});
