// The household's printers, as the store keeps them: an ESC/POS printer by
// its address (tcp://host:port, a device file, cups:<queue>) at 384 or 576
// dots, or a Little Printer by its sirius print key (/printkey/<key> or
// https://device.li/<key>). A print key prints on the printer: it is kept in
// the store (on this machine only) and never shown back whole.
import { randomBytes } from "node:crypto";
import { PRINTER_WIDTHS } from "../../lib/model/escpos-raster.ts";
import { parsePrintKeyUrl } from "../../lib/model/print-key.ts";
import { shownText } from "../../lib/model/printer-name.ts";
import { parseDestination, type Destination } from "../../lib/platform/printers/escpos-send.ts";
import type { PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";
import type { Db } from "./home-db.ts";
import type { PrinterState } from "./printer-state.ts";
import { escposStatus, keyStatus, type StatusOptions } from "./printer-status.ts";

/** One printer of the household. */
export interface HomePrinterRow {
  id: string;
  name: string;
  /** "escpos": a receipt printer this machine sends ESC/POS to; "key": a Little Printer reached through sirius. */
  kind: "escpos" | "key";
  /** The ESC/POS destination's text, or the print key URL. */
  address: string;
  width: number;
  cut: number;
  created: string;
  /** The last status asked (printer-status.ts's state), and when it was last seen online. */
  status: string | null;
  /** When the status was last asked. */
  status_at: string | null;
  last_seen: string | null;
}

export interface NewPrinter {
  name: string;
  address: string;
  width?: number | string;
}

/** Names are for people: one line, at most 60 characters. */
const NAME_LENGTH = 60;

/** The printer the form describes, checked; or the problem, naming the field. */
export function checkNewPrinter(given: NewPrinter):
  | Omit<HomePrinterRow, "id" | "created" | "status" | "status_at" | "last_seen">
  | {
      field: string;
      problem: string;
    } {
  const name = shownText(given.name.trim(), NAME_LENGTH);
  if (!name) return { field: "name", problem: "Name: give the printer a name, such as Kitchen." };
  const address = given.address.trim();
  if (/^https?:/i.test(address)) {
    const key = parsePrintKeyUrl(address);
    if ("error" in key) return { field: "address", problem: key.error };
    return { name, kind: "key", address: key.href, width: 384, cut: 1 };
  }
  const to = parseDestination(address);
  if ("problem" in to) return { field: "address", problem: `Address: ${to.problem}` };
  const width = Number(given.width ?? 384);
  if (!(PRINTER_WIDTHS as readonly number[]).includes(width))
    return { field: "width", problem: "Width: 384 dots (58 mm paper) or 576 dots (80 mm paper)." };
  return { name, kind: "escpos", address: to.text, width, cut: 1 };
}

export function addPrinter(db: Db, given: NewPrinter, at: Date): HomePrinterRow | { field: string; problem: string } {
  const checked = checkNewPrinter(given);
  if ("problem" in checked) return checked;
  const row: HomePrinterRow = {
    ...checked,
    id: randomBytes(6).toString("hex"),
    created: at.toISOString(),
    status: null,
    status_at: null,
    last_seen: null,
  };
  db.prepare(
    `INSERT INTO printers (id, name, kind, address, width, cut, created)
     VALUES (@id, @name, @kind, @address, @width, @cut, @created)`,
  ).run(row);
  return row;
}

export const listPrinters = (db: Db): HomePrinterRow[] =>
  db.prepare("SELECT * FROM printers ORDER BY created, rowid").all() as HomePrinterRow[];

export const getPrinter = (db: Db, id: string): HomePrinterRow | undefined =>
  db.prepare("SELECT * FROM printers WHERE id = ?").get(id) as HomePrinterRow | undefined;

export function renamePrinter(db: Db, id: string, name: string): string | undefined {
  const shown = shownText(name.trim(), NAME_LENGTH);
  if (!shown) return "Name: give the printer a name, such as Kitchen.";
  db.prepare("UPDATE printers SET name = ? WHERE id = ?").run(shown, id);
  return undefined;
}

/** Removes a printer, its subscriptions with it (their history stays, under the printer's id). */
export function removePrinter(db: Db, id: string): void {
  db.prepare("DELETE FROM printers WHERE id = ?").run(id);
}

export function recordStatus(db: Db, id: string, state: string, at: Date): void {
  const seen = state === "online" || state === "paper near end" ? at.toISOString() : null;
  const update = "UPDATE printers SET status = ?, status_at = ?, last_seen = COALESCE(?, last_seen) WHERE id = ?";
  db.prepare(update).run(state, at.toISOString(), seen, id);
}

/** Asks a printer how it is (DLE EOT, or sirius for a print key) and records it. */
export async function askStatus(
  db: Db,
  printer: HomePrinterRow,
  policy: PrintKeyPolicy,
  at: Date,
  options?: StatusOptions,
): Promise<PrinterState> {
  const state =
    printer.kind === "key"
      ? await keyStatus(new URL(printer.address), policy)
      : await escposStatus(destinationOf(printer), options);
  recordStatus(db, printer.id, state.state, at);
  return state;
}

/** An ESC/POS printer's destination (its address was checked when it was added). */
export function destinationOf(printer: HomePrinterRow): Destination {
  const to = parseDestination(printer.address);
  if ("problem" in to) throw new Error(`printer ${printer.id}: ${to.problem}`);
  return to;
}

/** The print key as the page may show it: its service and the key's first characters. */
export function shownAddress(printer: HomePrinterRow): string {
  if (printer.kind === "escpos") return printer.address;
  const url = new URL(printer.address);
  const key = url.pathname.split("/").pop() ?? "";
  return `${url.origin}${url.pathname.slice(0, -key.length)}${key.slice(0, 4)}…`;
}
