// Issue 24, attacked over real HTTP: a subscriber's print key may name any
// host and port, spelled any way, so the site must send print keys only to its
// allow-listed services (lib/platform/printers/print-key-client.ts), reach loopback and
// private addresses only where the list says so, check the address the
// connection's own lookup answers, follow no redirect, and read no more than
// its caps; the subscribe page must tell refused keys apart by nothing; the
// local server must give the delivery run and a deploy's push run no URL,
// count subscribe tries by the socket (or a trusted proxy) and, under npm
// start, answer only its own Host names.
//
// "Sinks" are small servers on 127.0.0.1 (and ::1) that count every connection
// and record every request: "refused" means a sink saw no connection at all.
// Every server binds loopback, every wait is bounded, and all are stopped in
// afterAll. No traffic leaves loopback: the fake resolvers hand a connection
// nothing but 127.0.0.1 (a guard refuses to, see fakeResolver), and the one
// public address below is only ever answered to the test's own lookup.
import { randomBytes } from "node:crypto";
import type { lookup as dnsLookup, LookupAddress, LookupOptions } from "node:dns";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isPublicAddress } from "../../lib/model/addresses.ts";
import { DEFAULT_PRINT_KEY_ORIGINS, type PrintKeyOrigin } from "../../lib/model/print-key.ts";
import type { DeliveryRecord } from "../../lib/model/subscription.ts";
import { escapeHtml } from "../../lib/model/html-escape.ts";
import { runDeliveries, type DeliveryLine } from "../../lib/platform/delivering/run.ts";
import { askPrintKey, PRINT_KEY_MAX_BYTES, type PrintKeyPolicy } from "../../lib/platform/printers/print-key-client.ts";
import { startServer, type LocalServer, type ServerOptions } from "../../lib/server/server.ts";
import { SEAL_KEY_VARIABLE, stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { fileStore } from "../../lib/platform/stores/state-store.ts";
import { subscribeRequest } from "../../lib/platform/subscribing/subscribe.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { rawOnce, type RawResponse } from "../helpers/raw-http.ts";
import { closedPorts, netlifySide } from "../helpers/server.ts";
import { tempLocalState } from "../helpers/local-state.ts";
import { builtSite } from "../helpers/sites.ts";
import { openPublication } from "../../lib/edge/publication-store.ts";

const MiB = 1024 * 1024;
/** The secret part of every print key here: never to be found in a record, a log line or a page. */
const KEY = "k3yOfTheSubscriber";
/** Answered only to the test's own lookup (rebinding), never to a connection. */
const PUBLIC_ADDRESS = "93.184.216.34";
const SEAL = randomBytes(32);

// ---------------------------------------------------------------- servers, stopped in afterAll

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "littlepress-print-key-security-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function listen(server: Server, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

interface Seen {
  method: string;
  url: string;
  host: string;
  accept: string;
  body: string;
}

interface Sink {
  url: string;
  port: number;
  /** Connections accepted, and closed since. */
  readonly connections: number;
  readonly closed: number;
  requests: Seen[];
  clear(): void;
}

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers as sirius does: the printer's name to a GET, "sent" to a POST. */
const asPrintKey: Answer = (req, res) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(
    JSON.stringify(
      req.method === "GET" ? { name: "Sink printer", owner: "Eve", status: "online" } : { status: "sent" },
    ),
  );
};

/** A server that records everything it gets, then answers with `answer`. */
async function startSink(answer: Answer = asPrintKey, host = "127.0.0.1"): Promise<Sink> {
  const requests: Seen[] = [];
  let connections = 0;
  let closed = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        host: req.headers.host ?? "",
        accept: req.headers.accept ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(req, res);
    });
  });
  server.on("connection", (socket) => {
    connections++;
    socket.once("close", () => closed++);
  });
  server.keepAliveTimeout = 500;
  await listen(server, host);
  cleanups.push(() => stop(server));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    get connections() {
      return connections;
    },
    get closed() {
      return closed;
    },
    requests,
    clear() {
      connections = 0;
      closed = 0;
      requests.length = 0;
    },
  };
}

/** Waits (at most `ms`) until `done()`; says whether it came. */
async function until(done: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return done();
}

interface Site {
  url: string;
  port: number;
  /** The state's folder, and its sealing key's file beside it: not the default, in the user's ~/.config. */
  folder: string;
  keyFile: string;
  state: StateSetup;
  /** The subscribe page's answer to a key on no listed service: what every refused key must get, byte for byte. */
  refusal: string;
}

/** The local server on the basic fixture, its state in a folder of its own. */
async function startSite(options: Partial<ServerOptions> = {}): Promise<Site> {
  const local = tempLocalState("print-key-security");
  cleanups.push(() => local.remove());
  const { folder, keyFile } = local;
  const siteDir = builtSite("basic");
  const server: LocalServer = await startServer({ port: 0, siteDir, stateDir: folder, keyFile, ...options });
  cleanups.push(() => server.close());
  const state = stateSetup({ folder, keyFile, sealKey: process.env[SEAL_KEY_VARIABLE] }) as StateSetup;
  const site = { url: server.url, port: Number(new URL(server.url).port), folder, keyFile, state, refusal: "" };
  if (options.trustProxy?.includes("loopback")) {
    const answer = await subscribe(site.url, `https://unlisted.invalid/printkey/${KEY}`);
    expect(answer.status).toBe(400);
    site.refusal = answer.body;
  }
  return site;
}

/** Sites by allow-list (each believing X-Forwarded-For from loopback, so that every test request is a new client). */
const sitesByList = new Map<string, Promise<Site>>();
function siteWith(allowed: readonly PrintKeyOrigin[] | undefined): Promise<Site> {
  const id = JSON.stringify(allowed ?? "default");
  let site = sitesByList.get(id);
  if (!site) {
    site = startSite({ trustProxy: ["loopback"], ...(allowed ? { printKeyOrigins: allowed } : {}) });
    sitesByList.set(id, site);
  }
  return site;
}

// ---------------------------------------------------------------- subscribing and delivering

let clients = 0;
// Each in a /64 of its own: the rate limit counts an IPv6 client by its /64.
const newClient = () => `2001:db8:${(++clients).toString(16)}::1`;
const formOf = (printKey: string) =>
  new URLSearchParams({ action: "subscribe", print_key: printKey, zone: "UTC", hour: "6" });

/** The subscribe form POSTed over HTTP; a new client each time unless `headers` say otherwise. */
async function subscribe(
  base: string,
  printKey: string,
  headers: Record<string, string> = { "X-Forwarded-For": newClient() },
): Promise<{ status: number; body: string; headers: Record<string, string> }> {
  const res = await fetch(`${base}/serial/subscribe/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: formOf(printKey),
    signal: AbortSignal.timeout(15_000),
  });
  const { date: _date, ...rest } = Object.fromEntries(res.headers);
  return { status: res.status, body: await res.text(), headers: rest };
}

/** The subscribe page's handler called with a policy of the test's (a resolver), against the default site. */
async function subscribeWithPolicy(printKeys: PrintKeyPolicy, printKey: string) {
  const site = await siteWith(undefined);
  const req = new Request(`${site.url}/serial/subscribe/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: formOf(printKey),
  });
  const slug = "serial";
  // The site's own publication, as its function opens it, so that the page is the site's byte for byte.
  const publication = await openPublication(slug, path.resolve(builtSite("basic")));
  const where = { origin: site.url, slug, client: newClient(), printKeys, ...(publication && { publication }) };
  const res = await subscribeRequest(req, { ...site.state, ...where });
  return { status: res.status, body: await res.text() };
}

/** The errors the subscribe page shows, as HTML. */
const alertOf = (page: string) =>
  [...(/<div class="alert" role="alert">(.*?)<\/div>/s.exec(page)?.[1] ?? "").matchAll(/<li>(.*?)<\/li>/g)].map(
    (m) => m[1],
  );

/** The one message for every print key the site will not or cannot ask, naming the listed services. */
const cannotPrint = (allowed: readonly PrintKeyOrigin[]) =>
  escapeHtml(
    `Print key: this site cannot print to that key. It takes print keys from ${allowed
      .map((e) => new URL(e.origin).host)
      .join(", ")}, answering as a print key does (GET with Accept: application/json gives the printer's name ` +
      "as JSON); copy yours again from your printer's page, or try again later.",
  );

/** 06:05 UTC on 27 March 2026: a UTC subscriber at 06:00 is due, and serial's first part prints. */
const DUE = new Date("2026-03-27T06:05:00Z");

interface Delivered {
  line: DeliveryLine;
  record: DeliveryRecord;
  ms: number;
}

/** A delivery run over one new subscription to serial whose print key is `printKey`. */
async function deliverOnce(printKey: string, printKeys: PrintKeyPolicy): Promise<Delivered> {
  const site = await siteWith(undefined);
  const store = fileStore(tempFolder());
  const { subscription } = await createSubscription(store, SEAL, {
    slug: "serial",
    printKey: new URL(printKey),
    printer: "Sink printer",
    zone: "UTC",
    hour: 6,
    settings: [],
    at: new Date("2026-03-26T00:00:00Z"),
  });
  const started = performance.now();
  const report = await runDeliveries({ store, origin: site.url, sealKey: SEAL, printKeys, at: DUE });
  const ms = performance.now() - started;
  expect(report.lines).toHaveLength(1);
  const record = (await store.get<DeliveryRecord>(`deliveries/${subscription.id}/2026-03-27`))?.value;
  expect(record).toBeDefined();
  return { line: report.lines[0]!, record: record!, ms };
}

/** A delivery the site refused to send: recorded as failed, with the refusal, and nothing printed. */
function expectNotSent({ line, record }: Delivered) {
  expect(line.outcome).toBe("failed");
  expect(record.state).toBe("failed");
  expect(record.printed).toBe(false);
  expect(record.detail).toMatch(/^the print key was not sent to: /);
  expect(JSON.stringify(record)).not.toContain(KEY);
}

function expectPrinted({ line, record }: Delivered) {
  expect(line.outcome).toBe("printed");
  expect(record.state).toBe("printed");
}

/** Runs `work` with node:net's autoSelectFamily as given (it decides whether a lookup is asked for all addresses). */
async function withAutoSelectFamily<T>(auto: boolean, work: () => Promise<T>): Promise<T> {
  const before = getDefaultAutoSelectFamily();
  setDefaultAutoSelectFamily(auto);
  try {
    return await work();
  } finally {
    setDefaultAutoSelectFamily(before);
  }
}

// ---------------------------------------------------------------- a resolver in the test's hands

interface FakeResolver {
  lookup: typeof dnsLookup;
  /** Every lookup asked: the name, whether for all addresses, what was answered. */
  calls: { hostname: string; all: boolean; answer: string }[];
  /** The test's own lookup, as an independent client would make it (not a connection's). */
  lookupHere(hostname: string): Promise<string>;
  /** Times the guard kept a non-loopback answer from a connection (must stay 0). */
  guarded: number;
}

type LookupDone = (error: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;
const OWN = Symbol("the test's own lookup");

/**
 * A `dns.lookup` that answers `printer.example` with `answers` in turn (then
 * 127.0.0.1), both forms: one address, or `all: true`'s list. Its guard: an
 * answer other than 127.0.0.1 goes only to the test's own lookup, never to a
 * connection (node:net's lookups pass `hints`), so no test sends a packet off
 * loopback whatever the code under test does with it.
 */
function fakeResolver(answers: string[] = []): FakeResolver {
  const queue = [...answers];
  const resolver: FakeResolver = {
    calls: [],
    guarded: 0,
    lookup: ((hostname: string, options: unknown, callback?: unknown) => {
      const done = (typeof options === "function" ? options : callback) as LookupDone;
      const opts = (typeof options === "object" && options !== null ? options : {}) as LookupOptions & {
        [OWN]?: boolean;
      };
      let answer = hostname === "printer.example" ? (queue.shift() ?? "127.0.0.1") : "";
      if (answer && answer !== "127.0.0.1" && !opts[OWN]) {
        resolver.guarded++;
        answer = "";
      }
      resolver.calls.push({ hostname, all: opts.all === true, answer });
      process.nextTick(() => {
        if (!answer) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
        const family = answer.includes(":") ? 6 : 4;
        if (opts.all) done(null, [{ address: answer, family }]);
        else done(null, answer, family);
      });
    }) as unknown as typeof dnsLookup,
    lookupHere: (hostname) =>
      new Promise((resolve, reject) => {
        const own = { [OWN]: true } as LookupOptions;
        resolver.lookup(hostname, own, (error, address) => (error ? reject(error) : resolve(address as string)));
      }),
  };
  return resolver;
}

// ---------------------------------------------------------------- the sinks every row shares

let sink4: Sink;
/** On ::1 when this machine has it (it does where these tests were written); see the [::1] rows. */
let sink6: Sink | undefined;
const sinks = () => [sink4, ...(sink6 ? [sink6] : [])];
const clearSinks = () => sinks().forEach((s) => s.clear());
function expectNothingReached() {
  for (const sink of sinks()) {
    expect(sink.connections, sink.url).toBe(0);
    expect(sink.requests, sink.url).toEqual([]);
  }
}

beforeAll(async () => {
  sink4 = await startSink();
  sink6 = await startSink(asPrintKey, "::1").catch(() => undefined);
  await siteWith(undefined);
});

// ---------------------------------------------------------------- 1. spellings of loopback

/** [as a subscriber pastes the host, the origin the URL parser makes of it, the sink it leads to]. */
const SPELLINGS: [string, string, "v4" | "v6"][] = [
  ["127.0.0.1", "http://127.0.0.1:PORT", "v4"],
  ["2130706433", "http://127.0.0.1:PORT", "v4"],
  ["0x7f.1", "http://127.0.0.1:PORT", "v4"],
  ["0x7f000001", "http://127.0.0.1:PORT", "v4"],
  ["127.1", "http://127.0.0.1:PORT", "v4"],
  ["0177.0.0.1", "http://127.0.0.1:PORT", "v4"],
  ["127.000.000.001", "http://127.0.0.1:PORT", "v4"],
  ["0x7F.0.0.1", "http://127.0.0.1:PORT", "v4"],
  ["127.0.0.1.", "http://127.0.0.1:PORT", "v4"],
  ["%31%32%37.0.0.1", "http://127.0.0.1:PORT", "v4"],
  ["１２７.０.０.１", "http://127.0.0.1:PORT", "v4"],
  ["127。0。0。1", "http://127.0.0.1:PORT", "v4"],
  ["[::ffff:127.0.0.1]", "http://[::ffff:7f00:1]:PORT", "v4"],
  ["[::ffff:7f00:1]", "http://[::ffff:7f00:1]:PORT", "v4"],
  ["[0:0:0:0:0:ffff:7f00:1]", "http://[::ffff:7f00:1]:PORT", "v4"],
  ["[::FFFF:127.0.0.1]", "http://[::ffff:7f00:1]:PORT", "v4"],
  ["[::1]", "http://[::1]:PORT", "v6"],
  ["[0:0:0:0:0:0:0:1]", "http://[::1]:PORT", "v6"],
  ["localhost", "http://localhost:PORT", "v4"],
  ["LocalHost", "http://localhost:PORT", "v4"],
];

/** The origins the spellings come to, as allow-list entries. */
const origins = () => [
  `http://127.0.0.1:${sink4.port}`,
  `http://[::ffff:7f00:1]:${sink4.port}`,
  `http://[::1]:${sink6?.port ?? sink4.port}`,
  `http://localhost:${sink4.port}`,
];
const listed = (isPrivate: boolean, from = origins()) => from.map((origin) => ({ origin, private: isPrivate }));
/** Every origin near `origin` listed as private, but not `origin`: the other spellings, another port, https. */
function nearMisses(origin: string): PrintKeyOrigin[] {
  const url = new URL(origin);
  const near = [...origins().filter((o) => o !== origin), `http://${url.hostname}:${Number(url.port) + 1}`];
  return [...listed(true, near), { origin: `https://${url.host}`, private: true }];
}

describe("a print key at loopback, however it is spelled", () => {
  it.each(SPELLINGS)(
    "%s: refused by default and when listed without private, reached only when its own origin is listed private",
    async (spelling, expectedOrigin, family) => {
      const sink = family === "v6" ? sink6 : sink4;
      const port = sink?.port ?? sink4.port;
      const printKey = `http://${spelling}:${port}/printkey/${KEY}`;
      const origin = new URL(printKey).origin;
      expect(origin).toBe(expectedOrigin.replace("PORT", String(port)));
      clearSinks();

      const refusing: (readonly PrintKeyOrigin[])[] = [DEFAULT_PRINT_KEY_ORIGINS, listed(false), nearMisses(origin)];
      for (const allowed of refusing) {
        // the subscribe page: one message, byte for byte the answer to a key on no listed service
        const site = await siteWith(allowed === DEFAULT_PRINT_KEY_ORIGINS ? undefined : allowed);
        const page = await subscribe(site.url, printKey);
        expect(page.status).toBe(400);
        expect(alertOf(page.body)).toEqual([cannotPrint(allowed)]);
        expect(page.body).toBe(site.refusal);
        // the client itself: refused, not failed (it did not even try to connect)
        const asked = await askPrintKey(new URL(printKey), { method: "GET" }, { allowed });
        expect(asked).toEqual({ refused: expect.any(String) as string });
        // a delivery run
        expectNotSent(await deliverOnce(printKey, { allowed }));
      }
      expectNothingReached();

      const exact = [{ origin, private: true }];
      const page = await subscribe((await siteWith(exact)).url, printKey);
      const delivered = await deliverOnce(printKey, { allowed: exact });
      if (!sink) {
        // No ::1 on this machine, so no sink there: the key is let through (the connection is tried and fails).
        expect(page.status).toBe(400);
        expect(delivered.record.detail).toMatch(/^the print key could not be reached \(E[A-Z]+\)$/);
        return;
      }
      expect(page.status).toBe(200);
      expect(page.body).toContain("Sink printer will print Serial one part a day at 06:00 (UTC)");
      expectPrinted(delivered);
      const host = new URL(printKey).host;
      expect(sink.requests.map((r) => [r.method, r.url, r.host, r.accept])).toEqual([
        ["GET", `/printkey/${KEY}`, host, "application/json"],
        ["POST", `/printkey/${KEY}?from=Serial`, host, ""],
      ]);
      expect(sink.requests[1]!.body).toContain("The first part.");
    },
  );
});

describe("a name that resolves to loopback, through a resolver of the test's", () => {
  const printKey = () => `http://printer.example:${sink4.port}/printkey/${KEY}`;
  const origin = () => `http://printer.example:${sink4.port}`;

  it.each([true, false])(
    "autoSelectFamily %s: refused by default and when listed without private; reached when listed private",
    async (auto) => {
      await withAutoSelectFamily(auto, async () => {
        clearSinks();
        // the default list: refused before any lookup
        const byDefault = fakeResolver();
        const policy = { allowed: DEFAULT_PRINT_KEY_ORIGINS, lookup: byDefault.lookup };
        expect(await askPrintKey(new URL(printKey()), { method: "GET" }, policy)).toEqual({
          refused: "not a print-key service this site sends to",
        });
        const page = await subscribeWithPolicy(policy, printKey());
        expect(page.status).toBe(400);
        expect(page.body).toBe((await siteWith(undefined)).refusal);
        expectNotSent(await deliverOnce(printKey(), policy));
        expect(byDefault.calls).toEqual([]);

        // listed without private: the lookup answers loopback, and the connection is refused there
        const listedPublic = fakeResolver();
        const allowed = [{ origin: origin(), private: false }];
        const publicPolicy = { allowed, lookup: listedPublic.lookup };
        expect(await askPrintKey(new URL(printKey()), { method: "GET" }, publicPolicy)).toEqual({
          refused: "the name resolves to a private address",
        });
        const refused = await subscribeWithPolicy(publicPolicy, printKey());
        expect(refused.status).toBe(400);
        expect(alertOf(refused.body)).toEqual([cannotPrint(allowed)]);
        const notSent = await deliverOnce(printKey(), publicPolicy);
        expectNotSent(notSent);
        expect(notSent.record.detail).toBe("the print key was not sent to: the name resolves to a private address");
        expect(listedPublic.calls.length).toBe(3);
        expect(listedPublic.calls.every((c) => c.hostname === "printer.example" && c.answer === "127.0.0.1")).toBe(
          true,
        );
        expectNothingReached();

        // listed as private: reached, under the name (the lookup answered both ways node:net asks)
        const listedPrivate = fakeResolver();
        const privatePolicy = { allowed: [{ origin: origin(), private: true }], lookup: listedPrivate.lookup };
        const subscribed = await subscribeWithPolicy(privatePolicy, printKey());
        expect(subscribed.status).toBe(200);
        expect(subscribed.body).toContain("Sink printer will print Serial");
        expectPrinted(await deliverOnce(printKey(), privatePolicy));
        expect(sink4.requests.map((r) => [r.method, r.host])).toEqual([
          ["GET", `printer.example:${sink4.port}`],
          ["POST", `printer.example:${sink4.port}`],
        ]);
        expect(listedPrivate.calls.map((c) => c.all)).toEqual([auto, auto]);
        for (const resolver of [byDefault, listedPublic, listedPrivate]) expect(resolver.guarded).toBe(0);
      });
    },
  );
});

// ---------------------------------------------------------------- 2. DNS rebinding

describe("DNS rebinding", () => {
  const printKey = () => `http://printer.example:${sink4.port}/printkey/${KEY}`;
  const allowed = () => [{ origin: `http://printer.example:${sink4.port}`, private: false }];

  /** A resolver that answered a public address to an earlier, independent lookup, and answers loopback now. */
  async function rebound(): Promise<FakeResolver> {
    const resolver = fakeResolver([PUBLIC_ADDRESS]);
    const earlier = await resolver.lookupHere("printer.example");
    expect(earlier).toBe(PUBLIC_ADDRESS);
    expect(isPublicAddress(earlier)).toBe(true);
    return resolver;
  }

  it.each([true, false])(
    "autoSelectFamily %s: the address checked is the one the connection's own lookup answered",
    async (auto) => {
      clearSinks();
      const resolver = await rebound();
      const reply = await withAutoSelectFamily(auto, () =>
        askPrintKey(new URL(printKey()), { method: "GET" }, { allowed: allowed(), lookup: resolver.lookup }),
      );
      expect(reply).toEqual({ refused: "the name resolves to a private address" });
      // one lookup besides the test's: the connection's, answered loopback, and refused on that answer
      expect(resolver.calls.slice(1)).toEqual([{ hostname: "printer.example", all: true, answer: "127.0.0.1" }]);
      expect(resolver.guarded).toBe(0);
      expectNothingReached();
    },
  );

  it("refuses on the subscribe page and in a delivery run alike, one lookup each", async () => {
    clearSinks();
    const atSubscribe = await rebound();
    const page = await subscribeWithPolicy({ allowed: allowed(), lookup: atSubscribe.lookup }, printKey());
    expect(page.status).toBe(400);
    expect(alertOf(page.body)).toEqual([cannotPrint(allowed())]);
    expect(atSubscribe.calls.slice(1).map((c) => c.answer)).toEqual(["127.0.0.1"]);

    const atDelivery = await rebound();
    const delivered = await deliverOnce(printKey(), { allowed: allowed(), lookup: atDelivery.lookup });
    expectNotSent(delivered);
    expect(atDelivery.calls.slice(1).map((c) => c.answer)).toEqual(["127.0.0.1"]);
    expect(atSubscribe.guarded + atDelivery.guarded).toBe(0);
    expectNothingReached();
  });
});

// ---------------------------------------------------------------- 3. no port scanner

describe("the subscribe page as a port scanner", () => {
  it("answers a listed closed port, an unlisted open one and an unlisted closed one byte for byte alike", async () => {
    clearSinks();
    const html = await startSink((_req, res) => void res.writeHead(200, { "Content-Type": "text/html" }).end("<h1>"));
    const failing = await startSink((_req, res) => void res.writeHead(500).end("{}"));
    // After the sinks: a port let go before them was once handed to one (failing saw two requests).
    const open = [html, failing, ...sinks()].map((sink) => sink.port);
    const [listedClosed, listedClosedNotPrivate, unlistedClosed] = await closedPorts(3, open);
    const allowed = [
      { origin: `http://127.0.0.1:${listedClosed}`, private: true },
      { origin: `http://127.0.0.1:${listedClosedNotPrivate}`, private: false },
      { origin: html.url, private: true },
      { origin: failing.url, private: true },
    ];
    const site = await siteWith(allowed);
    const keys: Record<string, string> = {
      "listed, closed": `http://127.0.0.1:${listedClosed}/printkey/${KEY}`,
      "listed without private, closed": `http://127.0.0.1:${listedClosedNotPrivate}/printkey/${KEY}`,
      "listed, open, not a print key's answer": `${html.url}/printkey/${KEY}`,
      "listed, open, answering 500": `${failing.url}/printkey/${KEY}`,
      "unlisted, open": `${sink4.url}/printkey/${KEY}`,
      "unlisted, closed": `http://127.0.0.1:${unlistedClosed}/printkey/${KEY}`,
    };
    const answers: Record<string, unknown> = {};
    for (const [name, key] of Object.entries(keys)) answers[name] = await subscribe(site.url, key);
    const first = answers["listed, closed"] as Awaited<ReturnType<typeof subscribe>>;
    expect(first.status).toBe(400);
    expect(first.body).toBe(site.refusal);
    expect(alertOf(first.body)).toEqual([cannotPrint(allowed)]);
    for (const name of Object.keys(keys)) expect(answers[name], name).toEqual(first);
    // the listed services were asked; the unlisted open port never saw a connection
    expect(html.requests).toHaveLength(1);
    expect(failing.requests).toHaveLength(1);
    expectNothingReached();
  });
});

// ---------------------------------------------------------------- 4. redirects

describe("redirects", () => {
  let redirector: Sink;
  let target: Sink;
  let allowed: PrintKeyOrigin[];

  beforeAll(async () => {
    target = await startSink();
    // Answers /printkey/r<status> with that redirect, to the target (itself listed: still not followed).
    redirector = await startSink((req, res) => {
      const status = Number(/^\/printkey\/r(\d{3})/.exec(req.url ?? "")?.[1] ?? 404);
      res.writeHead(status, { Location: `${target.url}/printkey/${KEY}`, "Content-Type": "application/json" });
      res.end(JSON.stringify({ name: "Redirected", status: "sent" }));
    });
    allowed = [
      { origin: redirector.url, private: true },
      { origin: target.url, private: true },
    ];
  });

  it.each([301, 302, 303, 307, 308])("%i: a failed delivery and a refused key; the target sees nothing", async (s) => {
    redirector.clear();
    target.clear();
    const printKey = `${redirector.url}/printkey/r${s}`;
    const delivered = await deliverOnce(printKey, { allowed });
    expect(delivered.line.outcome).toBe("failed");
    expect(delivered.record.state).toBe("failed");
    expect(delivered.record.detail).toBe(`the print key answered ${s}, a redirect, which is not followed`);

    const site = await siteWith(allowed);
    const page = await subscribe(site.url, printKey);
    expect(page.status).toBe(400);
    expect(page.body).toBe(site.refusal);

    expect(redirector.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST /printkey/r${s}?from=Serial`,
      `GET /printkey/r${s}`,
    ]);
    expect(target.connections).toBe(0);
    expect(target.requests).toEqual([]);
  });
});

// ---------------------------------------------------------------- 5. reply caps

describe("the caps on a reply", () => {
  it("a reply going on for 200 MB: failed at once as too large, the connection cut early, memory flat", async () => {
    const streams: { written: number; closedAfter?: number }[] = [];
    const chunk = Buffer.alloc(MiB, 0x20);
    const huge = await startSink((_req, res) => {
      const stream: { written: number; closedAfter?: number } = { written: 0 };
      streams.push(stream);
      res.once("close", () => (stream.closedAfter = stream.written));
      res.writeHead(200, { "Content-Type": "application/json" });
      const pump = () => {
        while (!res.destroyed && stream.written < 200 * MiB) {
          stream.written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    const rss = process.memoryUsage().rss;
    const delivered = await deliverOnce(`${huge.url}/printkey/${KEY}`, {
      allowed: [{ origin: huge.url, private: true }],
    });
    const grown = process.memoryUsage().rss - rss;
    expect(delivered.record.state).toBe("failed");
    // The size cap, not the time cap (which says "timed out"); how long it took is the machine's.
    expect(delivered.record.detail).toBe(`the print key sent a reply larger than ${PRINT_KEY_MAX_BYTES} bytes`);
    expect(await until(() => streams[0]?.closedAfter !== undefined)).toBe(true);
    expect(streams[0]!.closedAfter).toBeLessThan(32 * MiB);
    expect(grown).toBeLessThan(50 * MiB);
  });

  it("a reply that declares 200 MB: failed before its body is read", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const declared = await startSink((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(200 * MiB) });
      const timer = setInterval(() => res.write(chunk), 20);
      res.once("close", () => clearInterval(timer));
    });
    const delivered = await deliverOnce(`${declared.url}/printkey/${KEY}`, {
      allowed: [{ origin: declared.url, private: true }],
    });
    // The size cap, not the time cap (which says "timed out"); how long it took is the machine's.
    expect(delivered.record.detail).toBe(`the print key sent a reply larger than ${PRINT_KEY_MAX_BYTES} bytes`);
    expect(await until(() => declared.closed === declared.connections)).toBe(true);
  });

  const silent: Answer = () => undefined;
  const trickling: Answer = (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.write("{");
    const timer = setInterval(() => res.write(" "), 50);
    res.once("close", () => clearInterval(timer));
  };
  it.each([
    ["a reply that never comes", silent],
    ["headers, then a body trickled forever (the cap is on the whole exchange)", trickling],
  ])(
    "%s: timed out within the time cap, and unknown: the page went out, so it is never sent again",
    async (_name, answer) => {
      const slow = await startSink(answer);
      const timeoutMs = 300;
      const delivered = await deliverOnce(`${slow.url}/printkey/${KEY}`, {
        allowed: [{ origin: slow.url, private: true }],
        timeoutMs,
      });
      expect(delivered.record.state).toBe("unknown");
      expect(delivered.record.detail).toBe(
        "sent, then the print key timed out before it answered in full: it may have printed, so it is not sent again",
      );
      expect(delivered.ms).toBeGreaterThanOrEqual(timeoutMs - 10);
      expect(delivered.ms).toBeLessThan(timeoutMs + 2_500); // well inside the default 5 s
      expect(slow.requests).toHaveLength(1);
      // the client hung up: the connection is closed, not left open
      expect(await until(() => slow.closed === slow.connections, 2_000)).toBe(true);
    },
  );
});

// ---------------------------------------------------------------- 6. runs only by schedule or on a deploy

const DELIVER_TARGETS = [
  "/.netlify/functions/deliver",
  "/.netlify/functions/deliver/",
  "/.netlify/functions/deliver?at=2026-03-27T06:05:00Z",
  "/.netlify/functions/%64eliver",
  "/.netlify/functions/%64%65%6c%69%76%65%72/",
  "/.netlify/functions/deliver%2f",
  "/.netlify/functions/Deliver",
  "/.netlify/%66unctions/deliver",
  "/%2enetlify/functions/deliver",
  "/.netlify/functions/./deliver",
  "/.netlify/functions/x/../deliver",
  "/.netlify/functions//deliver",
  "/.netlify/functions/deliver.mts",
  "/deliver",
];
/** A deploy's push run (functions/deploy-succeeded-background.mts): Netlify runs it on a deploy, nothing else here. */
const DEPLOY_PUSH_TARGETS = [
  "/.netlify/functions/deploy-succeeded-background",
  "/.netlify/functions/deploy-succeeded-background/",
  "/.netlify/functions/deploy-succeeded",
  "/.netlify/functions/%64eploy-succeeded-background",
  "/deploy-succeeded-background",
];

/**
 * The batches' background function (functions/deliver-background.mts): only the scheduled run on
 * Netlify hands it batches, so the local server gives it no route (issue 36: a body read to its cap).
 */
const BATCH_TARGETS = [
  "/.netlify/functions/deliver-background",
  "/.netlify/functions/deliver-background/",
  "/.netlify/functions/%64eliver-background",
  "/deliver-background",
];

describe("the delivery run, its batches and a deploy's push run have no URL", () => {
  it.each([
    ["as npm start runs it (history, own Host names only)", { history: true, ownHostsOnly: true }],
    ["as npm run serve runs it", {}],
  ])("%s: every way of naming them is answered as a path that names nothing", async (_name, options) => {
    const printer = await startSink();
    const allowed = [{ origin: printer.url, private: true }];
    const site = await startSite({ ...options, printKeyOrigins: allowed });
    // A subscription due right now, whose delivery would print.
    const now = new Date();
    await createSubscription(site.state.store, site.state.sealKey, {
      slug: "serial",
      printKey: new URL(`${printer.url}/printkey/${KEY}`),
      printer: "Sink printer",
      zone: "UTC",
      hour: now.getUTCHours(),
      settings: [],
      at: new Date(now.getTime() - 3 * 86_400_000),
    });
    const host = { Host: `127.0.0.1:${site.port}` };
    const ask = (method: string, target: string) =>
      rawOnce(site.url, method, target, host, method === "POST" ? "" : undefined);
    const comparable = (res: RawResponse) => {
      const { date: _date, ...headers } = res.headers;
      return { status: res.status, headers, body: res.body.toString("latin1") };
    };
    for (const method of ["GET", "HEAD", "POST"]) {
      const nothing = comparable(await ask(method, "/.netlify/functions/no-such-function"));
      expect(nothing.status).toBe(method === "POST" ? 405 : 404);
      for (const target of [...DELIVER_TARGETS, ...BATCH_TARGETS, ...DEPLOY_PUSH_TARGETS])
        expect(comparable(await ask(method, target)), `${method} ${target}`).toEqual(nothing);
    }
    for (const method of ["GET", "POST"]) {
      const res = await fetch(`${site.url}/.netlify/functions/deliver`, {
        method,
        body: method === "POST" ? "" : null,
      });
      await res.arrayBuffer();
      expect(res.status).toBe(method === "POST" ? 405 : 404);
    }
    expect(await site.state.store.list("deliveries/")).toEqual([]);
    expect(existsSync(path.join(site.folder, "deliveries"))).toBe(false);
    expect(printer.connections).toBe(0);

    // The control: the same function run as its schedule runs it on Netlify delivers that very
    // subscription, through the batch function at the address Netlify gives it.
    const side = netlifySide();
    const netlify = await startServer({
      port: 0,
      root: side.root,
      siteDir: path.resolve(builtSite("basic")),
      stateDir: site.folder,
      keyFile: site.keyFile,
      printKeyOrigins: allowed,
    });
    cleanups.push(() => netlify.close().finally(side.remove));
    const { default: deliver } = await import("../../functions/deliver.mts");
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const context = {
        littlepress: { state: site.folder, keyFile: site.keyFile, origin: netlify.url, printKeys: allowed },
      };
      const res = await deliver(new Request(`${site.url}/`), context);
      expect(res.status).toBe(200);
      // It hands the subscription over to the background function (signed), which delivers after answering 202.
      for (let i = 0; i < 100 && !(await site.state.store.list("deliveries/")).length; i++)
        await new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 100 && (await site.state.store.list("batches/")).length; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(logged.mock.calls.flat().join("\n")).not.toContain(KEY);
    } finally {
      logged.mockRestore();
    }
    expect(await site.state.store.list("deliveries/")).toHaveLength(1);
    expect(printer.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST /printkey/${KEY}?from=Serial`]);
  });
});

// ---------------------------------------------------------------- 7. the rate limit's clients

/** Out of the last seconds of an hour, so that the hour's count does not start again midway (waits at most 21 s). */
async function awayFromTheHourEnd() {
  const now = new Date();
  const left = 3_600_000 - (now.getTime() % 3_600_000);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 1_000));
}

describe("the subscribe rate limit", () => {
  it("believes no header without a trusted proxy: 150 tries as 150 spoofed clients, 10 tried", async () => {
    await awayFromTheHourEnd();
    const printer = await startSink();
    const site = await startSite({ printKeyOrigins: [{ origin: printer.url, private: true }] });
    const statuses: number[] = [];
    for (let i = 1; i <= 150; i++) {
      const spoofed = {
        "x-nf-client-connection-ip": `198.51.100.${i}`,
        "X-Forwarded-For": `203.0.113.${i}`,
        "X-Real-IP": `192.0.2.${i}`,
        Forwarded: `for=192.0.2.${i}`,
        "True-Client-IP": `192.0.2.${i}`,
        "CF-Connecting-IP": `192.0.2.${i}`,
      };
      statuses.push((await subscribe(site.url, `${printer.url}/printkey/${KEY}`, spoofed)).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual(Array(140).fill(429));
    expect(printer.requests).toHaveLength(10);
    expect(await site.state.store.list("subscriptions/")).toHaveLength(10);
  }, 60_000);

  it("believes X-Forwarded-For from a trusted proxy: each address its own client, and only its last hop", async () => {
    await awayFromTheHourEnd();
    const printer = await startSink();
    const site = await startSite({
      printKeyOrigins: [{ origin: printer.url, private: true }],
      trustProxy: ["loopback"],
    });
    const printKey = `${printer.url}/printkey/${KEY}`;
    const tries = async (n: number, headers: (i: number) => Record<string, string>) => {
      const statuses: number[] = [];
      for (let i = 1; i <= n; i++) statuses.push((await subscribe(site.url, printKey, headers(i))).status);
      return statuses;
    };
    // 30 clients behind the proxy: 30 tried
    expect(await tries(30, (i) => ({ "X-Forwarded-For": `203.0.113.${i}` }))).toEqual(Array(30).fill(200));
    expect(printer.requests).toHaveLength(30);
    // a client that makes up hops before its own, or the platform's header, is still one client
    const tenThenRefused = [...Array(10).fill(200), 429];
    expect(await tries(11, (i) => ({ "X-Forwarded-For": `198.51.100.${i}, 203.0.113.200` }))).toEqual(tenThenRefused);
    expect(
      await tries(11, (i) => ({ "X-Forwarded-For": "203.0.113.201", "x-nf-client-connection-ip": `198.51.100.${i}` })),
    ).toEqual(tenThenRefused);
    expect(printer.requests).toHaveLength(50);
  }, 60_000);
});

// ---------------------------------------------------------------- 8. the Host check

describe("the Host check (DNS rebinding against the local server)", () => {
  const PATHS = ["/", "/serial/", "/serial/deliveries/", "/serial/subscribe/", "/serial/meta.json"];
  let own: Site;
  let open: Site;
  let printer: Sink;

  beforeAll(async () => {
    printer = await startSink();
    const printKeyOrigins = [{ origin: printer.url, private: true }];
    own = await startSite({ ownHostsOnly: true, history: true, printKeyOrigins });
    open = await startSite({ printKeyOrigins });
  });

  it.each(["evil.example:PORT", "attacker.test"])(
    "under npm start, Host: %s gets 421 and nothing of the site, on every path and for a subscribe POST",
    async (hostPattern) => {
      const Host = hostPattern.replace("PORT", String(own.port));
      const answers: RawResponse[] = [];
      for (const target of PATHS) answers.push(await rawOnce(own.url, "GET", target, { Host }));
      const form = formOf(`${printer.url}/printkey/${KEY}`).toString();
      answers.push(
        await rawOnce(
          own.url,
          "POST",
          "/serial/subscribe/",
          { Host, "Content-Type": "application/x-www-form-urlencoded" },
          form,
        ),
      );
      for (const res of answers) {
        expect(res.status).toBe(421);
        expect(res.headers["content-type"]).toMatch(/^text\/plain/);
        expect(res.body.toString()).toBe(answers[0]!.body.toString());
        expect(res.body.toString()).not.toMatch(/<|serial|subscribe|printkey/i);
      }
      expect(printer.connections).toBe(0);
      expect(await own.state.store.list("subscriptions/")).toEqual([]);
    },
  );

  it("under npm start, its own Host names are answered", async () => {
    // A proxy on this machine in front of it (netlify dev at the starter's root) forwards its own port.
    for (const Host of [`127.0.0.1:${own.port}`, `localhost:${own.port}`, `LOCALHOST:${own.port}`, "localhost:8888"])
      for (const target of PATHS)
        expect((await rawOnce(own.url, "GET", target, { Host })).status, `${Host} ${target}`).toBe(200);
  });

  it("under npm run serve (behind a proxy), any Host is answered as its own", async () => {
    for (const target of PATHS) {
      const mine = await rawOnce(open.url, "GET", target, { Host: `127.0.0.1:${open.port}` });
      expect(mine.status).toBe(target === "/serial/deliveries/" ? 404 : 200);
      for (const Host of [`evil.example:${open.port}`, "attacker.test"]) {
        const other = await rawOnce(open.url, "GET", target, { Host });
        expect(other.status, `${Host} ${target}`).toBe(mine.status);
        expect(other.body.toString(), `${Host} ${target}`).toBe(mine.body.toString());
      }
    }
  });
});
