// An author's own site (issue 35), made as the README's "Your own site" says:
// `npx littlepress new <folder>` here, then in that folder the README's
// commands, against a registry that has no littlepress (a verdaccio on loopback
// that answers 404 for it and proxies the rest), as the public one is today
// (issue 53): the site carries the package, packed, in vendor/. It installs the
// package itself, not a link to this repository's workspace; it builds, serves,
// verifies, lints and passes its own tests, as an author's site does. Once, a
// copy of the repository kept its package-lock.json: npm ci installed nothing
// for littlepress and said nothing, and npm start answered "littlepress: not found".
// And once, the site's package.json took littlepress ^0.2.0 from the registry,
// where nobody holds the name: the install was a 404.
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { REPOSITORY_ONLY, STARTER_FILES } from "../../packages/littlepress/scripts/new.ts";
import { inFolder, outsideFolder } from "./packed.ts";
import { started } from "./processes.ts";
import { startRegistry, type Registry } from "./registry.ts";

const SLOW = 300_000;
// littlepress new resolves the new site's lockfile from the repository's, asking the registry on loopback only
// for what changed. Resolved afresh it took 170 s to 290 s in CI (past 240 s beside npm start and a CPU hog).
const NEW_SITE = SLOW;
// npm ci in the new site: about 50 s in CI. Beside npm start, a CPU hog and the kit's suite at its busiest (its
// first minutes, where the install now falls) 223 s to 508 s: the lockfile, like this repository's, names no
// tarball URLs, so npm asks the registry on loopback for each package's, and it asks the public one.
const INSTALL = 3 * SLOW;
const KIT_VERSION = (JSON.parse(readFileSync("packages/littlepress/package.json", "utf8")) as { version: string })
  .version;
const TARBALL = `vendor/littlepress-${KIT_VERSION}.tgz`;

let registry: Registry | undefined;
let site: string;
let made: string;
/** The figures the report asks for: each command's time, and the install's size. */
const figures: string[] = [];

/** Does `work`, and notes how long it took under `label`. */
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const begun = performance.now();
  const result = await work();
  figures.push(`${label}: ${((performance.now() - begun) / 1000).toFixed(1)} s`);
  return result;
}

/** Runs `command` in `cwd` against the registry, and notes how long it took. */
const timedIn = (label: string, cwd: string, command: string, args: string[], timeout?: number) =>
  timed(label, () => inFolder(cwd, command, args, registry!.env, timeout));

const readJson = <T>(file: string) => JSON.parse(readFileSync(path.join(site, file), "utf8")) as T;
type LockPackages = Record<string, { version?: string; integrity?: string }>;
const lockPackages = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { packages: LockPackages }).packages;
/** A lockfile's entry as name@version, wherever it is installed (node_modules/a/node_modules/b is b). */
const nameAt = (at: string, entry: { version?: string }) => `${at.split("node_modules/").at(-1)}@${entry.version}`;

// The README's way, from this repository's root: the compiled command (dist/, which the global setup's
// npm pack has just compiled), and the README's first command in the new folder.
beforeAll(async () => {
  registry = await startRegistry();
  site = outsideFolder("starter");
  made = await timedIn("littlepress new", ".", "npx", ["littlepress", "new", site], NEW_SITE);
  await timedIn("npm ci", site, "npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], INSTALL);
}, NEW_SITE + INSTALL);

// Stopping the registry and removing the site (775 MB, 2 s here) overran 120 s once in CI, with both suites and a
// loaded machine: each step is timed, and said, so that the next overrun says which.
afterAll(async () => {
  try {
    await timed("stopping the registry", async () => registry?.stop());
    if (site) await timed("removing the site", () => rm(site, { recursive: true, force: true, maxRetries: 3 }));
  } finally {
    if (figures.length) console.log(`the starter, made with littlepress new:\n  ${figures.join("\n  ")}`);
  }
}, SLOW);

it("is what the README's \"Your own site\" says to do, not a hand copy that keeps this repository's lockfile", () => {
  const readme = readFileSync("README.md", "utf8");
  const section = /^## Your own site\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
  expect(section).toMatch(/npx littlepress new \S+/);
  expect(section).toMatch(/npm ci && npm start/);
  expect(section).toContain(TARBALL);
  expect(section).toMatch(/npm install littlepress@/);
  expect(section).not.toMatch(/copy the starter|all but `packages\/`/i);
  const upgrading = readFileSync("packages/littlepress/docs/upgrading.md", "utf8");
  expect(upgrading).toMatch(/^## A site of your own$/m);
  expect(upgrading).not.toMatch(/fresh\s+copy of the starter/);
});

it("is made where the registry has no littlepress (404), as the public registry has none for the project", async () => {
  expect((await fetch(`${registry!.url}littlepress`)).status).toBe(404);
});

it("is made by littlepress new: the starter without the package, the CI, the lockfile or built files", () => {
  expect(made).toContain(`with littlepress from ${TARBALL}: the one running, packed`);
  expect(made).toMatch(/is ready\. Next:\n {2}cd \S+\n {2}npm ci && npm start\n/);
  for (const entry of ["content", "layouts", "functions", "test", "scripts", "netlify.toml", ".eleventy.js"])
    expect(existsSync(path.join(site, entry)), entry).toBe(true);
  // Only the starter's own files, and package.json and package-lock.json the site's own (below), node_modules/ npm ci's.
  const own = new Set([...STARTER_FILES, "package.json", "package-lock.json", "node_modules", "vendor"]);
  expect(readdirSync(site).filter((entry) => !own.has(entry))).toEqual([]);
});

it("carries the package it was made from, in vendor/, and installs it from there, not from a workspace", () => {
  const pkg = readJson<{
    workspaces?: unknown;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  }>("package.json");
  expect(pkg.workspaces).toBeUndefined();
  expect(pkg.dependencies.littlepress).toBe(`file:${TARBALL}`);
  for (const only of REPOSITORY_ONLY) expect(pkg.devDependencies).not.toHaveProperty(only);
  // The engine that ran littlepress new, packed as npm pack packs it (the same bytes as the global setup's).
  const tarball = readFileSync(path.join(site, TARBALL));
  expect(tarball.equals(readFileSync(inject("littlepressTarball")))).toBe(true);

  // The package, not a link (the repository's lockfile linked it to packages/littlepress).
  const folder = path.join(site, "node_modules/littlepress");
  expect(lstatSync(folder).isSymbolicLink()).toBe(false);
  expect(lstatSync(folder).isDirectory()).toBe(true);
  const installed = readJson<{ version: string }>("node_modules/littlepress/package.json");
  expect(installed.version).toBe(KIT_VERSION);
  expect(existsSync(path.join(folder, "dist/scripts/littlepress.js"))).toBe(true);

  // Its own lockfile: littlepress from the tarball, checked by its hash, nothing from a registry or a workspace.
  const lock = readJson<{
    packages: Record<string, { version?: string; resolved?: string; integrity?: string; link?: boolean }>;
  }>("package-lock.json");
  const entry = lock.packages["node_modules/littlepress"];
  expect(entry).toMatchObject({
    version: KIT_VERSION,
    resolved: `file:${TARBALL}`,
    integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
  });
  expect(entry?.link).toBeUndefined();
  expect(Object.values(lock.packages).filter((p) => p.link)).toEqual([]);
  expect(Object.keys(lock.packages).filter((p) => p.startsWith("packages/"))).toEqual([]);

  // Resolved from this repository's lockfile: every other package at a version its tests ran with.
  const tested = new Set(Object.entries(lockPackages("package-lock.json")).map(([at, p]) => nameAt(at, p)));
  const untested = Object.entries(lock.packages).filter(([at, p]) => at && !tested.has(nameAt(at, p)));
  expect(untested.map(([at, p]) => nameAt(at, p))).toEqual([`littlepress@${KIT_VERSION}`]);
});

// The starter littlepress new also takes: a site made from it, which carries its tarball on to the next.
it(
  "makes a site from the site, with the same tarball, copied",
  async () => {
    const next = outsideFolder("next");
    try {
      const output = await timedIn("littlepress new, in the site", site, "npx", ["littlepress", "new", next], NEW_SITE);
      expect(output).toContain(`with littlepress from ${TARBALL}`);
      expect(readFileSync(path.join(next, TARBALL)).equals(readFileSync(path.join(site, TARBALL)))).toBe(true);
      const integrity = (folder: string) =>
        lockPackages(path.join(folder, "package-lock.json"))["node_modules/littlepress"]?.integrity;
      expect(integrity(next)).toBe(integrity(site));
    } finally {
      rmSync(next, { recursive: true, force: true });
    }
  },
  NEW_SITE + SLOW,
);

it(
  "counts what the install holds",
  async () => {
    const parseable = await inFolder(site, "npm", ["ls", "--all", "--parseable"]);
    const packages = parseable.split("\n").filter(Boolean).length;
    const size = (await inFolder(site, "du", ["-sh", "node_modules"])).split(/\s/)[0];
    figures.push(`installed: ${packages} packages (npm ls --all --parseable), node_modules ${size}`);
    expect(packages).toBeGreaterThan(1);
  },
  SLOW,
);

it(
  "builds",
  async () => {
    const output = await timedIn("first build (npm run build)", site, "npm", ["run", "build"]);
    expect(output).toMatch(/littlepress: built _site\/ in [\d.]+ s/);
  },
  SLOW,
);

it(
  "passes its own tests (the site's: no packages/ folder here)",
  async () => {
    const output = await timedIn("npm test", site, "npm", ["test"]);
    expect(output).toMatch(/test\/site\/publications\.test\.ts/);
    expect(output).not.toMatch(/--workspace/);
  },
  SLOW,
);

it(
  "serves with npm start, only once built, and answers the platform",
  async () => {
    const server = await started("npm", ["start"], {
      cwd: site,
      env: { ...process.env, ...registry!.env, PORT: "0" },
      ready: /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//,
    });
    const url = server.found;
    try {
      expect(server.log()).toMatch(/built _site\/ in/);
      const first = await fetch(`${url}/lighthouse/edition/?delivery_count=0`);
      expect(first.status).toBe(200);
      expect(first.headers.get("etag")).toMatch(/^"/);
      expect((await fetch(`${url}/lighthouse/edition/?delivery_count=99`)).status).toBe(410);
      expect((await fetch(`${url}/`)).status).toBe(200);
      expect((await fetch(`${url}/_desk/model.js`)).status).toBe(200);
    } finally {
      await server.stop();
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

// ESLint and Prettier run on the devDependencies littlepress new kept (the repository's own are gone).
it(
  "lints",
  async () => {
    const output = await inFolder(site, "npm", ["run", "lint"]);
    expect(output).toMatch(/All matched files use Prettier code style/);
  },
  SLOW,
);

// What the hand copy left: node_modules/littlepress linked to the workspace it does not have.
it(
  "says how to repair a site whose littlepress is a link to a missing workspace, and fails its tests",
  async () => {
    const copy = outsideFolder("hand-copy");
    try {
      mkdirSync(path.join(copy, "node_modules"));
      symlinkSync("../packages/littlepress", path.join(copy, "node_modules/littlepress"));
      writeFileSync(
        path.join(copy, "package.json"),
        JSON.stringify({ type: "module", scripts: { test: "node scripts/test.js" } }),
      );
      for (const file of ["scripts/test.js", "scripts/check-install.js"]) {
        mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
        writeFileSync(path.join(copy, file), readFileSync(path.join(site, file)));
      }
      await expect(inFolder(copy, "npm", ["test"])).rejects.toThrow(
        /node_modules\/littlepress links to \.\.\/packages\/littlepress, which is not there[\s\S]*npx littlepress new/,
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  },
  SLOW,
);
