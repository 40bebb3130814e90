// The site's files as the local server sends them (lib/server/static-site.ts):
// a file replaced on disk is served as it is now, with a new ETag; a large one
// as whole as a small one; a path that cannot be a file name is a plain 404.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type LocalServer } from "../../lib/server/server.ts";

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
  it("serves a file replaced on disk as it is now", async () => {
    writeFileSync(path.join(site, "note.txt"), "first\n");
    const first = await get("/note.txt");
    expect(await first.text()).toBe("first\n");
    writeFileSync(path.join(site, "note.txt"), "the second, longer\n");
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
