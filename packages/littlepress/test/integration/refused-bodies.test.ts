// Issue 35 item 7: a request the local server answers before it has read the
// body (too large, wrong method, not the form, a Content-Length it will not
// read, a chunked body it stops reading) leaves the connection fit for the
// client's next request (RFC 9112 §9.6): either the answer says
// `Connection: close` and the connection then ends cleanly, the whole answer
// first and no reset, or the rest of the body is read and dropped and the next
// request is answered. And no route reads a body past its cap, however long the
// client sends. Over real HTTP: raw sockets, Node's keep-alive agent, fetch.
// attacks.test.ts has the server's other attacks. Binds 127.0.0.1, every wait
// bounded, the server stopped.
import { request, Agent } from "node:http";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { BACKGROUND_BODY_BYTES } from "../../lib/server/app.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { LINGER_MS } from "../../lib/server/unread-bodies.ts";
import { tempLocalState, type LocalState } from "../helpers/local-state.ts";
import { chunked, RawConnection, rawRequest, type RawResponse } from "../helpers/raw-http.ts";
import { netlifySide } from "../helpers/server.ts";
import { builtSite } from "../helpers/sites.ts";

let server: LocalServer;
/** The same site with the batch function at the address Netlify gives it: a background function's cap. */
let netlify: LocalServer;
const side = netlifySide();
let state: LocalState;
let errors: MockInstance<typeof console.error>;

beforeAll(async () => {
  state = tempLocalState("refused-bodies"); // subscribe and deliver-background open the state
  // rooted: a publication at the site root (/validate_config/) and at its slug (/only/validate_config/).
  const site = { siteDir: path.resolve(builtSite("rooted")), stateDir: state.folder, keyFile: state.keyFile };
  server = await startServer({ port: 0, ...site });
  netlify = await startServer({ port: 0, root: side.root, ...site });
});
afterAll(async () => {
  await server?.close();
  await netlify?.close();
  side.remove();
  state?.remove();
});
beforeEach(() => {
  errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

const KiB = 1024;
const MiB = 1024 * KiB;
const big = (bytes: number) => Buffer.alloc(bytes, "a");
const CHUNKED = { "Transfer-Encoding": "chunked" };
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const CHUNKED_FORM = { ...CHUNKED, ...FORM };
const JSON_TYPE = { "Content-Type": "application/json" };
const TEN_GB = { "Content-Length": "10000000000" };
const MIB_CHUNKED = chunked(big(MiB));
const DELIVER_BACKGROUND = "/.netlify/functions/deliver-background";
/** What the next request on a connection asks: a static file of the site. */
const NEXT = "/meta.json";

/** No log line says something went wrong in the server or a function. */
function expectNoFaultLogged() {
  const logged = errors.mock.calls.map((args) => args.map(String).join(" "));
  expect(logged.filter((line) => /fault|internal|error/i.test(line))).toEqual([]);
}

/**
 * The connection after `refused` is fit for the client: an answer that says
 * `Connection: close` is followed by the server's clean close (no reset, which
 * could have cost the client the answer), any other answers the next request.
 */
async function expectFitForNext(conn: RawConnection, refused: RawResponse) {
  if (refused.headers.connection === "close") {
    expect(await conn.closedByServer(), "a Connection: close answer ends the connection").toBe(true);
    expect(conn.error?.code, "the connection ends without a reset").toBeUndefined();
    return;
  }
  await conn.write(rawRequest("GET", NEXT));
  const next = await conn.response({ timeoutMs: 3_000 });
  expect(next.status, "the next request on the kept connection").toBe(200);
  expect(JSON.parse(next.body.toString())).toMatchObject({ publication_api_version: "1.0" });
}

describe("a body the server answers before reading to its end, over a raw socket", () => {
  it.each<[string, string, string, Record<string, string>, Buffer, number]>([
    ["validate_config at the root, 1 MiB chunked", "POST", "/validate_config/", CHUNKED, MIB_CHUNKED, 413],
    ["validate_config at a slug, 1 MiB chunked", "POST", "/only/validate_config/", CHUNKED, MIB_CHUNKED, 413],
    ["validate_config, a form of 1 MiB chunked", "POST", "/validate_config/", CHUNKED_FORM, MIB_CHUNKED, 413],
    ["validate_config, 20 KiB with its length", "POST", "/validate_config/", {}, big(20 * KiB), 413],
    ["validate_config, a length of 10 GB (1 MiB sent)", "POST", "/validate_config/", TEN_GB, big(MiB), 413],
    ["validate_config, GET with a chunked body", "GET", "/validate_config/", CHUNKED, MIB_CHUNKED, 405],
    ["edition, POST with a chunked body", "POST", "/edition/?delivery_count=0", CHUNKED, MIB_CHUNKED, 405],
    ["a static file, PUT with a chunked body", "PUT", NEXT, CHUNKED, MIB_CHUNKED, 405],
    ["a static file, GET with 2 MB", "GET", NEXT, {}, big(2_000_000), 200],
    ["subscribe, JSON instead of the form", "POST", "/subscribe/", { ...CHUNKED, ...JSON_TYPE }, MIB_CHUNKED, 400],
    ["subscribe, a form of 1 MiB chunked", "POST", "/subscribe/", CHUNKED_FORM, MIB_CHUNKED, 400],
    // Not routed here (only Netlify's scheduled run hands batches over): answered as any path that names nothing.
    ["deliver-background, 1 MiB chunked", "POST", DELIVER_BACKGROUND, CHUNKED, MIB_CHUNKED, 405],
    ["deliver-background, 1 MiB with its length", "POST", DELIVER_BACKGROUND, {}, big(MiB), 405],
    ["deliver-background, PUT", "PUT", DELIVER_BACKGROUND, CHUNKED, MIB_CHUNKED, 405],
  ])(
    "%s: %s %s answers, then the connection is fit for the next request",
    async (_, method, target, headers, body, status) => {
      const conn = await RawConnection.open(server.url);
      try {
        // Not awaited: the server may stop reading, and the client reads the answer while it sends.
        void conn.write(rawRequest(method, target, headers, body));
        const refused = await conn.response();
        expect(refused.status).toBe(status);
        await expectFitForNext(conn, refused);
      } finally {
        conn.close();
      }
      expectNoFaultLogged();
    },
  );

  const cap = `${BACKGROUND_BODY_BYTES / KiB} KiB`;
  it(`a background function with a route is handed a body of ${cap}, not a byte more`, async () => {
    for (const [size, status] of [
      [BACKGROUND_BODY_BYTES, 202],
      [BACKGROUND_BODY_BYTES + 1, 413],
    ] as const) {
      const conn = await RawConnection.open(netlify.url);
      try {
        await conn.write(rawRequest("POST", DELIVER_BACKGROUND, CHUNKED, chunked(big(size))));
        const answer = await conn.response();
        expect([size, answer.status]).toEqual([size, status]);
        await expectFitForNext(conn, answer);
      } finally {
        conn.close();
      }
    }
  });

  it("a small chunked body that is read is answered, and the connection is kept", async () => {
    const conn = await RawConnection.open(server.url);
    try {
      const form = `config=${encodeURIComponent("{}")}`;
      await conn.write(rawRequest("POST", "/validate_config/", CHUNKED_FORM, chunked(form)));
      const answer = await conn.response();
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).not.toBe("close");
      await expectFitForNext(conn, answer);
    } finally {
      conn.close();
    }
  });
});

/** One request through `agent`; its answer, or the error that ended it. */
function agentRequest(
  agent: Agent,
  method: string,
  target: string,
  send?: (req: ReturnType<typeof request>) => void,
): Promise<{ status: number; connection?: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(`${server.url}${target}`, { method, agent, timeout: 5_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? String(error) }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? String(error) }));
    req.on("timeout", () => req.destroy(new Error("no answer within 5 s")));
    if (send) send(req);
    else req.end();
  });
}

describe("a keep-alive client after a refused body", () => {
  const bodies: [string, (req: ReturnType<typeof request>) => void][] = [
    ["20 KiB with its length", (req) => req.end(big(20 * KiB))],
    ["1 MiB chunked", (req) => req.end(big(MiB))], // no length given: Node sends it chunked
    ["1 MiB chunked, in 64 KiB writes", (req) => writeInPieces(req, big(MiB), 64 * KiB)],
    ["2 MB with its length", (req) => req.end(big(2_000_000))],
  ];

  it.each(bodies)("Node's http.Agent (keepAlive): POST validate_config of %s, then a GET", async (_, send) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let round = 0; round < 3; round++) {
        expect(await agentRequest(agent, "POST", "/validate_config/", send)).toMatchObject({ status: 413 });
        expect(await agentRequest(agent, "GET", NEXT)).toMatchObject({ status: 200 });
      }
    } finally {
      agent.destroy();
    }
    expectNoFaultLogged();
  });

  it("fetch: a 1 MiB streamed (chunked) POST to validate_config, then a GET, three times", async () => {
    for (let round = 0; round < 3; round++) {
      const refused = await fetch(`${server.url}/validate_config/`, {
        method: "POST",
        body: streamOf(big(MiB), 16 * KiB),
        duplex: "half",
        signal: AbortSignal.timeout(5_000),
      } as RequestInit);
      expect(refused.status).toBe(413);
      await refused.arrayBuffer();
      const next = await fetch(`${server.url}${NEXT}`, { signal: AbortSignal.timeout(3_000) });
      expect(next.status).toBe(200);
      await next.arrayBuffer();
    }
  });
});

function writeInPieces(req: ReturnType<typeof request>, body: Buffer, size: number) {
  for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
  req.end();
}

function streamOf(body: Buffer, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(new Uint8Array(body.subarray(at, (at += size))));
    },
  });
}

describe("a chunked body that never ends (a 1 GiB POST, say)", () => {
  const frame = chunked(big(64 * KiB), { last: false });
  /** Sending stops here if the server never answers: the test fails, bounded. */
  const GIVE_UP = { bytes: 512 * MiB, ms: 10_000 };

  /**
   * Sends `frame` after `frame` until the server answers, or (`sendsOn`: a
   * client that keeps its side open and ignores the answer) until the server
   * lets the connection go; notes the process's peak memory as it goes.
   */
  async function sendEndlessly(method: string, target: string, { sendsOn = false } = {}) {
    const conn = await RawConnection.open(server.url, { halfOpen: sendsOn });
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    let answered = false;
    let sent = 0;
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    await conn.write(rawRequest(method, target, CHUNKED));
    const goOn = () => conn.socket.writable && (sendsOn || !answered) && sent < GIVE_UP.bytes && elapsed() < GIVE_UP.ms;
    const sending = (async () => {
      while (goOn()) {
        await conn.write(frame);
        sent += frame.length;
        peak = Math.max(peak, process.memoryUsage.rss());
        if (sendsOn) await new Promise((r) => setTimeout(r, 5)); // about 12 MB/s: what is timed is the server's close
      }
      return elapsed();
    })();
    try {
      const answer = await conn.response({ timeoutMs: GIVE_UP.ms + 1_000 });
      answered = true;
      const answeredAt = elapsed();
      const closed = await conn.closedByServer(8_000);
      const stoppedAt = await sending;
      return { conn, answer, answeredAt, closed, stoppedAt, sent, grew: peak - rssBefore };
    } finally {
      conn.close();
      await sending;
    }
  }

  it.each([
    ["POST", DELIVER_BACKGROUND, 405],
    ["POST", "/validate_config/", 413],
    ["POST", "/only/validate_config/", 413],
    ["PUT", NEXT, 405],
  ])(
    "%s %s: answered at once with Connection: close, closed cleanly, memory flat",
    async (method, target, status) => {
      const run = await sendEndlessly(method, target);
      expect(run.answer.status).toBe(status);
      expect(run.answer.headers.connection).toBe("close");
      expect(run.answeredAt, "answered within 2 s").toBeLessThan(2_000);
      expect(run.closed).toBe(true);
      expect(run.conn.error?.code, "closed without a reset").toBeUndefined();
      expect(run.sent, "the server stopped it long before it was all sent").toBeLessThan(64 * MiB);
      expect(run.grew, "the server's memory").toBeLessThan(48 * MiB);
      expectNoFaultLogged();
    },
    30_000,
  );

  it("a client that sends on after the answer, its side kept open: the server lets go within seconds", async () => {
    const run = await sendEndlessly("POST", "/validate_config/", { sendsOn: true });
    expect(run.answer.status).toBe(413);
    expect(run.answer.headers.connection).toBe("close");
    expect(run.closed, "the server's FIN").toBe(true);
    expect(run.stoppedAt - run.answeredAt, "the server let go").toBeLessThan(LINGER_MS + 1_500);
    expect(run.grew, "the server's memory").toBeLessThan(48 * MiB);
  }, 30_000);
});
