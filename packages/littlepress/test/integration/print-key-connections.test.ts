// The print-key client keeps its connections to a service open between
// requests (a delivery run POSTs thousands of pages to one service: a new
// connection and TLS handshake each would cost more round trips than the POST),
// and closes the ones it cannot trust to be clean: a reply it stopped reading.
// An idle connection is closed soon after, so a function holds none between
// runs. A request sent on a kept connection the service closed goes again on
// another, but never a POST that went out whole: the service may have read it,
// and sending it again would print it twice (sirius has no idempotency key).
// Over real HTTP, against a server on 127.0.0.1 that counts connections.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askPrintKey, PRINT_KEY_MAX_BYTES, type PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";

let server: Server;
let origin = "";
let connections = 0;
let closed = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      // /slow: an answer later than the client keeps an idle connection; /big: a reply larger than it reads.
      setTimeout(() => answer(req.url ?? ""), req.url?.startsWith("/slow") ? 1_500 : 0);
    });
    const answer = (url: string) => {
      const body = url.startsWith("/big") ? "x".repeat(PRINT_KEY_MAX_BYTES + 1024) : '{"status":"sent"}';
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(body);
    };
  });
  server.on("connection", (socket) => {
    connections++;
    socket.once("close", () => closed++);
  });
  // As Node's own default: a client may send its next request on the connection for 5 s.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const policy = (): PrintKeyPolicy => ({ allowed: [{ origin, private: true }], timeoutMs: 2_000 });
const body = new TextEncoder().encode("<p>news</p>");
const get = (path: string) => askPrintKey(new URL(`${origin}${path}`), { method: "GET" }, policy());
const post = (path: string) =>
  askPrintKey(
    new URL(`${origin}${path}`),
    { method: "POST", headers: { "Content-Type": "text/html" }, body },
    policy(),
  );

/** Waits (at most 5 s) until `done()`; says whether it came. */
async function until(done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return done();
}

describe("connections to a print-key service", () => {
  it("sends one GET after another on one kept connection, and closes it once idle", async () => {
    await until(() => closed === connections);
    const [before, closedBefore] = [connections, closed];
    for (let i = 0; i < 20; i++) expect(await get(`/printkey/k${i}`)).toMatchObject({ status: 200 });
    expect(connections - before).toBe(1);
    // Idle for longer than the client keeps it (a second): closed by the client, well before the server's 5 s.
    expect(await until(() => closed - closedBefore === 1)).toBe(true);
  });

  it("opens no more connections for GETs than are in flight at once", async () => {
    await until(() => closed === connections);
    const before = connections;
    for (let round = 0; round < 3; round++)
      await Promise.all(Array.from({ length: 8 }, (_, i) => get(`/printkey/k${i}`)));
    expect(connections - before).toBe(8);
  });

  it("sends one POST after another on one kept connection too", async () => {
    await until(() => closed === connections);
    const before = connections;
    for (let i = 0; i < 5; i++) expect(await post(`/printkey/k${i}`)).toMatchObject({ status: 200 });
    expect(connections - before).toBe(1);
  });

  it("closes a connection whose reply it stopped reading, and the next request gets a clean one", async () => {
    await until(() => closed === connections);
    const [before, closedBefore] = [connections, closed];
    expect(await get("/big")).toEqual({ failed: `sent a reply larger than ${PRINT_KEY_MAX_BYTES} bytes` });
    expect(await until(() => closed - closedBefore === 1)).toBe(true);
    expect(await get("/printkey/after")).toMatchObject({ status: 200 });
    expect(connections - before).toBe(2);
  });

  it("waits for a reply slower than the time it keeps an idle connection", async () => {
    expect(await post("/slow")).toMatchObject({ status: 200 });
    expect(await get("/slow")).toMatchObject({ status: 200 });
  });
});

describe("a kept connection the service closes as it is used", () => {
  // The race a kept connection has: the service drops it (its keep-alive time is up) just as the next
  // request goes out on it. Here deterministically: every connection's second request is reset unanswered.
  let resetting: Server;
  let url = "";
  const requests = { answered: 0, reset: 0 };
  beforeAll(async () => {
    resetting = createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { requests?: number };
      socket.requests = (socket.requests ?? 0) + 1;
      req.resume();
      if (socket.requests > 1 || req.url === "/always") {
        requests.reset++;
        socket.resetAndDestroy();
        return;
      }
      requests.answered++;
      req.on("end", () => res.end('{"status":"sent"}'));
    });
    await new Promise<void>((resolve) => resetting.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    resetting.closeAllConnections();
    await new Promise((resolve) => resetting.close(resolve));
  });

  it("sends a GET again on another connection, and says a failure only once it is not that", async () => {
    const allowed = { allowed: [{ origin: url, private: true }], timeoutMs: 2_000 };
    for (let i = 0; i < 5; i++) {
      const reply = await askPrintKey(new URL(`${url}/printkey/k${i}`), { method: "GET" }, allowed);
      expect(reply, `request ${i}`).toMatchObject({ status: 200 });
    }
    // Each request after the first met a reset connection, and was answered on a new one.
    expect(requests).toEqual({ answered: 5, reset: 4 });
    // A reset on a connection of its own is the service's answer: said at once, not sent again.
    expect(await askPrintKey(new URL(`${url}/always`), { method: "GET" }, allowed)).toEqual({
      failed: "could not be reached (ECONNRESET)",
      unanswered: true,
    });
    // Two resets: on the kept connection (sent again), then on its own one (said).
    expect(requests.reset).toBe(6);
  });

  it("never sends a POST twice: one the service read and then reset on a kept connection is unanswered", async () => {
    const allowed = { allowed: [{ origin: url, private: true }], timeoutMs: 2_000 };
    const body = new TextEncoder().encode("<p>news</p>");
    await new Promise((r) => setTimeout(r, 1_500)); // the kept connections of the test before are closed by now
    const before = { ...requests };
    // The first POST opens a connection and is answered; the second goes out whole on it, is read, and reset.
    const first = await askPrintKey(new URL(`${url}/printkey/p1`), { method: "POST", body }, allowed);
    expect(first).toMatchObject({ status: 200 });
    const second = await askPrintKey(new URL(`${url}/printkey/p2`), { method: "POST", body }, allowed);
    expect(second).toEqual({ failed: "could not be reached (ECONNRESET)", unanswered: true });
    // Not sent again on another connection, which would have answered it (and printed it twice).
    expect(requests.answered - before.answered).toBe(1);
    expect(requests.reset - before.reset).toBe(1);
  });
});
