// Asking a printer how it is (its answer read in printer-state.ts). An ESC/POS
// printer is asked DLE EOT on a connection of its own over tcp://, or through
// its device file (device-status.ts); a CUPS queue is asked for its state
// (cups-status.ts). A Little Printer is asked through sirius: GET its print key
// with Accept: application/json answers {"status": "online" | "offline"}.
//
// A status that did not come back in time (a printer that does not answer DLE
// EOT, or a machine so busy that the answer was read after the time limit) is
// "no answer": it holds nothing back, and the print's own send tells whether
// the printer took the page. Only what the printer said (paper out, cover
// open, offline, an error) or a connection refused holds a print back: one
// 07:00 run printed 49 of 50 when a status read, on a loaded machine, took
// longer than its 3 s and the page waited 15 minutes for nothing.
import { connect } from "node:net";
import type { Destination } from "../../lib/platform/printers/escpos-send.ts";
import { cupsStatus } from "./cups-status.ts";
import { deviceStatus } from "./device-status.ts";
import { noAnswer, readStatusBytes, DLE_EOT_QUERY, type PrinterState } from "./printer-state.ts";
import { askPrintKey, type PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";

/** How a printer is asked. */
export interface StatusOptions {
  /** How long its answer may take (default STATUS_TIMEOUT_MS). */
  timeoutMs?: number;
  /** CUPS's lpstat (default: `lpstat` on the PATH). */
  lpstat?: string;
}

export const STATUS_TIMEOUT_MS = 3_000;

/** Asks an ESC/POS printer: DLE EOT over tcp:// or through its device file, or CUPS for its queue's state. */
export function escposStatus(to: Destination, options: StatusOptions = {}): Promise<PrinterState> {
  const timeoutMs = options.timeoutMs ?? STATUS_TIMEOUT_MS;
  if (to.kind === "device") return deviceStatus(to.path, timeoutMs);
  if (to.kind === "cups") return cupsStatus(to.queue, timeoutMs, options.lpstat);
  return tcpStatus(to.host, to.port, timeoutMs);
}

/** DLE EOT on a connection of its own. */
function tcpStatus(host: string, port: number, timeoutMs: number): Promise<PrinterState> {
  return new Promise((resolve) => {
    const got: number[] = [];
    const socket = connect({ host, port });
    const done = (state: PrinterState) => {
      socket.destroy();
      resolve(state);
    };
    socket.setTimeout(timeoutMs, () =>
      done(
        got.length || socket.readyState === "open"
          ? noAnswer(`it answered ${got.length} of 3 status bytes in ${timeoutMs} ms`)
          : noAnswer(`no connection within ${timeoutMs} ms`),
      ),
    );
    socket.on("connect", () => socket.write(DLE_EOT_QUERY));
    socket.on("data", (chunk: Buffer) => {
      got.push(...chunk);
      if (got.length >= 3) done(readStatusBytes(got[0]!, got[1]!, got[2]!));
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      done({ state: "offline", detail: `not reachable (${error.code ?? error.message})` }),
    );
    socket.on("close", () => done(noAnswer("it closed the connection without a status")));
  });
}

/** Asks sirius how a Little Printer is (GET its print key, Accept: application/json). */
export async function keyStatus(key: URL, policy: PrintKeyPolicy): Promise<PrinterState> {
  const reply = await askPrintKey(key, { method: "GET", headers: { Accept: "application/json" } }, policy);
  if ("refused" in reply) return { state: "error", detail: `not asked: ${reply.refused}` };
  if ("failed" in reply) return { state: "offline", detail: `sirius ${reply.failed}` };
  if (reply.status === 404) return { state: "error", detail: "sirius does not know this print key (404)" };
  if (reply.status !== 200) return { state: "error", detail: `sirius answered ${reply.status}` };
  let status: unknown;
  try {
    status = (JSON.parse(reply.body.toString("utf8")) as { status?: unknown }).status;
  } catch {
    return { state: "error", detail: "sirius's answer is not JSON" };
  }
  if (status === "online") return { state: "online", detail: "sirius says it is online" };
  if (status === "offline") return { state: "offline", detail: "sirius says it is offline" };
  return { state: "error", detail: "sirius's answer names no status" };
}
