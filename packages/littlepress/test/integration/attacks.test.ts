// The server behind `npm start` and `npm run serve`, attacked over real HTTP
// (issue 15): raw sockets where a client library would tidy the request up.
// Each finding is a test of the fixed behaviour: the functions' private data
// is out of reach whatever the URL, a refused body does not break keep-alive,
// odd methods get 405, a bad Host 400, a client hanging up is no fault, static
// files revalidate and serve ranges, and a property test throws generated
// requests at it. Binds 127.0.0.1, every wait bounded, the server stopped.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { siteDataDir } from "../../lib/model/site-paths.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { rawOnce, RawConnection, rawRequest, type RawResponse } from "../helpers/raw-http.ts";
import { builtSite } from "../helpers/sites.ts";
import { compiled } from "../helpers/kit-script.ts";

const SITE = path.resolve(builtSite("examples"));
const DATA = siteDataDir(SITE);
let server: LocalServer;
let errors: MockInstance<typeof console.error>;

beforeAll(async () => {
  server = await startServer({ port: 0, siteDir: SITE });
});
afterAll(() => server?.close());
beforeEach(() => {
  errors = vi.spyOn(console, "error");
});
afterEach(() => {
  errors.mockRestore();
});

/** Something of every private file (the site index, each publication's index, each shard) a leak would show. */
function privateSamples(): Buffer[] {
  const files = readdirSync(DATA, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files.flatMap((e) => {
    const bytes = readFileSync(path.join(e.parentPath, e.name));
    if (e.name === "index.json") return [Buffer.from('"dictionary":'), bytes.subarray(0, 48)];
    return bytes.length >= 16 ? [bytes.subarray(0, 32)] : [];
  });
}
let SAMPLES: Buffer[] = [];
beforeAll(() => {
  SAMPLES = privateSamples();
  expect(SAMPLES.length).toBeGreaterThan(3);
});
const leaks = (body: Buffer) => SAMPLES.some((s) => body.includes(s));

/** No log line says something went wrong in the server or a function. */
function expectNoFaultLogged() {
  const logged = errors.mock.calls.map((args) => args.map(String).join(" "));
  expect(logged.filter((line) => /fault|internal|error/i.test(line))).toEqual([]);
}

const shardFile = readdirSync(path.join(DATA, "lighthouse", "shards"))[0]!;

describe("the functions' private data", () => {
  it("lives beside the site, not in it", () => {
    expect(statSync(path.join(DATA, "site.json")).isFile()).toBe(true);
    expect(statSync(path.join(DATA, "lighthouse", "index.json")).isFile()).toBe(true);
    expect(readdirSync(SITE)).not.toContain("_littlepress");
  });

  const dataName = path.basename(DATA);
  it.each([
    "/_littlepress/site.json",
    "/%2f_littlepress/site.json",
    "/%2F_littlepress/site.json",
    "/.%2f_littlepress/site.json",
    "/%2e/_littlepress/site.json",
    "/%2e%2f_littlepress/site.json",
    "/x/..%2F_littlepress/lighthouse/index.json",
    "/x/%2e%2e/_littlepress/lighthouse/index.json",
    `/%2f_littlepress/lighthouse/shards/${shardFile}`,
    "/%5c_littlepress/site.json",
    "/%5C_littlepress%5Clighthouse%5Cindex.json",
    "/%252f_littlepress/site.json",
    "/%252e%252e/_littlepress/site.json",
    "//_littlepress/site.json",
    "/./_littlepress/site.json",
    "/x/../_littlepress/lighthouse/index.json",
    `/../${dataName}/site.json`,
    `/..%2f${dataName}/site.json`,
    `/%2e%2e/${dataName}/lighthouse/index.json`,
    `/%2e%2e%2f${dataName}%2flighthouse%2fshards%2f${shardFile}`,
    `/x/..%2F..%2F${dataName}/lighthouse/index.json`,
    `//..//${dataName}/site.json`,
    `/%2e%2e%5c${dataName}%5csite.json`,
  ])("%s: 404, no private byte", async (target) => {
    for (const method of ["GET", "HEAD"]) {
      const res = await rawOnce(server.url, method, target);
      expect(res.status, `${method} ${target}`).toBe(404);
      expect(leaks(res.body)).toBe(false);
    }
    expectNoFaultLogged();
  });
});

describe("a body the server does not read", () => {
  const big = (bytes: number) => Buffer.alloc(bytes, "a");

  it.each([
    ["validate_config", "/good-morning/validate_config/", 20 * 1024, 413],
    ["validate_config", "/good-morning/validate_config/", 1_000_000, 413],
    ["edition", "/lighthouse/edition/?delivery_count=0", 1_000_000, 405],
    ["sample", "/lighthouse/sample/", 1_000_000, 405],
  ])(
    "POST %s (%s) of %i bytes: %i, then the same connection answers the next request",
    async (_, target, size, status) => {
      const conn = await RawConnection.open(server.url);
      try {
        await conn.write(
          rawRequest("POST", target, { "Content-Type": "application/x-www-form-urlencoded" }, big(size)),
        );
        const refused = await conn.response();
        expect(refused.status).toBe(status);
        expect(refused.headers.connection).not.toBe("close");
        await conn.write(rawRequest("GET", "/lighthouse/meta.json"));
        const next = await conn.response({ timeoutMs: 3_000 });
        expect(next.status).toBe(200);
        expect(JSON.parse(next.body.toString())).toMatchObject({ publication_api_version: "1.0" });
      } finally {
        conn.close();
      }
      expectNoFaultLogged();
    },
  );

  it.each([2_000_000, 20_000_000])(
    "POST validate_config of %i bytes: 413 with Connection: close, the connection ends cleanly, the next one works",
    async (size) => {
      const conn = await RawConnection.open(server.url);
      try {
        void conn.write(rawRequest("POST", "/good-morning/validate_config/", {}, big(size)));
        const refused = await conn.response();
        expect(refused.status).toBe(413);
        expect(refused.headers.connection).toBe("close");
        expect(await conn.closedByServer()).toBe(true);
      } finally {
        conn.close();
      }
      const res = await fetch(`${server.url}/lighthouse/edition/?delivery_count=0`, {
        signal: AbortSignal.timeout(3_000),
      });
      expect(res.status).toBe(200);
      expectNoFaultLogged();
    },
    20_000,
  );

  it("a keep-alive client (fetch) gets its next request answered after a 2 MB refusal", async () => {
    const refused = await fetch(`${server.url}/good-morning/validate_config/`, {
      method: "POST",
      body: big(2_000_000),
      signal: AbortSignal.timeout(5_000),
    });
    expect(refused.status).toBe(413);
    await refused.arrayBuffer();
    const next = await fetch(`${server.url}/lighthouse/meta.json`, { signal: AbortSignal.timeout(3_000) });
    expect(next.status).toBe(200);
  });

  it("a client hanging up mid-body is not a fault", async () => {
    for (const target of ["/good-morning/validate_config/", "/lighthouse/edition/", "/lighthouse/meta.json"]) {
      const conn = await RawConnection.open(server.url);
      await conn.write(rawRequest("POST", target, { "Content-Length": "100000" }, "config=%7B%22lang"));
      await new Promise((r) => setTimeout(r, 100));
      conn.close();
    }
    await new Promise((r) => setTimeout(r, 300));
    expectNoFaultLogged();
    expect((await fetch(`${server.url}/lighthouse/meta.json`)).status).toBe(200);
  });
});

describe("methods", () => {
  const resources = [
    "/lighthouse/edition/?delivery_count=0",
    "/edition/",
    "/lighthouse/sample/",
    "/lighthouse/meta.json",
  ];

  it.each(["PUT", "DELETE", "PATCH", "POST", "OPTIONS", "TRACE", "PROPFIND"])(
    "%s on /edition/, /sample/ and a static file: 405 with Allow: GET, HEAD, and no content",
    async (method) => {
      for (const target of resources) {
        const res = await rawOnce(server.url, method, target, {}, method === "TRACE" ? undefined : "x=1");
        expect(res.status, `${method} ${target}`).toBe(405);
        expect(res.headers.allow).toBe("GET, HEAD");
        expect(res.body.toString()).not.toMatch(/Lighthouse|<html|publication_api_version/i);
      }
      expectNoFaultLogged();
    },
  );

  it("GET and HEAD still answer /edition/ with 200, 204 or 410, and HEAD with no body", async () => {
    expect((await rawOnce(server.url, "GET", "/lighthouse/edition/?delivery_count=0")).status).toBe(200);
    expect((await rawOnce(server.url, "GET", "/lighthouse/edition/?delivery_count=x")).status).toBe(204);
    expect((await rawOnce(server.url, "GET", "/lighthouse/edition/?delivery_count=7")).status).toBe(410);
    const head = await rawOnce(server.url, "HEAD", "/lighthouse/edition/?delivery_count=0");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
  });

  it.each(["GET", "PUT", "DELETE", "TRACE", "OPTIONS"])("%s on validate_config/: 405 with Allow: POST", async (m) => {
    const res = await rawOnce(server.url, m, "/good-morning/validate_config/");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expectNoFaultLogged();
  });
});

describe("requests that cannot be read", () => {
  it.each(["a b", "[", "x:99999", "a/b", "user@host", "h?x", ""])("Host %j: 400, nothing logged", async (host) => {
    for (const target of ["/lighthouse/edition/?delivery_count=0", "/lighthouse/meta.json"]) {
      const res = await rawOnce(server.url, "GET", target, { Host: host });
      expect(res.status).toBe(400);
    }
    expectNoFaultLogged();
  });

  it("a target that is not a path: 400; the absolute form is read", async () => {
    expect((await rawOnce(server.url, "GET", "*")).status).toBe(400);
    expect((await rawOnce(server.url, "OPTIONS", "*")).status).toBe(400);
    const absolute = await rawOnce(server.url, "GET", "http://127.0.0.1/lighthouse/meta.json");
    expect(absolute.status).toBe(200);
    expectNoFaultLogged();
  });
});

describe("static files", () => {
  const file = "/lighthouse/meta.json";

  it("carry an ETag and Last-Modified, and answer 304 to If-None-Match and If-Modified-Since", async () => {
    const first = await rawOnce(server.url, "GET", file);
    expect(first.status).toBe(200);
    const { etag, "last-modified": modified } = first.headers;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(modified!)).toBeGreaterThan(0);
    const byTag = await rawOnce(server.url, "GET", file, { "If-None-Match": `"other", ${etag}` });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.etag).toBe(etag);
    expect((await rawOnce(server.url, "GET", file, { "If-None-Match": `W/${etag}` })).status).toBe(304);
    expect((await rawOnce(server.url, "GET", file, { "If-Modified-Since": modified! })).status).toBe(304);
    expect((await rawOnce(server.url, "GET", file, { "If-None-Match": '"other"' })).status).toBe(200);
    const old = new Date(Date.parse(modified!) - 60_000).toUTCString();
    expect((await rawOnce(server.url, "GET", file, { "If-Modified-Since": old })).status).toBe(200);
  });

  it("serve a byte range (206), refuse one past the end (416), ignore one for another copy (If-Range)", async () => {
    const whole = (await rawOnce(server.url, "GET", file)).body;
    const part = await rawOnce(server.url, "GET", file, { Range: "bytes=2-9" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 2-9/${whole.length}`);
    expect(part.body).toEqual(whole.subarray(2, 10));
    const tail = await rawOnce(server.url, "GET", file, { Range: "bytes=-5" });
    expect(tail.status).toBe(206);
    expect(tail.body).toEqual(whole.subarray(whole.length - 5));
    const past = await rawOnce(server.url, "GET", file, { Range: `bytes=${whole.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${whole.length}`);
    const stale = await rawOnce(server.url, "GET", file, { Range: "bytes=2-9", "If-Range": '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(whole);
  });
});

describe("generated requests (fast-check)", () => {
  const methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"];
  const segment = fc.oneof(
    fc.constantFrom(
      "lighthouse",
      "almanac",
      "good-morning",
      "edition",
      "sample",
      "validate_config",
      "meta.json",
      "icon.png",
      "_littlepress",
      "_littlepress-shards",
      path.basename(DATA),
      "site.json",
      "index.json",
      "shards",
      shardFile,
      "..",
      ".",
      "",
      "%2e%2e",
      "%2e",
      "%2f",
      "%2F",
      "%5c",
      "%252f",
      "%00",
      "%zz",
      "..%2f",
      "%2e%2e%2f",
      "%c0%ae",
    ),
    fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/),
  );
  const target = fc
    .tuple(
      fc.array(segment, { minLength: 0, maxLength: 6 }),
      fc.constantFrom("", "/"),
      fc.constantFrom(
        "",
        "?delivery_count=0",
        "?delivery_count=-1",
        "?local_delivery_time=2026-11-23T06:00:00Z",
        "?a=%zz&&=",
      ),
    )
    .map(([parts, slash, query]) => `/${parts.join("/")}${slash}${query}`);
  const headers = fc.dictionary(
    fc.constantFrom(
      "Range",
      "If-None-Match",
      "If-Modified-Since",
      "Sec-Fetch-Dest",
      "Content-Type",
      "X-Forwarded-For",
      "Accept-Encoding",
    ),
    fc.constantFrom(
      "bytes=0-3",
      "bytes=-1",
      "bytes=9-2",
      '"x"',
      "*",
      "document",
      "application/json",
      "multipart/form-data; boundary=z",
      "gzip",
      "Tue, 01 Jan 2030 00:00:00 GMT",
      "junk",
    ),
    { maxKeys: 4 },
  );
  const body = fc.option(
    fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('{"config":{"lang":"fr"}}', "config=%7B%7D")),
    { nil: undefined },
  );
  const host = fc.constantFrom("127.0.0.1", "localhost:8080", "example.com", "[::1]:80", "a b", "x:99999");

  it("never 5xx, never private bytes, /edition/ GETs only 200/204/410, the connection stays usable", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), target, headers, body, host, async (method, t, h, b, hostName) => {
        const conn = await RawConnection.open(server.url);
        try {
          const sent = method === "TRACE" ? undefined : b;
          await conn.write(rawRequest(method, t, { Host: hostName, ...h }, sent));
          const res: RawResponse = await conn.response({ head: method === "HEAD" });
          expect(res.status, `${method} ${t}`).toBeLessThan(500);
          expect(leaks(res.body), `${method} ${t}`).toBe(false);
          const pathname = t.split("?")[0]!;
          if (method === "GET" && res.status !== 400 && /^(\/[a-z-]+)?\/edition\/?$/.test(pathname))
            expect([200, 204, 410], `${method} ${t}`).toContain(res.status);
          if (res.headers.connection === "close") {
            expect(await conn.closedByServer(), "a Connection: close answer ends the connection").toBe(true);
          } else {
            await conn.write(rawRequest("GET", "/lighthouse/meta.json"));
            expect((await conn.response({ timeoutMs: 3_000 })).status, `after ${method} ${t}`).toBe(200);
          }
        } finally {
          conn.close();
        }
      }),
      { numRuns: 150, interruptAfterTimeLimit: 60_000 },
    );
    expectNoFaultLogged();
  }, 90_000);
});

describe("npm run serve", () => {
  it("on SIGTERM stops accepting, finishes the request in flight, and exits 0", async () => {
    const args = [compiled("scripts/serve.ts"), "--port", "0", "--host", "127.0.0.1", "--site", SITE];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let log = "";
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm run serve did not start:\n${log}`)), 30_000);
        const read = (chunk: Buffer) => {
          log += chunk.toString();
          const found = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log)?.[1];
          if (!found) return;
          clearTimeout(timer);
          resolve(found);
        };
        child.stdout.on("data", read);
        child.stderr.on("data", read);
      });
      const body = `config=${encodeURIComponent('{"lang":"fr"}')}`;
      const conn = await RawConnection.open(url);
      await conn.write(rawRequest("POST", "/good-morning/validate_config/", { "Content-Length": String(body.length) }));
      await conn.write(body.slice(0, 5));
      await new Promise((r) => setTimeout(r, 200)); // the request is in flight
      child.kill("SIGTERM");
      await refusedSoon(url);
      await conn.write(body.slice(5));
      const res = await conn.response();
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString())).toEqual({ valid: true });
      expect(res.headers.connection).toBe("close");
      conn.close();
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});

/**
 * Waits until `url` refuses new connections: once the server has taken its signal, which a loaded machine may
 * take a moment to deliver (bounded, 10 s). A probe the server still accepted is closed at once. A probe
 * the kernel had queued when the server closed its listening socket is reset, never accepted: refused too.
 */
async function refusedSoon(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = await RawConnection.open(url).catch((error: Error) => error);
    if (probe instanceof Error) return void expect(probe.message).toMatch(/^connect (?:ECONNREFUSED|ECONNRESET) /);
    probe.close();
    if (Date.now() > deadline) throw new Error(`${url} still accepted connections 10 s after SIGTERM`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
