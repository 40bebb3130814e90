// Parity with Netlify: the same built site, served by netlify-cli's own
// emulator (offline, no login), answers through netlify.toml's routes exactly
// as the spec and the local server do. Bounded in time; stops what it started.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NETLIFY_START_MS, ownNetlifyProject, runNetlify, type NetlifyRun } from "../helpers/netlify-cli.ts";
import { builtSite } from "../helpers/sites.ts";
import { STARTER_NETLIFY_CONFIG } from "../../lib/server/netlify-config.ts";
import { freePort } from "../../scripts/cli.ts";
import { parse, stringify } from "smol-toml";

let netlify: NetlifyRun;
let project = "";
let base = "";

/** A request to netlify dev; when it fails, the error says whether netlify dev is still running, and its last words. */
const get = (p: string, init?: RequestInit) =>
  fetch(base + p, { ...init, signal: AbortSignal.timeout(20_000) }).catch((error: unknown) => {
    const { exitCode, signalCode } = netlify.child;
    const state = exitCode === null && signalCode === null ? "still running" : "exited";
    const log = netlify.log.slice(-4000);
    throw new Error(
      `${p}: ${String(error)}; netlify dev ${state} ${exitCode ?? signalCode ?? ""}, its log ends:\n${log}`,
      {
        cause: error,
      },
    );
  });

/**
 * The starter's netlify.toml without its [dev] table. That table has netlify dev run `npm start` on port
 * 8080, and netlify-cli runs a configured command even beside the static server that --dir asks for: here
 * it started the kit's own `npm start`, which failed whenever the author's was running. Nothing in [dev]
 * reaches what this test compares (the routes, the headers, the functions).
 */
function starterConfigWithoutDev(): string {
  const config = parse(readFileSync(STARTER_NETLIFY_CONFIG, "utf8"));
  delete config.dev;
  return stringify(config);
}

/**
 * A folder whose netlify.toml is the starter's, as the package carries it (netlify.starter.toml: a file
 * named netlify.toml in the package would make netlify-cli, run at the starter's root, take this workspace
 * package for the site), less its [dev] table. netlify dev reads netlify.toml from where it runs and takes
 * no other.
 */
function projectWithStarterConfig(): string {
  // Inside the package, so that the functions' bundler finds them and their packages within the project.
  mkdirSync(".test-work", { recursive: true });
  const project = mkdtempSync(path.join(".test-work", "netlify-project-"));
  writeFileSync(path.join(project, "netlify.toml"), starterConfigWithoutDev());
  ownNetlifyProject(project);
  return project;
}

beforeAll(async () => {
  const site = path.resolve(builtSite("rooted"));
  const port = await freePort(0);
  base = `http://127.0.0.1:${port}`;
  // The flags that start offline, without login or Deno (see the toolchain notes). The static server's
  // port too: netlify-cli's own default, 3999, may be another program's.
  const args = [
    "dev",
    "--offline",
    "--no-open",
    "--skip-gitignore",
    "--port",
    String(port),
    "--staticServerPort",
    String(await freePort(0)),
    "--internal-disable-edge-functions",
    "--framework",
    "#static",
    "--functions",
    path.resolve("functions"),
    "--dir",
    site,
  ];
  project = projectWithStarterConfig();
  netlify = runNetlify(args, project, { LITTLEPRESS_SITE_DIR: site });
  // Ready when both the static server and a function answer.
  const answers = () =>
    Promise.all([get("/only/meta.json"), get("/only/sample/")]).then(
      (r) => r.every((x) => x.status === 200),
      () => false,
    );
  await netlify.ready(answers, NETLIFY_START_MS, "netlify dev");
}, NETLIFY_START_MS + 30_000);

afterAll(async () => {
  await netlify?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each([
  ["under its folder", "/only"],
  ["at the site root", ""],
])("through netlify dev, a publication %s", (_, prefix) => {
  it("serves meta.json as JSON with a charset", async () => {
    const res = await get(`${prefix}/meta.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toMatchObject({ name: "Only", send_delivery_count: true, send_timezone_info: false });
  });

  it("answers /edition/ with 200, 204 and 410, with and without the slash, headers intact", async () => {
    for (const slash of ["/", ""]) {
      const ok = await get(`${prefix}/edition${slash}?delivery_count=0&name=${encodeURIComponent("<Ada>")}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("etag")).toMatch(/^"0-[0-9a-f]{16}"$/);
      expect(ok.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await ok.text()).toContain("First, &lt;Ada&gt;.");
      const none = await get(`${prefix}/edition${slash}?delivery_count=abc`);
      expect(none.status).toBe(204);
      expect(none.headers.get("x-littlepress-reason")).toMatch(/delivery_count/);
      const gone = await get(`${prefix}/edition${slash}?delivery_count=2`);
      expect(gone.status).toBe(410);
      expect(await gone.text()).toBe("");
    }
  });

  it("keeps the same ETag for the same request, and never answers 304", async () => {
    const a = await get(`${prefix}/edition/?delivery_count=1`);
    const b = await get(`${prefix}/edition/?delivery_count=1`, {
      headers: { "if-none-match": a.headers.get("etag")! },
    });
    expect(b.status).toBe(200);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
  });

  it("answers POST /validate_config/", async () => {
    const post = (config: string) =>
      get(`${prefix}/validate_config/`, { method: "POST", body: new URLSearchParams({ config }) });
    const good = await post('{"name":"Ada"}');
    expect(good.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await good.json()).toEqual({ valid: true });
    expect(await (await post('{"age":"3"}')).json()).toEqual({
      valid: false,
      errors: ['Unknown setting "age": this publication does not ask for it.'],
    });
    expect((await post("{")).status).toBe(400);
  });
});

it("keeps the functions' data private through netlify.toml", async () => {
  expect((await get("/_littlepress/only/index.json")).status).toBe(404);
});
