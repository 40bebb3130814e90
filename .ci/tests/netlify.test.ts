// Deploying this repository as it is (issue 35): Netlify's production build of
// the starter's root, run by the workspace's own netlify-cli, offline and
// without a login. `netlify serve` runs the [build] command, bundles every
// function with zip-it-and-ship-it as a deploy does, and serves the zips;
// the conformance checker then plays the platform against what it serves.
// `netlify dev` at the root must start without asking which framework to run.
// Both write the root's _site/ and .netlify/, as a deploy's build does.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inFolder } from "./packed.ts";
import { started, waitFor } from "./processes.ts";
import { freePort } from "../../packages/littlepress/scripts/cli.ts";

const SLOW = 300_000;
/**
 * A whole check of one publication against netlify serve: 30 s alone here, 100-166 s in loaded CI runs, and
 * over 240 s in one, where the starter's npm ci took 296 s beside it. A bound on a hang, not on the speed.
 */
const CHECK_BOUND = 600_000;
const NETLIFY = path.resolve("node_modules/.bin/netlify");
const home = mkdtempSync(path.join(tmpdir(), "netlify-home-"));

afterAll(() => rmSync(home, { recursive: true, force: true }));

/**
 * A netlify-cli command at the root, as a user runs it, until `ready` says it serves; stopped by `stop`.
 * `env`: more of its environment.
 */
async function netlify(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}) {
  const port = await freePort(0);
  // The flags that run offline without a login or Deno (edge functions need a download): see the toolchain notes.
  const server = await started(
    NETLIFY,
    [...args, "--offline", "--port", String(port), "--internal-disable-edge-functions"],
    {
      env: { ...process.env, HOME: home, BROWSER: "none", CI: "true", NO_UPDATE_NOTIFIER: "1", ...env },
      ready,
      within: 240_000,
      signal: "SIGTERM",
    },
  );
  return { base: `http://127.0.0.1:${port}`, log: server.log, seconds: server.seconds, stop: server.stop };
}

/** The publications the build made (each has its index among the functions' data). */
const publications = () =>
  readdirSync("_site_data", { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join("_site_data", e.name, "index.json")))
    .map((e) => e.name);

const FUNCTIONS = readdirSync("functions")
  .filter((f) => f.endsWith(".mts"))
  .map((f) => f.replace(/\.mts$/, ""));

describe("netlify serve --offline at the root: the production build, bundled as a deploy", () => {
  let served: Awaited<ReturnType<typeof netlify>>;
  afterAll(async () => served?.stop());

  it(
    "builds the site and zips every function",
    async () => {
      served = await netlify(["serve"], /Local dev server ready|Server now ready/);
      console.log(`netlify serve --offline: built, bundled and serving in ${served.seconds.toFixed(1)} s`);
      expect(served.log()).toMatch(/littlepress: built _site\/ in/);
      expect(served.log()).toMatch(/Functions bundling completed/);
      expect(served.log()).not.toMatch(/\[ERROR\]|Could not resolve/);
      const zips = readdirSync(".netlify/functions").filter((f) => f.endsWith(".zip"));
      expect(zips.sort()).toEqual(FUNCTIONS.map((f) => `${f}.zip`).sort());
    },
    SLOW,
  );

  it("bundles each function alone: its code and its included files, never the project or TypeScript", async () => {
    const zip = await inFolder(".", "unzip", ["-Z1", ".netlify/functions/edition.zip"]);
    const entries = zip.split("\n").filter(Boolean);
    expect(entries).toContain("_site_data/site.json");
    expect(entries.filter((e) => /\.(?:m|c)?ts$/.test(e) && !e.includes("node_modules/"))).toEqual([]);
    for (const folder of ["content/", "test/", ".ci/", "_site/", "packages/littlepress/test/"])
      expect(entries.filter((e) => e.startsWith(folder))).toEqual([]);
    // The state store's client, which the kit loads with import() (an optional peer dependency), is traced in.
    const subscribe = await inFolder(".", "unzip", ["-Z1", ".netlify/functions/subscribe.zip"]);
    expect(subscribe).toMatch(/^node_modules\/@netlify\/blobs\/package\.json$/m);
  });

  it(
    "passes the conformance checker on every publication it serves",
    async () => {
      const slugs = publications();
      expect(slugs.length).toBeGreaterThan(0);
      // The emulator answers a few requests a second: the publications are checked side by side.
      const results = await Promise.all(
        slugs.map(async (slug) => {
          const started = Date.now();
          // Three days of deliveries: the emulator answers a few requests a second, and the days' rules are the
          // kit's tests' to cover; this checks that the deploy's bundles answer as the spec says. Each request
          // starts a worker thread that imports the function's bundle anew (netlify-cli's runtimes/js): 0.3 s
          // alone here, 0.75 s with the four checks side by side, over 10 s once in a loaded CI run, which
          // failed the check's default limit. What is checked is the bundles' answers, not the emulator's
          // speed: each request gets the 30 s netlify-cli gives a function (SYNCHRONOUS_FUNCTION_TIMEOUT), and
          // each check CHECK_BOUND, which only stops a hang.
          const check = [
            "--no-install",
            "littlepress",
            "check",
            `${served.base}/${slug}/`,
            "--days",
            "3",
            "--timeout",
            "30",
          ];
          const output = await inFolder(".", "npx", check, {}, CHECK_BOUND);
          return { slug, output, seconds: (Date.now() - started) / 1000 };
        }),
      );
      for (const { slug, output, seconds } of results) {
        const verdict = /^OK: .*$/m.exec(output)?.[0];
        console.log(
          `littlepress check ${slug} against netlify serve: ${verdict ?? "no verdict"} (${seconds.toFixed(1)} s)`,
        );
        expect(verdict, output).toMatch(/^OK: \d+ passed, \d+ warnings?, 0 failed/);
      }
    },
    CHECK_BOUND + 30_000,
  );

  it("answers /<slug>/edition/ with and without its slash, and keeps the functions' data private", async () => {
    const [slug] = publications();
    const index = JSON.parse(readFileSync(path.join("_site_data", slug!, "index.json"), "utf8")) as object;
    expect(index).toBeTypeOf("object");
    for (const route of ["edition/", "edition"]) {
      const answer = await fetch(`${served.base}/${slug}/${route}`, { signal: AbortSignal.timeout(30_000) });
      expect([200, 204, 410]).toContain(answer.status);
      expect(answer.headers.get("x-littlepress-reason") ?? "").not.toMatch(/no publication/);
    }
    for (const secret of [
      `/_littlepress/${slug}/index.json`,
      "/_site_data/site.json",
      `/_site_data/${slug}/index.json`,
    ])
      expect((await fetch(`${served.base}${secret}`, { signal: AbortSignal.timeout(30_000) })).status).toBe(404);
  });
});

describe("netlify dev at the root", () => {
  it(
    "starts without asking which framework to run, and serves the site and its functions",
    async () => {
      // netlify.toml has netlify dev run `npm start` and wait for it on 8080, where the author's own may be
      // running: here it listens on a free port, as a user asks it to (PORT, read by littlepress start).
      const target = String(await freePort(0));
      const args = ["dev", "--no-open", "--skip-gitignore", "--target-port", target];
      const dev = await netlify(args, /Local dev server ready/, { PORT: target });
      try {
        console.log(`netlify dev: serving in ${dev.seconds.toFixed(1)} s`);
        expect(dev.log()).not.toMatch(/Multiple possible dev commands/);
        // npm start's port opens at once; its first answer waits for its first build (23 s in a loaded CI run).
        expect((await fetch(`${dev.base}/`, { signal: AbortSignal.timeout(SLOW / 2) })).status).toBe(200);
        // Its own npm start, not another's: it says where it serves once that build is done.
        const own = `on http://127.0.0.1:${target}/`;
        await waitFor(`npm start did not say "${own}"`, () => dev.log().includes(own), dev.log, 30_000);
        const [slug] = publications();
        const meta = await fetch(`${dev.base}/${slug}/meta.json`, { signal: AbortSignal.timeout(30_000) });
        expect(meta.status).toBe(200);
        const edition = await fetch(`${dev.base}/${slug}/edition/`, { signal: AbortSignal.timeout(30_000) });
        expect([200, 204, 410]).toContain(edition.status);
        expect(edition.headers.get("x-littlepress-reason") ?? "").not.toMatch(/no publication/);
      } finally {
        await dev.stop();
      }
    },
    SLOW,
  );
});
