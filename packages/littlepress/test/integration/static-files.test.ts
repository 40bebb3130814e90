// The site's files as the local server sends them (lib/server/static-site.ts):
// a file replaced on disk is served as it is now (within a second), with a new ETag; a large one
// as whole as a small one; a path that cannot be a file name is a plain 404;
// netlify.toml's [[headers]] ride on the file's answers as Netlify sends them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { RECHECK_MS } from "../../lib/edge/site-index.ts";
import { rawOnce } from "../helpers/raw-http.ts";

let site: string;
let server: LocalServer;

beforeAll(async () => {
  site = mkdtempSync(path.join(".test-work", "static-files-"));
  server = await startServer({ port: 0, siteDir: site });
});
afterAll(async () => {
  await server?.close();
  rmSync(site, { recursive: true, force: true });
});

const get = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(server.url + pathname, { headers, signal: AbortSignal.timeout(10_000) });

describe("the site's files", () => {
  it("serves a file replaced on disk as it is now, once the last check of it is a second old", async () => {
    writeFileSync(path.join(site, "note.txt"), "first\n");
    const first = await get("/note.txt");
    expect(await first.text()).toBe("first\n");
    writeFileSync(path.join(site, "note.txt"), "the second, longer\n");
    await new Promise((r) => setTimeout(r, RECHECK_MS + 50));
    const second = await get("/note.txt");
    expect(await second.text()).toBe("the second, longer\n");
    expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });

  it("finds a file that appeared after a 404 for it", async () => {
    expect((await get("/later.txt")).status).toBe(404);
    writeFileSync(path.join(site, "later.txt"), "here now\n");
    expect(await (await get("/later.txt")).text()).toBe("here now\n");
  });

  it("answers a path that cannot be a file name (a NUL) with a 404 on a connection that stays open", async () => {
    for (const pathname of ["/%00", "/a%00b.txt", "/%00/index.html"]) {
      const res = await get(pathname);
      expect([pathname, res.status]).toEqual([pathname, 404]);
      expect(res.headers.get("connection")).not.toBe("close");
    }
  });

  it.each([
    ["small", 1000],
    ["large", 4 * 1024 * 1024 + 1000],
  ])("sends a %s file whole, and a range of it", async (_, size) => {
    const bytes = Buffer.alloc(size, 0).map((_, i) => (i * 7) % 251);
    const name = `/blob-${size}.png`;
    writeFileSync(path.join(site, name), bytes);
    for (let i = 0; i < 2; i++) {
      const whole = await get(name);
      expect(whole.headers.get("content-length")).toBe(String(size));
      expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
      const part = await get(name, { Range: "bytes=100-199" });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    }
  });
});

describe("netlify.toml's [[headers]]", () => {
  let root: string;
  let served: LocalServer;
  beforeAll(async () => {
    root = mkdtempSync(path.join(".test-work", "static-headers-"));
    mkdirSync(path.join(root, "site", "data"), { recursive: true });
    writeFileSync(path.join(root, "site", "data", "list.json"), '{"a":1}\n');
    writeFileSync(path.join(root, "site", "page.html"), "<p>hello</p>\n");
    const toml = [
      '[build]\n  publish = "site"',
      '[[headers]]\n  for = "/data/*"\n  [headers.values]\n    access-control-allow-origin = "*"\n' +
        '    Content-Type = "application/vnd.example+json"',
      // Two rules for one path: merged, the later one's value winning (as netlify dev merges them).
      '[[headers]]\n  for = "/data/list.json"\n  [headers.values]\n    X-Example = "later"',
      '[[headers]]\n  for = "/data/*"\n  [headers.values]\n    X-Example = "latest"',
    ].join("\n");
    writeFileSync(path.join(root, "netlify.toml"), toml + "\n");
    served = await startServer({ port: 0, root, stateDir: path.join(root, "state"), keyFile: path.join(root, "k") });
  });
  afterAll(async () => {
    await served?.close();
    rmSync(root, { recursive: true, force: true });
  });
  const at = (pathname: string, init: RequestInit = {}) =>
    fetch(served.url + pathname, { ...init, signal: AbortSignal.timeout(10_000) });

  it("are on the file's 200, 206 and HEAD, with one Content-Type, the rule's", async () => {
    for (const init of [{}, { headers: { Range: "bytes=0-2" } }, { method: "HEAD" }]) {
      const res = await at("/data/list.json", init);
      expect([res.status, res.headers.get("access-control-allow-origin")]).toEqual([
        init.method === "HEAD" ? 200 : init.headers ? 206 : 200,
        "*",
      ]);
      expect(res.headers.get("content-type")).toBe("application/vnd.example+json");
      expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(res.headers.get("x-example")).toBe("latest");
    }
  });

  it("are not on a 304, another path's file, or a 404 under the rule's path", async () => {
    const etag = (await at("/data/list.json")).headers.get("etag")!;
    // Raw: fetch adds Cache-Control: no-cache to a conditional request, which asks for the file again.
    const unchanged = await rawOnce(served.url, "GET", "/data/list.json", { "If-None-Match": etag });
    expect([unchanged.status, unchanged.headers["access-control-allow-origin"]]).toEqual([304, undefined]);
    const page = await at("/page.html");
    expect([page.status, page.headers.get("access-control-allow-origin")]).toEqual([200, null]);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const missing = await at("/data/none.json");
    expect([missing.status, missing.headers.get("access-control-allow-origin")]).toEqual([404, null]);
  });
});
