// A request answered before its body was read to the end (too large, the
// wrong method, not the form, a chunked body a route stopped reading) leaves
// its connection fit for the client's next request (RFC 9112 §9.6), whichever
// route answered it:
//
// - a body whose Content-Length is at most DRAIN_BYTES: the rest is read and
//   dropped after the answer (for DRAIN_MS at most), and the connection is kept;
// - anything else (larger, or chunked, of no known length): the answer says
//   `Connection: close`, and the connection is closed gracefully: the answer,
//   then the server's FIN, then what the client still sends is read and dropped
//   until it closes its side, for LINGER_MS at most.
//
// Why the last step: a socket closed while bytes it did not read are waiting
// sends a reset (RST), not a FIN, and a reset can cost the client the answer
// still in its buffers. Node closes a `Connection: close` connection that way
// (socket.destroySoon, as soon as its answer is written), and so does
// @hono/node-server when its own drain of an unread body gives up (500 ms).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { finished } from "node:stream";

/** The most of a refused body read and dropped to keep its connection; past it the connection closes. */
export const DRAIN_BYTES = 1024 * 1024;
/** How long the rest of a refused body is waited for before its connection closes. */
export const DRAIN_MS = 2_000;
/** How long a closing connection reads what its client still sends before it lets go (the client has its answer). */
export const LINGER_MS = 2_000;

/** Every request with a body that `server` answers leaves its connection as above. */
export function settleUnreadBodies(server: Server): void {
  // Before @hono/node-server's listener, so that the answer it writes goes through `settle`.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    if (hasBody(req)) settleAtHead(req, res);
  });
}

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

/** The connection is settled when the answer's head is written: the last moment it can say `Connection: close`. */
function settleAtHead(req: IncomingMessage, res: ServerResponse) {
  // An own writeHead that calls the class's as it is then (a shutdown changes it: server.ts).
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (!this.headersSent) settle(req, this);
    const answers = Object.getPrototypeOf(this) as ServerResponse;
    return answers.writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/** Sockets whose refused body is being drained; those closing gracefully. */
const draining = new WeakSet<Socket>();
const closing = new WeakSet<Socket>();

function settle(req: IncomingMessage, res: ServerResponse) {
  if (req.readableEnded) return; // read to its end: nothing to settle
  const { socket } = req;
  res.once("finish", () => drain(req, socket));
  if (req.complete) return; // all of it off the wire: what waits unread in memory is dropped after the answer
  if (!(declaredLength(req) <= DRAIN_BYTES)) res.setHeader("Connection", "close");
  // Node's close after a `Connection: close` answer, and @hono/node-server's when its drain gives up,
  // both call destroySoon: on this socket it closes gracefully, unless this server's own drain runs.
  socket.destroySoon = () => {
    if (!draining.has(socket)) closeGracefully(socket, req);
  };
}

/** The body's Content-Length; a chunked body has none that holds (Infinity). */
function declaredLength(req: IncomingMessage): number {
  if (req.headers["transfer-encoding"] !== undefined) return Infinity;
  return Number(req.headers["content-length"]);
}

/** After a kept connection's answer: the rest of the body is dropped as it comes, for DRAIN_MS at most. */
function drain(req: IncomingMessage, socket: Socket) {
  if (req.readableEnded || socket.destroyed) return;
  discard(req);
  if (req.complete || socket.writableEnded) return; // all here already, or closing (it reads on by itself)
  draining.add(socket);
  const timer = setTimeout(() => {
    draining.delete(socket);
    closeGracefully(socket, req);
  }, DRAIN_MS);
  timer.unref();
  finished(req, () => {
    clearTimeout(timer);
    draining.delete(socket);
  });
}

/** The server's FIN after its answer; what the client still sends is dropped until it closes, LINGER_MS at most. */
function closeGracefully(socket: Socket, req: IncomingMessage) {
  if (closing.has(socket) || socket.destroyed) return;
  closing.add(socket);
  discard(req);
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * Reads the body on and drops it: whoever was reading it (a route's stream,
 * which stops taking data once its queue is full) is let go first, as Node
 * does with a body nobody read.
 */
function discard(req: IncomingMessage) {
  req.removeAllListeners("data");
  req.resume();
}
