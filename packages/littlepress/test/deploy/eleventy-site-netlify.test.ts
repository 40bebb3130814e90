// An Eleventy site whose config builds into dist/ (test/fixtures/eleventy-site), set up for Netlify as
// docs/eleventy-plugin.md says ("Deploying a blog to Netlify"), deployed as Netlify deploys it: netlify-cli's
// own production build (`netlify serve --offline`: the [build] command, zip-it-and-ship-it bundling each
// function with its included_files, the zips served). The functions find their data beside dist/, in the
// dist_data/ their zips carry, with no setting of ours. Offline, without a login; stopped by the test.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../scripts/cli.ts";
import { distNetlifyToml, siteCopy } from "../helpers/eleventy-site.ts";
import { NETLIFY_START_MS, ownNetlifyProject, runNetlify, type NetlifyRun } from "../helpers/netlify-cli.ts";

const ROOT = path.resolve(".test-work", `eleventy-netlify-${process.pid}`);
/** The starter's functions: a line each that re-exports the package's handler beside its routes. */
const STARTER_FUNCTIONS = path.resolve("../../functions");

let site = "";
let netlify: NetlifyRun | undefined;
let base = "";

beforeAll(async () => {
  site = siteCopy(ROOT, "site", { "netlify.toml": distNetlifyToml({ dev: false }) });
  cpSync(STARTER_FUNCTIONS, path.join(site, "functions"), { recursive: true });
  ownNetlifyProject(site);
  const port = await freePort(0);
  base = `http://127.0.0.1:${port}`;
  // The flags that run offline, without a login or Deno (edge functions need a download): the toolchain notes.
  const args = ["serve", "--offline", "--port", String(port), "--internal-disable-edge-functions"];
  netlify = runNetlify(args, site);
  const serving = netlify;
  await serving.ready(
    () => /Local dev server ready|Server now ready/.test(serving.log),
    NETLIFY_START_MS,
    "netlify serve",
  );
}, NETLIFY_START_MS + 30_000);

afterAll(async () => {
  await netlify?.stop();
  rmSync(ROOT, { recursive: true, force: true });
});

const get = (p: string) => fetch(base + p, { signal: AbortSignal.timeout(30_000) });

it("builds dist/ with its data in dist_data/, and zips the data with the functions, not the site", () => {
  expect(netlify!.log).toMatch(/littlepress: built dist\/ in/);
  expect(netlify!.log).toMatch(/Functions bundling completed/);
  const zip = (name: string) =>
    execFileSync("unzip", ["-Z1", path.join(site, ".netlify/functions", `${name}.zip`)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
  const zips = readdirSync(path.join(site, ".netlify/functions")).filter((f) => f.endsWith(".zip"));
  expect(zips.length).toBe(readdirSync(STARTER_FUNCTIONS).length);
  const edition = zip("edition");
  expect(edition).toContain("dist_data/site.json");
  expect(edition).toContain("dist_data/paper/index.json");
  for (const folder of ["dist/", "src/", "_site_data/", "public/"])
    expect(
      edition.filter((e) => e.startsWith(folder)),
      folder,
    ).toEqual([]);
  expect(zip("subscribe").filter((e) => e.startsWith("dist_data/"))).toEqual(["dist_data/site.json"]);
});

it("answers the edition from the data beside dist/, and publishes dist/ without it", async () => {
  const query = `local_delivery_time=${encodeURIComponent("2026-03-03T06:00:00-08:00")}`;
  for (const route of ["/paper/edition/", "/paper/edition"]) {
    const res = await get(`${route}?${query}`);
    expect(res.headers.get("x-littlepress-reason") ?? "", route).toBe("");
    expect(res.status, route).toBe(200);
    expect(await res.text()).toContain("Good morning, from a variable set in Nunjucks.");
  }
  expect((await get("/paper/meta.json")).status).toBe(200);
  expect(await (await get("/sw.js")).text()).toContain("addEventListener");
  for (const secret of ["/dist_data/site.json", "/dist_data/paper/index.json", "/_littlepress/paper/index.json"])
    expect((await get(secret)).status, secret).toBe(404);
});
