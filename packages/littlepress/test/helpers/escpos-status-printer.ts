// A fake networked ESC/POS printer that also answers the real-time status
// request DLE EOT n (10 04 n) as Epson's ESC/POS reference documents it: one
// byte per request, bits 1 and 4 always set; n=1 printer status (bit 3
// offline), n=2 offline cause (bit 2 cover open, bit 5 stopped by paper end),
// n=4 roll paper sensor (bits 5-6 paper end). A connection that starts with
// DLE is a status query (the print server asks on a connection of its own);
// any other is a job, read by escpos-printer.ts's EscPosStream, and the
// printer closes its side once the sender has finished, as a raw port does.
// With its paper out or its cover open it reads no job (it would not print it).
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { EscPosStream } from "./escpos-printer.ts";

export interface StatusPrinter {
  url: string;
  port: number;
  stream: EscPosStream;
  paperOut: boolean;
  coverOpen: boolean;
  /** Job connections: read the job and never close (a printer whose answer is lost: the sender cannot tell). */
  hold: boolean;
  /**
   * How long each status answer waits (default 0): past the server's limit, a printer that answers DLE EOT late (or
   * a machine too busy to read the answer in time).
   */
  statusDelayMs: number;
  /** Status queries answered. */
  queries: number;
  /** Job bytes read, over all connections. */
  bytes: number;
  close(): Promise<void>;
}

/** Epson's status bytes for this printer's state, for DLE EOT `n`. */
export function statusByte(p: Pick<StatusPrinter, "paperOut" | "coverOpen">, n: number): number {
  const fixed = 0x12;
  if (n === 1) return fixed | (p.paperOut || p.coverOpen ? 0x08 : 0);
  if (n === 2) return fixed | (p.coverOpen ? 0x04 : 0) | (p.paperOut ? 0x20 : 0);
  if (n === 3) return fixed;
  if (n === 4) return fixed | (p.paperOut ? 0x6c : 0);
  return fixed;
}

/** One connection: a status query (it starts with DLE) or a job. */
function serve(printer: StatusPrinter, socket: Socket): void {
  let mode: "status" | "job" | undefined;
  let pending: number[] = [];
  socket.on("data", (chunk: Buffer) => {
    mode ??= chunk[0] === 0x10 ? "status" : "job";
    if (mode === "job") {
      // With its paper out or its cover open it reads no job: the bytes wait in the network's buffers.
      if (printer.paperOut || printer.coverOpen) return void socket.pause();
      printer.bytes += chunk.length;
      return printer.stream.push(chunk);
    }
    pending.push(...chunk);
    while (pending.length >= 3 && pending[0] === 0x10 && pending[1] === 0x04) {
      printer.queries++;
      const answer = Uint8Array.of(statusByte(printer, pending[2]!));
      if (printer.statusDelayMs) setTimeout(() => socket.writable && socket.write(answer), printer.statusDelayMs);
      else socket.write(answer);
      pending = pending.slice(3);
    }
  });
  socket.once("end", () => {
    if (mode !== "job" || !(printer.hold || printer.paperOut || printer.coverOpen)) socket.end();
  });
  socket.setTimeout(10_000, () => socket.destroy());
}

export async function startStatusPrinter(): Promise<StatusPrinter> {
  const sockets = new Set<Socket>();
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    serve(printer, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const printer: StatusPrinter = {
    url: `tcp://127.0.0.1:${port}`,
    port,
    stream: new EscPosStream(),
    paperOut: false,
    coverOpen: false,
    hold: false,
    statusDelayMs: 0,
    queries: 0,
    bytes: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return printer;
}
