// littlepress new: a site of one's own from the starter, carrying the running
// littlepress packed in vendor/ (no registry holds the name for the project
// yet), with no workspace, no copy of the repository's package-lock.json, and
// its own lockfile from npm. The whole way, with a registry on loopback that has
// no littlepress and the README's commands, is the repository's
// .ci/tests/starter.test.ts.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  main,
  packEngine,
  REPOSITORY_ONLY,
  SITE_IGNORES,
  SITE_TOOLS,
  siteGitignore,
  siteName,
  sitePackage,
  STARTER_FILES,
  starterFile,
  starterTarball,
  VENDOR,
} from "../../scripts/new.ts";
import { EXIT_CODES } from "../../scripts/cli.ts";
import { compiled } from "../helpers/kit-script.ts";
import { anchors, isExternal, linkTargets } from "../docs/markdown.ts";
import { PACKAGE_ROOT } from "../../lib/build/package-files.ts";

const run = promisify(execFile);
const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

/** A starter's package.json as the repository's root has it: a workspace, and the CI's own tools. */
const STARTER = {
  name: "littlepress-starter",
  version: "0.2.0",
  private: true,
  type: "module",
  workspaces: ["packages/littlepress"],
  scripts: { start: "littlepress start", test: "node scripts/test.js" },
  dependencies: { "@11ty/eleventy": "3.1.7", littlepress: "0.2.0", suncalc: "2.0.2" },
  devDependencies: { eslint: "10.15.0", typescript: "6.0.3", verdaccio: "6.8.0", vitest: "4.1.12", yaml: "2.9.1" },
  overrides: {
    "@opentelemetry/api": "1.8.0",
    "netlify-cli": { "@octokit/core": "7.0.7" },
    verdaccio: { "node-fetch": "2.7.0" },
    vitest: { vite: "7.0.0" },
  },
};

describe("the new site's package.json", () => {
  const site = sitePackage(STARTER, "my-press", "file:vendor/littlepress-1.4.2.tgz");

  it("takes littlepress as it is given (the tarball in vendor/, or a registry range), with no workspace", () => {
    expect(site).not.toHaveProperty("workspaces");
    expect(site.dependencies).toEqual({
      "@11ty/eleventy": "3.1.7",
      littlepress: "file:vendor/littlepress-1.4.2.tgz",
      suncalc: "2.0.2",
    });
    expect(sitePackage(STARTER, "my-press", "^1.4.2").dependencies?.littlepress).toBe("^1.4.2");
  });

  it("leaves out what only the repository's CI uses, and the overrides of packages it no longer has", () => {
    expect(REPOSITORY_ONLY).toEqual(["verdaccio", "yaml"]);
    expect(site.devDependencies).toEqual({ eslint: "10.15.0", typescript: "6.0.3", vitest: "4.1.12", ...SITE_TOOLS });
    expect(site.overrides).toEqual({
      "@opentelemetry/api": "1.8.0",
      "netlify-cli": { "@octokit/core": "7.0.7" },
      vitest: { vite: "7.0.0" },
    });
    expect(sitePackage({ ...STARTER, overrides: { verdaccio: {} } }, "x", "^1.0.0")).not.toHaveProperty("overrides");
  });

  it("has netlify-cli at the kit's version, for the docs' deploy check (netlify serve) and its CI's deploy", () => {
    const kit = JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string> };
    expect(SITE_TOOLS).toEqual({ "netlify-cli": kit.devDependencies["netlify-cli"] });
    expect(site.devDependencies?.["netlify-cli"]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("is the site's own, its fields in the starter's order, and leaves the starter's object alone", () => {
    expect(site).toMatchObject({ name: "my-press", version: "0.1.0", private: true, scripts: STARTER.scripts });
    expect(Object.keys(site)).toEqual(Object.keys(STARTER).filter((key) => key !== "workspaces"));
    expect(STARTER.workspaces).toEqual(["packages/littlepress"]);
    expect(STARTER.dependencies.littlepress).toBe("0.2.0");
  });

  it("is named after its folder, as npm takes a name", () => {
    expect(siteName("../My Press")).toBe("my-press");
    expect(siteName("/tmp/_press.")).toBe("press");
    expect(siteName("/tmp/Été")).toBe("t");
    expect(siteName("/")).toBe("littlepress-site");
  });
});

/** A token that must not leave the starter, and where an author keeps such things. */
const SECRET = "LITTLEPRESS_SEAL_KEY=sk-secret-4f1d";
const SECRET_FILES = [
  ".env",
  ".env.production",
  ".npmrc",
  ".vscode/settings.json",
  ".idea/workspace.xml",
  "notes.txt",
  "content/hello/.env",
  "functions/.npmrc",
];

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** What a packed tarball of the running package is called, and a stand-in for one (npm pack is its own test below). */
const TARBALL = `littlepress-${VERSION}.tgz`;
const pack = (destination: string) => {
  writeFileSync(path.join(destination, TARBALL), "packed by npm");
  return Promise.resolve(path.join(destination, TARBALL));
};

describe("littlepress new", () => {
  let work: string;
  let starter: string;
  const capture = () => {
    const out = { stdout: "", stderr: "" };
    return { out, output: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t) } };
  };
  const write = (file: string, text = "") => {
    mkdirSync(path.dirname(path.join(starter, file)), { recursive: true });
    writeFileSync(path.join(starter, file), text);
  };

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), "littlepress-new-"));
    starter = path.join(work, "starter");
    write("package.json", JSON.stringify(STARTER));
    for (const file of ["content/hello/publication.json", "layouts/edition.njk", "functions/edition.mts"]) write(file);
    for (const file of ["test/site/a.test.ts", "scripts/test.js", ".eleventy.js", ".github/workflows/ci.yml"])
      write(file);
    for (const entry of [".git", ".ci", "packages", "node_modules", "_site", ".cache", ".netlify", ".littlepress"])
      write(path.join(entry, "x"));
    for (const left of ["package-lock.json", "_site.blog/index.html", "_site_data.2/index.json", "npm-debug.log"])
      write(left);
    write(".gitignore", "node_modules/\n_site/\n");
    // The author's secrets, where they keep them: none may reach the new site.
    for (const file of SECRET_FILES) write(file, `${SECRET}\n`);
  });

  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it("copies the starter's own files, nothing else of the folder, and writes the site's package.json", async () => {
    const { out, output } = capture();
    const calls: { args: string[]; cwd: string }[] = [];
    const runNpm = (args: string[], cwd: string) => (calls.push({ args, cwd }), Promise.resolve(0));
    const site = path.join(work, "my-press");
    expect(await main(["../../my-press"], output, { cwd: path.join(starter, "content"), runNpm, pack })).toBe(0);

    expect(readdirSync(site).sort()).toEqual(
      [
        ".eleventy.js",
        ".github",
        ".gitignore",
        "content",
        "functions",
        "layouts",
        "package.json",
        "scripts",
        "test",
        "vendor",
      ].sort(),
    );
    // No secret in any file, at the top or inside a folder the starter has.
    const files = filesUnder(site);
    expect(files.filter((file) => readFileSync(path.join(site, file), "utf8").includes(SECRET))).toEqual([]);
    expect(files).toContain("content/hello/publication.json");
    expect(existsSync(path.join(site, "content/hello/publication.json"))).toBe(true);
    expect(existsSync(path.join(site, ".github/workflows/ci.yml"))).toBe(true);
    const pkg = JSON.parse(readFileSync(path.join(site, "package.json"), "utf8")) as typeof STARTER;
    // littlepress is the running package, packed into vendor/, which the site's package.json names.
    expect(pkg).toEqual(sitePackage(STARTER, "my-press", `file:vendor/${TARBALL}`));
    expect(readdirSync(path.join(site, VENDOR))).toEqual([TARBALL]);
    // Its own lockfile, resolved by npm in the new folder; the install itself is the README's npm ci.
    expect(calls).toEqual([{ args: ["install", "--package-lock-only", "--no-audit", "--no-fund"], cwd: site }]);
    expect(out.stderr).toBe("");
    expect(out.stdout).toContain(`with littlepress from vendor/${TARBALL}: the one running, packed`);
    expect(out.stdout).toMatch(/is ready\. Next:\n {2}cd \S+my-press\n {2}npm ci && npm start\n$/);
  });

  it("starts the site's lockfile from the starter's, which npm then makes the site's own", async () => {
    const lock = JSON.stringify({ lockfileVersion: 3, packages: { "node_modules/hono": { version: "4.0.0" } } });
    write("package-lock.json", lock);
    const { out, output } = capture();
    const site = path.join(work, "site");
    const seen: string[] = [];
    const runNpm = (_args: string[], cwd: string) => (
      seen.push(readFileSync(path.join(cwd, "package-lock.json"), "utf8")),
      Promise.resolve(0)
    );
    expect(await main([site], output, { cwd: starter, runNpm, pack })).toBe(0);
    expect(seen).toEqual([lock]);
    expect(out.stdout).toContain(
      "resolving its own package-lock.json, from the starter's: the versions it was tested with",
    );
  });

  it.each([
    ["none", undefined],
    ["one that is not npm's", "{ not json"],
  ])("resolves the lockfile afresh when the starter has %s", async (_what, text) => {
    if (text === undefined) rmSync(path.join(starter, "package-lock.json"));
    else write("package-lock.json", text);
    const { out, output } = capture();
    const site = path.join(work, "site");
    const runNpm = (_args: string[], cwd: string) =>
      Promise.resolve(existsSync(path.join(cwd, "package-lock.json")) ? 9 : 0);
    expect(await main([site], output, { cwd: starter, runNpm, pack })).toBe(0);
    expect(out.stdout).toContain("new: resolving its own package-lock.json (npm install --package-lock-only)");
  });

  it("with --no-install, copies only, and says to run npm install", async () => {
    const { out, output } = capture();
    const runNpm = () => Promise.reject(new Error("npm was run"));
    expect(await main(["--no-install", path.join(work, "site")], output, { cwd: starter, runNpm, pack })).toBe(0);
    expect(existsSync(path.join(work, "site/package.json"))).toBe(true);
    expect(out.stdout).toMatch(/\n {2}npm install && npm start\n$/);
  });

  it("says when npm fails, and leaves the copy", async () => {
    const { out, output } = capture();
    const runNpm = () => Promise.resolve(1);
    expect(await main(["../site"], output, { cwd: starter, runNpm, pack })).toBe(1);
    expect(out.stderr).toMatch(/^new: npm install failed \(exit 1\) in \.\.\/site\/: the site is copied there; /);
    expect(existsSync(path.join(work, "site/content"))).toBe(true);
  });

  it.each([
    ["a folder that is not empty", () => (write("../taken/notes.txt"), "../taken"), /it exists and is not empty/],
    ["a file", () => (write("../file.txt"), "../file.txt"), /it is a file/],
    ["a folder inside the starter", () => "content/site", /it is inside .*starter, the starter it would copy/],
    ["the starter itself", () => ".", /it is inside .*starter, the starter it would copy/],
  ])("refuses %s, copying nothing", async (_what, target, message) => {
    const { out, output } = capture();
    const before = readdirSync(starter).length;
    expect(await main([target()], output, { cwd: starter, runNpm: () => Promise.resolve(0) })).toBe(1);
    expect(out.stderr).toMatch(new RegExp(`^new: cannot make a site in .*: ${message.source}`));
    expect(readdirSync(starter)).toHaveLength(before);
  });

  it("refuses to run where there is no starter (no littlepress dependency, or no content/)", async () => {
    const { out, output } = capture();
    write("package.json", JSON.stringify({ ...STARTER, dependencies: {} }));
    expect(await main(["../site"], output, { cwd: starter })).toBe(1);
    expect(out.stderr).toMatch(/^new: .*starter is not a littlepress starter \(its package\.json does not depend on/);
    write("package.json", JSON.stringify(STARTER));
    rmSync(path.join(starter, "content"), { recursive: true });
    expect(await main(["../site"], output, { cwd: starter })).toBe(1);
    expect(out.stderr).toMatch(/\(it has no content\/ folder\)/);
    expect(existsSync(path.join(work, "site"))).toBe(false);
  });

  it("takes one folder (exit 2 otherwise)", async () => {
    const { out, output } = capture();
    expect(await main([], output, { cwd: starter })).toBe(2);
    expect(await main(["a", "b"], output, { cwd: starter })).toBe(2);
    expect(out.stderr).toBe("new: name one folder for the site; see --help\n".repeat(2));
  });

  it("with --from-registry, takes littlepress from the registry (^ the running version), with no vendor/", async () => {
    const { out, output } = capture();
    const noPack = () => Promise.reject(new Error("npm pack was run"));
    const runNpm = () => Promise.resolve(0);
    expect(await main(["--from-registry", "../site"], output, { cwd: starter, runNpm, pack: noPack })).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(work, "site/package.json"), "utf8")) as typeof STARTER;
    expect(pkg.dependencies.littlepress).toBe(`^${VERSION}`);
    expect(existsSync(path.join(work, "site", VENDOR))).toBe(false);
    expect(out.stdout).toContain(`with littlepress from the registry\n`);
  });

  it("made from a site that carries its tarball, copies that tarball (the same bytes), packing nothing", async () => {
    const { output } = capture();
    const carried = "vendor/littlepress-0.2.0.tgz";
    write(carried, "the starter's own tarball");
    write("package.json", JSON.stringify({ ...STARTER, dependencies: { littlepress: `file:${carried}` } }));
    expect(starterTarball(starter, { dependencies: { littlepress: `file:${carried}` } })).toBe(
      path.join(starter, carried),
    );
    const noPack = () => Promise.reject(new Error("npm pack was run"));
    const runNpm = () => Promise.resolve(0);
    expect(await main(["../site"], output, { cwd: starter, runNpm, pack: noPack })).toBe(0);
    expect(readFileSync(path.join(work, "site", carried), "utf8")).toBe("the starter's own tarball");
    const pkg = JSON.parse(readFileSync(path.join(work, "site/package.json"), "utf8")) as typeof STARTER;
    expect(pkg.dependencies.littlepress).toBe(`file:${carried}`);
    // A tarball the package.json names but that is not there, or a registry range: the running package is packed.
    expect(starterTarball(starter, { dependencies: { littlepress: "file:vendor/gone.tgz" } })).toBeUndefined();
    expect(starterTarball(starter, { dependencies: { littlepress: "^0.2.0" } })).toBeUndefined();
  });

  it("says when littlepress cannot be packed, and leaves the copy", async () => {
    const { out, output } = capture();
    const failing = () => Promise.reject(new Error("npm ERR! code EACCES"));
    expect(await main(["../site"], output, { cwd: starter, pack: failing })).toBe(1);
    expect(out.stderr).toBe(
      "new: could not put littlepress into ../site/vendor/ (npm ERR! code EACCES); " +
        "the rest of the site is copied there\n",
    );
    expect(existsSync(path.join(work, "site/content/hello/publication.json"))).toBe(true);
  });

  it("packs the running package with npm pack: a tarball of this version, with its compiled command", async () => {
    const tarball = await packEngine(work);
    expect(tarball).toBe(path.join(work, TARBALL));
    const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"]);
    expect((JSON.parse(stdout) as { version: string }).version).toBe(VERSION);
    const { stdout: files } = await run("tar", ["-tzf", tarball]);
    expect(files.split("\n")).toContain("package/dist/scripts/littlepress.js");
  }, 60_000);

  it("takes only the starter's own names: no dotfile it does not know, at the top or inside its folders", () => {
    const outside = [".env", ".env.local", ".npmrc", ".vscode", ".ci", "_site", "node_modules", "packages", "x.log"];
    expect(outside.some((entry) => starterFile(entry))).toBe(false);
    expect(["content/a/.env", "functions/.npmrc", "test/.cache/x", ".github/.secrets"].some(starterFile)).toBe(false);
    expect(STARTER_FILES.every((entry) => starterFile(entry))).toBe(true);
    expect(["content/a/publication.json", ".github/workflows/ci.yml"].every(starterFile)).toBe(true);
  });

  it("makes a site whose git leaves a .env out, and says so in its .gitignore", async () => {
    const { output } = capture();
    const site = path.join(work, "site");
    expect(await main(["../site"], output, { cwd: starter, runNpm: () => Promise.resolve(0), pack })).toBe(0);
    expect(readFileSync(path.join(site, ".gitignore"), "utf8")).toMatch(
      /^node_modules\/\n_site\/\n\n# Secrets.*\n\.env\n\.env\.\*\n$/,
    );
    // The author adds their secrets to the new site, as the README's deploy asks for keys, and commits everything.
    for (const file of [".env", ".env.production"]) writeFileSync(path.join(site, file), `${SECRET}\n`);
    await run("git", ["init", "-q"], { cwd: site });
    await run("git", ["add", "-A"], { cwd: site });
    const { stdout } = await run("git", ["ls-files"], { cwd: site });
    expect(stdout.split("\n")).toContain("package.json");
    expect(stdout).not.toMatch(/\.env/);
  });

  it("knows every file at the repository's root: the starter's own, or the repository's", async () => {
    // A file added to the root is not copied into new sites until STARTER_FILES names it: this says so.
    const { stdout } = await run("git", ["ls-files"], { cwd: path.resolve("../..") });
    const top = new Set(
      stdout
        .split("\n")
        .filter(Boolean)
        .map((file) => file.split("/")[0]!),
    );
    const repository = ["packages", ".ci", "package.json", "package-lock.json"];
    expect([...top].filter((entry) => !STARTER_FILES.includes(entry) && !repository.includes(entry))).toEqual([]);
  });

  it("made from this repository's root, has no link that leads nowhere: docs are the installed package's", async () => {
    const root = path.resolve("../..");
    const site = path.join(work, "from-root");
    const { output } = capture();
    expect(await main([site], output, { cwd: root, runNpm: () => Promise.resolve(0), pack })).toBe(0);
    // What npm ci installs as node_modules/littlepress: the package's `files`.
    const kit = JSON.parse(readFileSync("package.json", "utf8")) as { files: string[] };
    const installed = path.join(site, "node_modules", "littlepress");
    const problems: string[] = [];
    let links = 0;
    for (const page of filesUnder(site).filter((file) => file.endsWith(".md"))) {
      for (const target of linkTargets(readFileSync(path.join(site, page), "utf8"))) {
        if (isExternal(target) || target.startsWith("#")) continue;
        links++;
        const [file = "", anchor] = target.split("#");
        let at = path.resolve(path.dirname(path.join(site, page)), decodeURIComponent(file));
        const inKit = path.relative(installed, at);
        if (!inKit.startsWith("..") && !path.isAbsolute(inKit)) {
          if (!kit.files.includes(inKit.split(path.sep)[0]!)) problems.push(`${page}: ${target} is not in the package`);
          at = path.join(PACKAGE_ROOT, inKit);
        } else if (path.relative(site, at).startsWith("..")) problems.push(`${page}: ${target} leaves the site`);
        if (!existsSync(at)) problems.push(`${page}: ${target} leads to no file`);
        else if (anchor && at.endsWith(".md") && !anchors(readFileSync(at, "utf8")).has(anchor))
          problems.push(`${page}: ${target} names no heading there`);
      }
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(10);
    expect(readFileSync(path.join(site, "README.md"), "utf8")).not.toContain("packages/littlepress");
  });

  it("adds the .env rules to a .gitignore only where they are missing", () => {
    expect(SITE_IGNORES).toEqual([".env", ".env.*"]);
    expect(siteGitignore("")).toBe("# Secrets (the sealing key, tokens): never committed\n.env\n.env.*\n");
    expect(siteGitignore("a/\n.env\n")).toBe(
      "a/\n.env\n\n# Secrets (the sealing key, tokens): never committed\n.env.*\n",
    );
    expect(siteGitignore("a/\n.env\n.env.*\n")).toBe("a/\n.env\n.env.*\n");
  });
});

// Through the package's command, as `npx littlepress new` runs it.
describe("littlepress new, as a command", () => {
  const littlepress = (...args: string[]) =>
    run(process.execPath, [compiled("scripts/littlepress.ts"), "new", ...args], { timeout: 60_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("answers --help with its usage, options, an example and the exit codes (exit 0)", async () => {
    const { code, stdout } = await littlepress("--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: littlepress new <folder> \[options\]\n/);
    expect(stdout).toMatch(/\n {2}--no-install +copy only/);
    expect(stdout).toMatch(/\n {2}--from-registry +littlepress from the registry/);
    expect(stdout).toMatch(/npm install littlepress@<version>/);
    expect(stdout).toMatch(/\n {2}-h, --help +show this/);
    expect(stdout).toMatch(
      /\nExample:\n {2}npx littlepress new \.\.\/my-press && cd \.\.\/my-press && npm ci && npm start\n\n/,
    );
    expect(stdout.endsWith(`\n${EXIT_CODES}\n`)).toBe(true);
  }, 70_000);

  it("refuses an unknown option in one line that points at --help (exit 2)", async () => {
    const { code, stdout, stderr } = await littlepress("--nope");
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: "new: unknown option '--nope'; see --help\n",
    });
  }, 70_000);
});
