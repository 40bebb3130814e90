// Image URLs that point at this machine (issue 25, item 3). `npm run build` is
// the build that gets deployed: without a `url` (content/site.json, or URL as
// Netlify sets it) its images link to http://127.0.0.1:8080, so it warns, on
// CI or not, and --strict fails it. `npm start` builds for its own address and
// stays quiet. The build records that address in the site index, and
// `npm run serve` warns at start when a site built for one local address is
// served at another.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assumedUrlWarnings } from "../../lib/build/edition-images.ts";
import { SITE_INDEX, siteDataDir } from "../../lib/model/site-paths.ts";
import { builtForWarning } from "../../scripts/serve.ts";
import { spawnStart } from "../../scripts/start.ts";
import { buildCommand } from "../helpers/build-command.ts";
import { compiled, COMPILED_START, kitScript, type ScriptRun } from "../helpers/kit-script.ts";

const ROOT = path.join(".test-work", `url-warning-${process.pid}`);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>';
const PUBLICATION = { name: "Pics", description: "d", owner_email: "p@example.com", delivered_on: "Daily" };
const ASSUMED = "http://127.0.0.1:8080";

/** A one-publication content folder whose edition shows an image; with `site`, a content/site.json. */
function contentWithImage(name: string, site?: object): string {
  const content = path.join(ROOT, name, "content");
  const editions = path.join(content, "pics", "editions");
  mkdirSync(editions, { recursive: true });
  const publication = { ...PUBLICATION, editions: { by: "delivery_count" } };
  writeFileSync(path.join(content, "pics", "publication.json"), JSON.stringify(publication));
  writeFileSync(path.join(editions, "dot.svg"), SVG);
  writeFileSync(path.join(editions, "0.md"), "---\nnumber: 0\n---\n![a dot](dot.svg)\n");
  if (site) writeFileSync(path.join(content, "site.json"), JSON.stringify(site));
  return content;
}

/**
 * `npm run build` with exactly these of CI and URL set; its exit code and what it printed. In this process
 * (buildCommand), as the builds take turns; buildInChild, in a process of its own, as the author runs it.
 */
async function build(
  content: string,
  output: string,
  set: { CI?: string; URL?: string },
  ...flags: string[]
): Promise<ScriptRun> {
  const args = ["--content", content, "--output", output, ...flags];
  return buildCommand(args, { CI: set.CI, URL: set.URL });
}

async function buildInChild(content: string, output: string): Promise<ScriptRun> {
  const { CI: _ci, URL: _url, ...env } = process.env;
  return kitScript("build", ["--content", content, "--output", output], { timeout: 120_000, env });
}

/**
 * `npm run serve -- --site <site> --port 0`: the address it serves at and what it printed, then Ctrl+C;
 * with `page`, the first edition's page too.
 */
async function serve(site: string): Promise<{ url: string; output: string; page: string }> {
  const args = [compiled("scripts/serve.ts"), "--site", site, "--port", "0"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm run serve did not start:\n${output}`)), 60_000);
      child.stdout.on("data", () => {
        const found = /serving .* on (http:\/\/[^/\s]+)\//.exec(output)?.[1];
        if (!found) return;
        clearTimeout(timer);
        resolve(found);
      });
      child.once("exit", (code) => reject(new Error(`npm run serve exited with ${code}:\n${output}`)));
    });
    // A request answered: whatever it printed at start has arrived.
    await fetch(`${url}/pics/meta.json`, { signal: AbortSignal.timeout(10_000) });
    const edition = await fetch(`${url}/pics/edition/?delivery_count=0`, { signal: AbortSignal.timeout(10_000) });
    return { url, output, page: await edition.text() };
  } finally {
    child.kill("SIGINT");
    await exited;
  }
}

const WARNING =
  /site\.json: url\n\s+problem: not set, so this build's images point at http:\/\/127\.0\.0\.1:8080, which only this /;

let content: string;
beforeAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
  content = contentWithImage("pics");
});
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

describe.concurrent("npm run build of editions with images and no url", { timeout: 120_000 }, () => {
  it("warns outside CI, naming site.json's url, the address the images point at and the fix", async () => {
    const { code, output } = await buildInChild(content, path.join(ROOT, "local"));
    expect(code).toBe(0);
    expect(output).toMatch(WARNING);
    expect(output).toMatch(/fix: add "url": "https:\/\/<your site>" .* to content\/site\.json/);
  });

  it("warns in CI", async () => {
    const { output } = await build(content, path.join(ROOT, "ci"), { CI: "true" });
    expect(output).toMatch(WARNING);
  });

  it("fails it with --strict", async () => {
    const { code, output } = await build(content, path.join(ROOT, "strict"), {}, "--strict");
    expect(code).toBe(1);
    expect(output).toMatch(WARNING);
  });

  it("says nothing when URL gives the address, or content/site.json does", async () => {
    const [byEnv, bySiteJson] = await Promise.all([
      build(content, path.join(ROOT, "ci-url"), { CI: "true", URL: "https://press.example" }),
      build(contentWithImage("site-url", { url: "https://press.example" }), path.join(ROOT, "site-url", "_site"), {}),
    ]);
    for (const r of [byEnv, bySiteJson]) {
      expect(r.output).toContain("littlepress: built");
      expect(r.output).not.toContain("site.json: url");
    }
    const index = JSON.parse(readFileSync(path.join(siteDataDir(path.join(ROOT, "ci-url")), SITE_INDEX), "utf8"));
    expect(index).toMatchObject({ url: "https://press.example" });
  });
});

describe("npm start", { timeout: 120_000 }, () => {
  it("builds for its own address and says nothing of url", async () => {
    const started = await spawnStart({ content, output: path.join(ROOT, "start", "_site"), bin: COMPILED_START });
    try {
      const html = await (await fetch(`${started.url}/pics/edition/?delivery_count=0`)).text();
      expect(html).toContain(`src="${started.url}/pics/img/`);
      expect(started.log).not.toContain("site.json: url");
    } finally {
      await started.stop();
    }
  });
});

describe("npm run serve of a built site", { timeout: 120_000 }, () => {
  it("links the images of a site built with no address at the one it is served at, and says nothing", async () => {
    const site = path.join(ROOT, "assumed", "_site");
    await build(content, site, {});
    const index = JSON.parse(readFileSync(path.join(siteDataDir(site), SITE_INDEX), "utf8"));
    expect(index).toMatchObject({ url: ASSUMED, urlAssumed: true });
    const { url, output, page } = await serve(site);
    // as netlify serve on 8888 and npm run serve on another port serve a local build: images there, not on 8080
    expect(url).not.toBe(ASSUMED);
    expect(page).toContain(`src="${url}/pics/img/`);
    expect(page).not.toContain(ASSUMED);
    expect(output).not.toContain("littlepress: warning");
  });

  it("warns at start when it was built for another local address, naming both", async () => {
    const site = path.join(ROOT, "served", "_site");
    // An address given (here URL, as a build for a local server would), so it is what the images link to.
    await build(content, site, { URL: ASSUMED });
    const index = JSON.parse(readFileSync(path.join(siteDataDir(site), SITE_INDEX), "utf8"));
    expect(index).toMatchObject({ url: ASSUMED });
    const { url, output } = await serve(site);
    expect(output).toContain(
      `littlepress: warning: ${site}/ was built for ${ASSUMED}, and is served at ${url}: ` +
        `its editions' images link to ${ASSUMED}, where they will not load.`,
    );
    expect(output).toMatch(/fix: set "url" in content\/site\.json to the address printers reach the site at/);
  });

  it("says nothing of a site built for a public address (a reverse proxy answers there)", async () => {
    const site = path.join(ROOT, "public", "_site");
    await build(content, site, { URL: "https://press.example" });
    const { output } = await serve(site);
    expect(output).toContain("littlepress: serving");
    expect(output).not.toContain("littlepress: warning");
  });
});

describe("builtForWarning", () => {
  const warns = (builtFor: string | undefined, servedAt: string) => builtForWarning("_site", builtFor, servedAt);

  it("is quiet where the images load: the same local address, or a public one", () => {
    expect(warns(ASSUMED, "http://127.0.0.1:8080")).toBeUndefined();
    expect(warns("http://localhost:8080", "http://127.0.0.1:8080")).toBeUndefined();
    expect(warns(ASSUMED, "http://0.0.0.0:8080")).toBeUndefined();
    expect(warns("http://[::1]:3000", "http://[::]:3000")).toBeUndefined();
    expect(warns("https://press.example", "http://127.0.0.1:8080")).toBeUndefined();
    expect(warns(undefined, "http://127.0.0.1:8080")).toBeUndefined();
  });

  it("warns for another port or another host", () => {
    const warning = warns(ASSUMED, "http://127.0.0.1:3000");
    expect(warning).toContain("littlepress: warning: _site/ was built for http://127.0.0.1:8080, ");
    expect(warning).toContain("and is served at http://127.0.0.1:3000: ");
    expect(warns(ASSUMED, "http://192.168.1.20:8080")).toContain("is served at http://192.168.1.20:8080");
  });
});

describe("assumedUrlWarnings", () => {
  it("warns only for an assumed address in a build to deploy", () => {
    const warning = expect.objectContaining({ file: "c/site.json", field: "url" });
    expect(assumedUrlWarnings(ASSUMED, "c/site.json", true)).toEqual([warning]);
    expect(assumedUrlWarnings(ASSUMED, "c/site.json", false)).toEqual([]);
    expect(assumedUrlWarnings(undefined, "c/site.json", true)).toEqual([]);
  });

  it("tells a blog to set url where its publications are set: the plugin's options in its config", () => {
    const [warning] = assumedUrlWarnings(ASSUMED, "eleventy.config.js", true);
    expect(warning).toMatchObject({ file: "eleventy.config.js", field: "url" });
    expect(warning!.fix).toContain("to each of the plugin's posts in eleventy.config.js");
    expect(warning!.fix).not.toContain("site.json");
  });
});
