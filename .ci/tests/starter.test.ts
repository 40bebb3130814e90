// Upgrades (issue 27): a fresh copy of the starter, with the engine as a
// tarball dependency instead of the workspace, builds, serves, verifies and
// passes its own tests, as an author's site does after `npm update littlepress`.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { copyStarter, inFolder, installTarball, outsideFolder } from "./packed.ts";

const SLOW = 300_000;
let site: string;

beforeAll(async () => {
  site = outsideFolder("starter");
  copyStarter(site);
  await installTarball(site, inject("littlepressTarball"));
}, SLOW);

afterAll(() => rmSync(site, { recursive: true, force: true }));

it("depends on the tarball, not on a workspace", () => {
  const pkg = JSON.parse(readFileSync(path.join(site, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  expect(pkg.dependencies.littlepress).toMatch(/^file:.*littlepress-.*\.tgz$/);
  const installed = JSON.parse(readFileSync(path.join(site, "node_modules/littlepress/package.json"), "utf8")) as {
    version: string;
  };
  expect(installed.version).toBe(
    (JSON.parse(readFileSync("packages/littlepress/package.json", "utf8")) as { version: string }).version,
  );
});

it(
  "builds",
  async () => {
    const output = await inFolder(site, "npm", ["run", "build"]);
    expect(output).toMatch(/littlepress: built _site\/ in [\d.]+ s/);
  },
  SLOW,
);

it(
  "passes its own tests (the site's: no packages/ folder here)",
  async () => {
    const output = await inFolder(site, "npm", ["test"]);
    expect(output).toMatch(/test\/site\/publications\.test\.ts/);
    expect(output).not.toMatch(/--workspace/);
  },
  SLOW,
);

it(
  "serves with npm start, only once built, and answers the platform",
  async () => {
    const child = spawn("npm", ["start"], { cwd: site, env: { ...process.env, PORT: "0" }, detached: true });
    let log = "";
    child.stdout.on("data", (d: Buffer) => (log += d.toString()));
    child.stderr.on("data", (d: Buffer) => (log += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not serve:\n${log}`)), 60_000);
        child.stdout.on("data", () => {
          const found = /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log)?.[1];
          if (!found) return;
          clearTimeout(timer);
          resolve(found);
        });
      });
      expect(log).toMatch(/built _site\/ in/);
      const first = await fetch(`${url}/lighthouse/edition/?delivery_count=0`);
      expect(first.status).toBe(200);
      expect(first.headers.get("etag")).toMatch(/^"/);
      expect((await fetch(`${url}/lighthouse/edition/?delivery_count=99`)).status).toBe(410);
      expect((await fetch(`${url}/`)).status).toBe(200);
      expect((await fetch(`${url}/_desk/model.js`)).status).toBe(200);
    } finally {
      // npm runs the server in a child of its own: the whole group is stopped (unless it stopped already).
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        process.kill(-child.pid!, "SIGINT");
        await exited;
      }
    }
  },
  SLOW,
);

// The checker over every publication, and one print preview (the whole preview of every variant is
// `npm run verify` in .ci/run, through the same compiled code in the workspace).
it(
  "verifies its publications, and previews an edition as the printer prints it",
  async () => {
    const verified = await inFolder(site, "npm", ["run", "verify", "--", "--no-preview"]);
    expect(verified).toMatch(/verify: OK: \d+ publications ready/);
    await inFolder(site, "npm", ["run", "preview", "--", "lighthouse", "--edition", "0", "--no-build"]);
    const png = readFileSync(path.join(site, "preview/lighthouse/0.png"));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(384);
  },
  SLOW,
);
