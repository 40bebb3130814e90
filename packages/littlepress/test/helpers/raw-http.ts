// HTTP/1.1 over a raw socket (node:net), for the attack tests: requests a
// client library would normalise or refuse (encoded paths, odd methods, bad
// Host headers) are sent byte for byte, and a connection is kept to see
// whether its next request is still answered.
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  /** Lowercased names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/** One keep-alive connection; every wait is bounded. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: () => void = () => undefined;
  /** The server closed its side (FIN), or the connection was reset. */
  ended = false;
  /** An error on the socket (ECONNRESET, EPIPE), if any. */
  error: NodeJS.ErrnoException | undefined;

  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on("end", () => {
      this.ended = true;
      this.wake();
    });
    socket.on("close", () => {
      this.ended = true;
      this.wake();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      this.error = error;
      this.ended = true;
      this.wake();
    });
  }

  /** `halfOpen`: the client's side stays open after the server's FIN (a client that sends on regardless). */
  static open(base: string, { halfOpen = false } = {}): Promise<RawConnection> {
    const { hostname, port } = new URL(base);
    return new Promise((resolve, reject) => {
      const options = { host: hostname, port: Number(port), allowHalfOpen: halfOpen };
      const socket = connect(options, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** Writes bytes; a write the server refuses (it closed) is recorded in `error`, not thrown. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.write(data, () => resolve());
    });
  }

  /** Reads the next response; `head` says it has no body whatever its headers (an answer to HEAD). */
  async response({ head = false, timeoutMs = 5_000 } = {}): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parse(this.buffer, head, this.ended);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.used);
        return parsed.response;
      }
      if (this.ended) throw new Error(`the connection ended before a whole response (${this.error?.code ?? "closed"})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no whole response within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => (clearTimeout(timer), resolve());
      });
    }
  }

  /** Resolves once the server has closed the connection, or false after `timeoutMs`. */
  async closedByServer(timeoutMs = 5_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.ended;
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * A request's bytes: request line, headers (Host first unless given), blank
 * line, body. A body gets its Content-Length unless the headers give one or
 * say Transfer-Encoding (then the body is sent as framed: see `chunked`).
 */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Buffer {
  const all: Record<string, string> = { Host: "127.0.0.1", ...headers };
  const framed = Object.keys(all).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
  if (body !== undefined && !framed) all["Content-Length"] = String(Buffer.byteLength(body));
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body === undefined ? Buffer.alloc(0) : Buffer.from(body)]);
}

/** `body` as a chunked body (Transfer-Encoding: chunked), in chunks of `size` bytes; `last: false` leaves it open. */
export function chunked(body: string | Buffer, { size = 16 * 1024, last = true } = {}): Buffer {
  const bytes = Buffer.from(body);
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const part = bytes.subarray(at, at + size);
    parts.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n"));
  }
  if (last) parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** One request on a fresh connection, then the connection is closed. */
export async function rawOnce(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  const conn = await RawConnection.open(base);
  try {
    await conn.write(rawRequest(method, target, headers, body));
    return await conn.response({ head: method === "HEAD" });
  } finally {
    conn.close();
  }
}

function parse(buffer: Buffer, head: boolean, ended: boolean): { response: RawResponse; used: number } | undefined {
  for (let start = 0; ;) {
    const end = buffer.indexOf("\r\n\r\n", start);
    if (end < 0) return undefined;
    const lines = buffer.subarray(start, end).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const at = line.indexOf(":");
      const name = line.slice(0, at).trim().toLowerCase();
      const value = line.slice(at + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      start = bodyStart; // 100 Continue: the real answer follows
      continue;
    }
    if (head || status === 204 || status === 304)
      return { response: { status, headers, body: Buffer.alloc(0) }, used: bodyStart };
    if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      if (buffer.length < bodyStart + length) return undefined;
      return {
        response: { status, headers, body: buffer.subarray(bodyStart, bodyStart + length) },
        used: bodyStart + length,
      };
    }
    if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
      const chunks: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = buffer.indexOf("\r\n", at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(buffer.subarray(at, lineEnd).toString("latin1"), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return undefined;
        if (size === 0) {
          const trailerEnd = buffer.indexOf("\r\n", lineEnd + 2);
          if (trailerEnd < 0) return undefined;
          return { response: { status, headers, body: Buffer.concat(chunks) }, used: trailerEnd + 2 };
        }
        chunks.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    }
    // Neither: the body runs to the end of the connection.
    if (!ended) return undefined;
    return { response: { status, headers, body: buffer.subarray(bodyStart) }, used: buffer.length };
  }
}
