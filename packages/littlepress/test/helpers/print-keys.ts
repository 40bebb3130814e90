// A fake sirius print-key server, following its contract (the public
// nordprojects/sirius, sirius/web/print_key_api.py):
// - POST /printkey/<key>?from=<sender>: text/html (or any text/*, image/*,
//   JSON) prints and answers 200 {"status": "sent"}; an offline printer
//   answers 504 {"status": "failed-offline"}; an unknown key 404; another body type 415.
// - GET /printkey/<key> with Accept: application/json answers
//   {"name", "owner", "status": "online" | "offline"}.
// - /<key> answers as /printkey/<key> does, as the device-key domain sirius
//   shows keys on (https://device.li/<key>); a key with a trailing slash is
//   unknown (404), as on sirius.
// It binds 127.0.0.1 on a free port and keeps every print for the tests to read.
import type { lookup as dnsLookup, LookupOptions } from "node:dns";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PrintKeyOrigin } from "../../lib/model/print-key.ts";
import type { PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";

export interface FakePrinter {
  name: string;
  owner: string;
  online: boolean;
  /** Statuses the next POSTs get instead of printing, one each (a 503 once: [503]). */
  answers?: number[];
  /** POSTs get no answer at all while set (held until the server closes). */
  hold?: boolean;
  /** POSTs print, then the connection is reset unanswered (an answer lost on the way, a proxy that gave up). */
  hangUp?: boolean;
}

export interface Print {
  key: string;
  from: string | null;
  contentType: string;
  body: string;
}

export interface FakePrintKeys {
  url: string;
  /** The print key URL of `key` on this server. */
  keyUrl(key: string): string;
  /** This server as the one allowed print-key service, on purpose at a loopback address. */
  allowed: PrintKeyOrigin[];
  /** The policy a delivery run or the subscribe page sends print keys under: this server only. */
  policy: PrintKeyPolicy;
  printers: Map<string, FakePrinter>;
  prints: Print[];
  /** Requests seen, by method and path (the tests check what was asked). */
  requests: string[];
  /** A wait before answering each POST, as a print-key service across the internet takes (default 0; the benches). */
  latencyMs: number;
  /**
   * How long a print takes to render before it is answered, given the prints being rendered at once (itself
   * included): sirius renders every page in PhantomJS before it answers, and slows as more come at once
   * (platform.md). Default: none.
   */
  renderMs?: (rendering: number) => number;
  /** Render one print at a time, the others waiting their turn (sirius runs one gunicorn worker). */
  oneAtATime?: boolean;
  /** The most prints taken and not yet answered at once (rendering, or waiting to). */
  peakRendering: number;
  /**
   * Once this many prints were answered, the next ones print and get no answer (held until the server
   * closes): a printer that printed and whose answer was lost. Default: every print is answered.
   */
  answeredPrints?: number;
  close(): Promise<void>;
}

export async function startPrintKeys(printers: Record<string, FakePrinter> = {}): Promise<FakePrintKeys> {
  const { sirius, listen } = printKeysToStart(printers);
  await listen();
  return sirius;
}

/**
 * The fake before it listens, for a test file's constant that a beforeAll
 * starts (test/helpers/delivery-fixture.ts): its url, allowed and policy are
 * set once `listen` resolves, and are empty before.
 */
export function printKeysToStart(printers: Record<string, FakePrinter> = {}): {
  sirius: FakePrintKeys;
  listen: () => Promise<void>;
} {
  const keys = new Map(Object.entries(printers));
  const prints: Print[] = [];
  const requests: string[] = [];
  const server: Server = createServer((req, res) => void answer(req, res));
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(`${req.method} ${url.pathname}`);
    const body = await readBody(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const m = /^\/(?:printkey\/)?([^/]+)$/.exec(url.pathname);
    const printer = m ? keys.get(m[1]!) : undefined;
    if (!m || !printer) return json(404, { error: "Not found" });
    if (req.method === "GET") {
      if (!(req.headers.accept ?? "").includes("application/json")) {
        res.writeHead(200, { "Content-Type": "text/html" });
        return res.end(`<h1>${printer.name}</h1>`);
      }
      return json(200, { name: printer.name, owner: printer.owner, status: printer.online ? "online" : "offline" });
    }
    if (req.method !== "POST") return json(405, { error: "Method not allowed" });
    if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
    const type = (req.headers["content-type"] ?? "").toLowerCase();
    if (!/^(text\/|image\/|application\/json)/.test(type)) return json(415, { error: "Unsupported Media Type" });
    if (!printer.online) return json(504, { status: "failed-offline" });
    if (printer.hold) return;
    const answer = printer.answers?.shift();
    if (answer !== undefined) return json(answer, { status: "failed" });
    if (fake.renderMs) await render(fake.renderMs);
    prints.push({ key: m[1]!, from: url.searchParams.get("from"), contentType: type, body: body.toString("utf8") });
    if (printer.hangUp) return void req.socket.resetAndDestroy();
    if (fake.answeredPrints !== undefined && prints.length > fake.answeredPrints) return;
    return json(200, { status: "sent" });
  };
  let rendering = 0;
  let turn: Promise<unknown> = Promise.resolve();
  // Like sirius, the render goes on to the end whether or not the client is still there.
  const render = async (renderMs: (rendering: number) => number) => {
    rendering++;
    fake.peakRendering = Math.max(fake.peakRendering, rendering);
    const wait = () => new Promise((r) => setTimeout(r, renderMs(fake.oneAtATime ? 1 : rendering)));
    if (fake.oneAtATime) await (turn = turn.then(wait));
    else await wait();
    rendering--;
  };
  // As Node and most servers keep a connection: a client may send its next request on it.
  server.keepAliveTimeout = 5000;
  const fake: FakePrintKeys = {
    url: "",
    latencyMs: 0,
    peakRendering: 0,
    keyUrl: (key) => `${fake.url}/printkey/${key}`,
    allowed: [],
    policy: { allowed: [] },
    printers: keys,
    prints,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const listen = async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fake.url = url;
    fake.allowed = [{ origin: url, private: true }];
    fake.policy = { allowed: [{ origin: url, private: true }] };
  };
  return { sirius: fake, listen };
}

/** A resolver of the test's (a print-key policy's `lookup`), and the names it was asked. */
export interface NameOnLoopback {
  lookup: typeof dnsLookup;
  asked: string[];
}

/**
 * A `dns.lookup` that answers `name` (device.li, say) with 127.0.0.1, in both
 * forms node:net asks (one address, or `all: true`'s list), and any other name
 * with ENOTFOUND: whatever the code under test asks, nothing leaves loopback.
 */
export function nameOnLoopback(name: string): NameOnLoopback {
  const asked: string[] = [];
  const lookup = (hostname: string, options: unknown, callback?: unknown) => {
    const done = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === "object" && options !== null && (options as LookupOptions).all === true;
    asked.push(hostname);
    process.nextTick(() => {
      if (hostname !== name)
        return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
      if (all) done(null, [{ address: "127.0.0.1", family: 4 }]);
      else done(null, "127.0.0.1", 4);
    });
  };
  return { lookup: lookup as unknown as typeof dnsLookup, asked };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
