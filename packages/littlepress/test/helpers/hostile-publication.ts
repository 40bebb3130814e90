// A publication that tries to write to the terminal of whoever asks it: served
// over a raw socket (node:net), so its headers carry bytes a Node server would
// refuse to send (ESC and other controls). Its meta.json name, its ETag and its
// x-littlepress-reason carry escape sequences (a window title, a screen clear,
// a colour), a CR and a newline, and a fake status line.
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** Each a terminal trick: set the title, clear the screen, colour, overwrite the line, a fake line of our own. */
export const HOSTILE =
  "\x1b]0;owned\x07Almanac\x1b[2J\x1b[H\x1b[31m red\x1b[0m\r\nprint: sent 0 bytes\u2028\x9b2J\u202e";

export interface HostilePublication {
  /** http://127.0.0.1:<port>/ */
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * `edition` is what /edition/ answers: its status (200 with a small page, 204, 410, or an error status with the
 * hostile x-littlepress-reason); every answer carries the hostile ETag.
 */
export async function startHostilePublication(
  edition: { status: number } = { status: 200 },
): Promise<HostilePublication> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.once("close", () => sockets.delete(socket));
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      const target = head.slice(0, head.indexOf("\r\n")).split(" ")[1] ?? "/";
      head = head.slice(end + 4);
      requests.push(target);
      socket.write(answer(target, edition.status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a header can carry past Node's HTTP parser, which refuses ESC, CR, LF and the other C0 controls in a
 * header: bytes 0x80-0xFF, read as Latin-1, so the C1 controls: CSI (0x9B, ESC [ to a terminal in 8-bit mode:
 * clear the screen, red) and NEL (0x85, a new line), around a fake status line.
 */
const HEADER_HOSTILE = "\x9b2J\x9b31mprint: sent 0 bytes\x85print: sent 0 bytes";

function answer(target: string, status: number): Buffer {
  const path = target.split("?")[0];
  let body: Buffer;
  let type = "application/json";
  let code = 200;
  if (path === "/meta.json") {
    body = Buffer.from(JSON.stringify({ name: HOSTILE, description: HOSTILE, owner_email: "a@example.com" }));
  } else if (path === "/edition/" || path === "/sample/") {
    code = status;
    type = "text/html; charset=utf-8";
    body = Buffer.from(status === 200 ? "<!doctype html><html><body><p>Hello.</p></body></html>" : "");
  } else {
    code = 404;
    body = Buffer.from("not found");
  }
  const headers = [
    `HTTP/1.1 ${code} ${code === 200 ? "OK" : "Other"}`,
    `Content-Type: ${type}`,
    `Content-Length: ${body.length}`,
    `ETag: "${HEADER_HOSTILE}"`,
    `x-littlepress-reason: ${HEADER_HOSTILE}`,
    "",
    "",
  ].join("\r\n");
  return Buffer.concat([Buffer.from(headers, "latin1"), body]);
}
