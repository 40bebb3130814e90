// `npm start`, `npm run serve` and the benchmark run the server compiled with
// the functions (lib/server/compiled-server.ts). It must answer every request
// exactly as the server run from its sources does (which the other tests hold
// to what Netlify runs), and leave no compiled code behind.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILED_DIR, startCompiledServer } from "../../lib/server/compiled-server.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { builtSite } from "../helpers/sites.ts";

const ROOT = process.cwd();
const compiledDir = path.join(ROOT, COMPILED_DIR);
const ours = () =>
  (existsSync(compiledDir) ? readdirSync(compiledDir) : []).filter((n) => n.startsWith(`serve-${process.pid}-`));

let sources: LocalServer;
let compiled: LocalServer;
// A folder left by a process that has ended (killed before it could remove it).
const stale = path.join(compiledDir, "serve-999999999-0");

beforeAll(async () => {
  mkdirSync(stale, { recursive: true });
  const siteDir = builtSite("examples");
  sources = await startServer({ port: 0, siteDir });
  compiled = await startCompiledServer({ port: 0, siteDir });
});
afterAll(async () => {
  await sources?.close();
  await compiled?.close();
});

type Ask = [method: string, target: string, headers?: Record<string, string>, body?: string];
const ASKS: Ask[] = [
  ["GET", "/lighthouse/edition/?delivery_count=0"],
  ["HEAD", "/lighthouse/edition/?delivery_count=3"],
  ["GET", "/lighthouse/edition/?delivery_count=7"],
  ["GET", "/lighthouse/edition/?delivery_count=x%ZZ"],
  ["GET", "/almanac/edition/?local_delivery_time=2026-11-20T06:00:00%2B01:00"],
  ["GET", "/good-morning/edition/?lang=fr&name=L%C3%A9a&local_delivery_time=2026-11-20T06:00:00Z"],
  ["GET", "/good-morning/sample/?lang=es"],
  ["POST", "/lighthouse/edition/", {}, "x"],
  ["GET", "/lighthouse/meta.json"],
  ["GET", "/lighthouse/meta.json", { Range: "bytes=0-9" }],
  ["GET", "/lighthouse/icon.png"],
  ["GET", "/"],
  ["GET", "/%2f_littlepress/site.json"],
  ["GET", "/no/such/page"],
  ["DELETE", "/lighthouse/meta.json"],
  ["POST", "/lighthouse/validate_config/", { "Content-Type": "application/json" }, '{"lang":"xx"}'],
  ["GET", "/.netlify/functions/edition?delivery_count=0"],
];

/** Status, headers (but the date) and bytes of one answer. */
async function answerOf(server: LocalServer, [method, target, headers = {}, body]: Ask) {
  const res = await fetch(server.url + target, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const seen = [...res.headers].filter(([name]) => name !== "date");
  return { status: res.status, headers: seen, body: Buffer.from(await res.arrayBuffer()).toString("base64") };
}

describe("the compiled server", () => {
  it.each(ASKS)("%s %s: the same status, headers and bytes as from the sources", async (...ask) => {
    const expected = await answerOf(sources, ask);
    expect(await answerOf(compiled, ask)).toEqual(expected);
  });

  it("answers a conditional request for a file with 304, as from the sources", async () => {
    const { headers } = await answerOf(sources, ["GET", "/lighthouse/meta.json"]);
    const etag = headers.find(([name]) => name === "etag")![1];
    const ask: Ask = ["GET", "/lighthouse/meta.json", { "If-None-Match": etag }];
    const expected = await answerOf(sources, ask);
    expect(expected.status).toBe(304);
    expect(await answerOf(compiled, ask)).toEqual(expected);
  });

  it("removes the folders of ended processes, keeps its own while it runs, and removes it when closed", async () => {
    expect(existsSync(stale)).toBe(false);
    expect(ours()).toHaveLength(1);
    const another = await startCompiledServer({ port: 0, siteDir: builtSite("examples") });
    expect(ours()).toHaveLength(2);
    await another.close();
    expect(ours()).toHaveLength(1);
  });
});

describe("a function that does not compile", () => {
  it("stops the start with the file, the line and esbuild's reason, and leaves no compiled code", async () => {
    const root = mkdtempSync(path.join(ROOT, ".test-work", "compile-"));
    copyFileSync(path.join(ROOT, "netlify.toml"), path.join(root, "netlify.toml"));
    mkdirSync(path.join(root, "functions"));
    writeFileSync(
      path.join(root, "functions", "broken.mts"),
      "export default (req: Request) => {\n  return new Response(;\n};\n",
    );
    try {
      const start = startCompiledServer({ root, port: 0, siteDir: builtSite("examples") });
      await expect(start).rejects.toThrow(/functions\/broken\.mts:2:\d+: ERROR: /);
      expect(readdirSync(path.join(root, COMPILED_DIR))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
