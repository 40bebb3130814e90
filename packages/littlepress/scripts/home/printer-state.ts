// What a printer says of itself, as the print server reads it. An ESC/POS
// printer answers the real-time status request DLE EOT n (10 04 n) with one
// byte each, as Epson's ESC/POS reference documents it: bits 1 and 4 are
// always 1, bits 0 and 7 always 0 (so a reply that is not such a byte is not a
// status); n=1 printer status, bit 3 offline; n=2 offline cause, bit 2 cover
// open, bit 5 stopped by paper end, bit 6 error; n=4 roll paper sensor, bits
// 2-3 near end, bits 5-6 paper end. The ways of asking (printer-status.ts,
// device-status.ts, cups-status.ts) all answer in these terms.

/** What a printer said of itself ("no answer": it said nothing in time; "not asked": there is no way to ask). */
export interface PrinterState {
  state: "online" | "paper out" | "paper near end" | "cover open" | "offline" | "error" | "no answer" | "not asked";
  detail: string;
}

/** Whether a print waits for the printer (it said it cannot print, or refused the connection). */
export const holdsPrints = (status: PrinterState) =>
  status.state === "paper out" ||
  status.state === "cover open" ||
  status.state === "offline" ||
  status.state === "error";

/** The request: printer status, offline cause, roll paper sensor. */
export const DLE_EOT_QUERY = Uint8Array.of(0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4);

const isStatusByte = (b: number) => (b & 0x93) === 0x12;

export const noAnswer = (why: string): PrinterState => ({ state: "no answer", detail: why });

/** The three status bytes read as one state. */
export function readStatusBytes(printer: number, cause: number, paper: number): PrinterState {
  if (![printer, cause, paper].every(isStatusByte)) return noAnswer("its answer to DLE EOT is not an ESC/POS status");
  if (cause & 0x04) return { state: "cover open", detail: "the cover is open" };
  if ((paper & 0x60) === 0x60 || cause & 0x20) return { state: "paper out", detail: "out of paper" };
  if (cause & 0x40) return { state: "error", detail: "the printer reports an error (DLE EOT 2, bit 6)" };
  if (printer & 0x08) return { state: "offline", detail: "the printer says it is offline" };
  if ((paper & 0x0c) === 0x0c) return { state: "paper near end", detail: "paper near its end; it still prints" };
  return { state: "online", detail: "ready" };
}
