// A fake ESC/POS receipt printer on a raw port (as a networked printer listens
// on 9100), bound to 127.0.0.1 on a free port. It reads the byte stream as a
// printer does, one state across connections (a job cut off inside a band
// leaves it waiting for the rest of that band's bytes, as a real one does):
// ESC @ starts a job, GS v 0 prints a band of raster rows, ESC d feeds, GS V
// cuts; NUL between commands is ignored; any other byte is kept as unknown.
// Tests read each job's raster back as dots and compare them with the preview's.
// It can drop a connection after so many bytes, stop reading (out of paper, its
// cover open), never read, close mid-job a while later, or be switched off (not
// listening). It closes its side once it has read a job to its end, as a raw port does.
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { Dots } from "../../lib/model/bilevel.ts";

export interface PrintedJob {
  /** Width in dots (bytes a row x 8) of the bands; 0 before the first band. */
  width: number;
  /** Raster rows received, packed as sent (width / 8 bytes each). */
  rows: Uint8Array[];
  /** Rows of each band, in order. */
  bands: number[];
  feeds: number[];
  cut: boolean;
  /** Bytes that were no command this printer knows. */
  unknown: number;
}

/** The ESC/POS reader: feed it bytes as they come; it keeps its place between chunks and connections. */
export class EscPosStream {
  readonly jobs: PrintedJob[] = [];
  private pending = new Uint8Array(0);

  push(chunk: Uint8Array): void {
    const all = new Uint8Array(this.pending.length + chunk.length);
    all.set(this.pending, 0);
    all.set(chunk, this.pending.length);
    let at = 0;
    for (;;) {
      const used = this.command(all, at);
      if (used === 0) break; // incomplete: wait for more
      at += used;
    }
    this.pending = all.slice(at);
  }

  /** Bytes left waiting for the rest of a command (a band cut off mid-way). */
  get waiting(): number {
    return this.pending.length;
  }

  private job(): PrintedJob {
    let job = this.jobs.at(-1);
    if (!job) this.jobs.push((job = newJob()));
    return job;
  }

  /** Reads one command at `at`; returns the bytes it took (0: not all there yet). */
  private command(b: Uint8Array, at: number): number {
    const left = b.length - at;
    if (left === 0) return 0;
    const c = b[at]!;
    if (c === 0x00) return 1;
    if (c === 0x1b) {
      if (left < 2) return 0;
      if (b[at + 1] === 0x40) {
        this.jobs.push(newJob());
        return 2;
      }
      if (b[at + 1] === 0x64) {
        if (left < 3) return 0;
        this.job().feeds.push(b[at + 2]!);
        return 3;
      }
    }
    if (c === 0x1d) {
      if (left < 2) return 0;
      if (b[at + 1] === 0x56) {
        if (left < 3) return 0;
        const m = b[at + 2]!;
        this.job().cut = true;
        return m === 65 || m === 66 || m === 97 || m === 98 || m === 103 || m === 104 ? (left < 4 ? 0 : 4) : 3;
      }
      if (b[at + 1] === 0x76) {
        if (left < 8) return 0;
        if (b[at + 2] !== 0x30) return this.unknownByte();
        const x = b[at + 4]! | (b[at + 5]! << 8);
        const y = b[at + 6]! | (b[at + 7]! << 8);
        if (left < 8 + x * y) return 0;
        const job = this.job();
        if (y > 0) {
          if (job.width && job.width !== x * 8) throw new Error(`a band ${x * 8} dots wide in a job ${job.width} wide`);
          job.width = x * 8;
          for (let r = 0; r < y; r++) job.rows.push(b.slice(at + 8 + r * x, at + 8 + (r + 1) * x));
          job.bands.push(y);
        }
        return 8 + x * y;
      }
    }
    return this.unknownByte();
  }

  private unknownByte(): number {
    this.job().unknown++;
    return 1;
  }
}

const newJob = (): PrintedJob => ({ width: 0, rows: [], bands: [], feeds: [], cut: false, unknown: 0 });

/** A job's raster as dots (0 a black dot, 255 paper), as the preview's print image holds them. */
export function jobDots(job: PrintedJob): Dots {
  const data = new Uint8Array(job.width * job.rows.length);
  job.rows.forEach((row, y) => {
    for (let x = 0; x < job.width; x++) data[y * job.width + x] = (row[x >> 3]! >> (7 - (x & 7))) & 1 ? 0 : 255;
  });
  return { data, width: job.width, height: job.rows.length };
}

export interface FakeEscPosPrinter {
  /** tcp://127.0.0.1:<port> */
  url: string;
  port: number;
  stream: EscPosStream;
  /** Bytes received on each connection, in order. */
  connections: number[];
  /** Drop the next connections after this many bytes each (one entry per connection, used up in order). */
  dropAfter: number[];
  /**
   * How the next connections go, one entry each, used up in order after dropAfter's: "stop" reads `after` bytes,
   * then no more and never closes (out of paper; 0: a printer that never reads); "close" reads `after` bytes, stops,
   * and a second later closes with the rest unread (its TCP stack resets the connection, as a printer's does);
   * "keep" reads the whole job and prints it, and never closes its side (`after` unused).
   */
  plans: { kind: "stop" | "close" | "keep"; after: number }[];
  /** Stops listening (the printer is switched off); connections are refused. */
  switchOff(): Promise<void>;
  /** Listens again on the same port. */
  switchOn(): Promise<void>;
  close(): Promise<void>;
}

export async function startEscPosPrinter(): Promise<FakeEscPosPrinter> {
  const stream = new EscPosStream();
  const connections: number[] = [];
  const dropAfter: number[] = [];
  const plans: FakeEscPosPrinter["plans"] = [];
  const sockets = new Set<Socket>();
  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const index = connections.push(0) - 1;
    const drop = dropAfter.shift();
    const plan = drop === undefined ? plans.shift() : undefined;
    const keeps = plan?.kind === "keep";
    const limit = drop ?? (keeps ? undefined : plan?.after);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      socket.pause();
      if (plan?.kind === "close") setTimeout(() => socket.resetAndDestroy(), 1000);
    };
    if (plan && !keeps && plan.after === 0) stop();
    socket.on("data", (chunk: Buffer) => {
      if (stopped) return;
      const take = limit === undefined ? chunk.length : Math.min(chunk.length, limit - connections[index]!);
      if (take > 0) {
        stream.push(chunk.subarray(0, take));
        connections[index]! += take;
      }
      // A reset, as a printer that is switched off or loses its network mid-job.
      if (drop !== undefined && connections[index]! >= drop) socket.resetAndDestroy();
      else if (plan && !keeps && connections[index]! >= plan.after) stop();
    });
    // The job is over: close our side too, as a raw port does; not when stopped, which never gets to the end of it.
    socket.once("end", () => {
      if (!stopped && !keeps) socket.end();
    });
    if (!plan) socket.setTimeout(10_000, () => socket.destroy());
  };
  let server: Server = createServer({ allowHalfOpen: true }, serve);
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  const stop = (s: Server) =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      s.close(() => resolve());
    });
  let listening = true;
  return {
    url: `tcp://127.0.0.1:${port}`,
    port,
    stream,
    connections,
    dropAfter,
    plans,
    async switchOff() {
      if (!listening) return;
      listening = false;
      await stop(server);
    },
    async switchOn() {
      if (listening) return;
      server = createServer({ allowHalfOpen: true }, serve);
      await listen(server, port);
      listening = true;
    },
    async close() {
      if (listening) await stop(server);
      listening = false;
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
}
