// Live data at build time: a data file fetches through @11ty/eleventy-fetch from
// a local server standing in for a remote API. What it answers is in the
// edition; a server that fails, or no server at all, fails the build with the
// data file, the URL and the reason, and leaves no half-built site.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { buildCommand } from "../helpers/build-command.ts";
import { buildSite } from "../helpers/build-sites.ts";
import { closedPorts } from "../helpers/server.ts";

const ROOT = ".test-work/live-data";
const CONTENT = "test/live-fixtures";
const DATA_FILE = "test/live-fixtures/wire/wire.11tydata.js";

/** The stand-in for the remote API: headlines as JSON, a 500, and a body that is not JSON. */
function api(): Server {
  return createServer((req, res) => {
    if (req.url === "/headlines.json") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ as_of: "6 a.m.", headlines: ["Fog lifts by noon", "Ferry back on time"] }));
    } else if (req.url === "/half.json") {
      res.setHeader("content-type", "application/json");
      res.end('{"headlines": [');
    } else {
      res.statusCode = 500;
      res.end("upstream exploded");
    }
  });
}

let server: Server;
let base: string;
beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  server = api();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * Builds the fixture (or `content`) with WIRE_URL set: the output of a failed build, or undefined. The build
 * command's main() runs in this process (test/helpers/build-command.ts); two cases build in a process of their own.
 */
async function buildWith(url: string, output: string, content = CONTENT): Promise<string | undefined> {
  const run = await buildCommand(["--content", content, "--output", output], { WIRE_URL: url });
  return run.code === 0 ? undefined : run.output;
}

/** buildWith, in a process of its own, as the author runs `npm run build`. */
async function buildProcessWith(url: string, output: string): Promise<string | undefined> {
  try {
    await buildSite(CONTENT, output, undefined, { env: { WIRE_URL: url } });
    return undefined;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ""}${stderr ?? ""}`;
  }
}

/** The one edition of the built fixture, as served. */
async function editionHtml(site: string): Promise<string> {
  const pub = await openPublication("wire", path.resolve(site));
  const editions: string[] = [];
  for await (const e of eachEdition(pub!)) editions.push(e.html);
  expect(editions).toHaveLength(1);
  return editions[0]!;
}

describe("a data file that fetches", { timeout: 120_000 }, () => {
  it("puts what the API answered in the edition", async () => {
    const site = path.join(ROOT, "ok", "_site");
    expect(await buildProcessWith(`${base}/headlines.json`, site)).toBeUndefined();
    const html = await editionHtml(site);
    expect(html).toContain("As of 6 a.m.:");
    expect(html).toMatch(/<li>Fog lifts by noon<\/li>\s*<li>Ferry back on time<\/li>/);
  });

  it("fails the build on a 500, naming the data file, the URL (without its query) and the status", async () => {
    const site = path.join(ROOT, "500", "_site");
    const output = await buildWith(`${base}/headlines?key=s3cret`, site);
    expect(output).toContain(`${DATA_FILE}: ${base}/headlines\n`);
    expect(output).toContain("problem: the fetch failed: the server answered 500 Internal Server Error");
    expect(output).toMatch(/fix: check the address.*the last deploy stays up/);
    expect(output).not.toContain("s3cret");
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
    expect(existsSync(site)).toBe(false);
  });

  it("fails the build on a refused connection, saying so", async () => {
    const url = `http://127.0.0.1:${(await closedPorts(1))[0]}/headlines.json`;
    const output = await buildWith(url, path.join(ROOT, "refused", "_site"));
    expect(output).toContain(`${DATA_FILE}: ${url}\n`);
    expect(output).toMatch(
      /problem: the fetch failed: the connection was refused: .*\(connect ECONNREFUSED 127\.0\.0\.1:\d+\)/,
    );
  });

  it("fails the build on an answer that is not the JSON asked for", async () => {
    const output = await buildWith(`${base}/half.json`, path.join(ROOT, "half", "_site"));
    expect(output).toContain(`${DATA_FILE}: ${base}/half.json\n`);
    expect(output).toMatch(/problem: the fetch failed: the server answered 200, but .*JSON/);
  });

  it("keeps the last good site when a later build's fetch fails", async () => {
    const site = path.join(ROOT, "kept", "_site");
    expect(await buildWith(`${base}/headlines.json`, site)).toBeUndefined();
    expect(await buildWith(`${base}/down`, site)).toContain("the server answered 500");
    expect(await editionHtml(site)).toContain("Fog lifts by noon");
  });
});

describe("a data file that fails by itself", { timeout: 120_000 }, () => {
  /** A copy of the fixture with `file` (under wire/) replaced by `text`. */
  function brokenCopy(name: string, file: string, text: string): string {
    const content = path.join(ROOT, name, "content");
    cpSync(CONTENT, content, { recursive: true });
    writeFileSync(path.join(content, "wire", file), text);
    return content;
  }

  it("names the file and the line of an error it throws (a missing setting)", async () => {
    // In a process of its own: the line is read from the error's stack, as Node gives it to the author's build.
    const output = await buildProcessWith("", path.join(ROOT, "unset", "_site"));
    expect(output).toContain(`${DATA_FILE}: line 8\n`);
    expect(output).toContain("problem: threw an error: set WIRE_URL to the address of the headlines (JSON)");
    expect(output).toContain("fix: correct the data file: it is JavaScript that Eleventy imports and runs");
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it("names the file and the line of a syntax error", async () => {
    const content = brokenCopy("syntax", "editions/editions.11tydata.js", "export default {\n  a: 1,,\n};\n");
    const output = await buildWith(`${base}/headlines.json`, path.join(ROOT, "syntax", "_site"), content);
    expect(output).toContain(`${content}/wire/editions/editions.11tydata.js: line 2\n`);
    expect(output).toContain("problem: does not import: Unexpected token ','");
  });

  it("prints no user name, password or key of the URL, its own or in the network library's words", async () => {
    // In a process of its own, as the author's build (and CI's log) has it: all it writes, stdout and stderr.
    const port = base.split(":").at(-1);
    const cases = [
      [`http://alice:hunter2@127.0.0.1:${port}/headlines?key=s3cret`, `${base}/headlines`],
      [`alice:hunter2@127.0.0.1:${port}/headlines?key=s3cret`, `127.0.0.1:${port}/headlines`],
      [`127.0.0.1:${port}/headlines?key=s3cret`, `127.0.0.1:${port}/headlines`],
      ["sk-live-s3cret", "(an address that is not shown: it may hold a key)"],
    ];
    for (const [i, [url, shown]] of cases.entries()) {
      const output = await buildProcessWith(url!, path.join(ROOT, `secret-${i}`, "_site"));
      expect(output).toContain(`${DATA_FILE}: ${shown}\n`);
      for (const secret of ["alice", "hunter2", "s3cret"]) expect(output).not.toContain(secret);
    }
  });

  it("says so when what it fetches is not a URL", async () => {
    const output = await buildWith("headlines.json", path.join(ROOT, "relative", "_site"));
    expect(output).toContain(`${DATA_FILE}: headlines.json\n`);
    expect(output).toContain("problem: is not a full URL (http:// or https://)");
  });
});
