// The bench's "before" kit (scripts/bench/tree.ts): a git ref is checked out
// of a repository this test makes itself, so that it runs the same in a clone
// and in a copy of the kit without .git (a release, `git archive`); a folder
// is copied without git; and a --before that cannot be had says what to do.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { beforeTree, BeforeTreeError, checkoutTree } from "../../scripts/bench/tree.ts";
import { installedPackage, ROOT, setQuiet } from "../../scripts/bench/util.ts";

type Version = { version: string };

const temporary: string[] = [];
beforeAll(() => setQuiet(true));
afterAll(() => {
  setQuiet(false);
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function folder(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `littlepress-bench-${name}-`));
  temporary.push(dir);
  return dir;
}

/** A kit of two files in `dir`, and what a working copy holds beside them that is not the kit. */
function writeKit(dir: string, { junk = false, dependencies = {} } = {}) {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "littlepress", version: "9.9.9", dependencies }),
    "lib/a.ts": "export const a = 1;\n",
  };
  if (junk)
    for (const f of ["node_modules/x/index.js", "dist/lib/a.js", ".test-work/sites/a.html", "lib/.cache/b"])
      files[f] = "not the kit\n";
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

const git = (repo: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

describe("--before <git ref>", () => {
  it("checks the commit out in .test-work/, names it, and removes the checkout and its worktree after", () => {
    const repo = folder("repo");
    writeKit(path.join(repo, "packages", "littlepress"));
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "the kit before");
    const tree = checkoutTree("HEAD", repo);
    try {
      expect(tree).toMatchObject({ ref: "HEAD", subject: "the kit before" });
      expect(tree.commit).toMatch(/^[0-9a-f]{7,}$/);
      expect(tree.dir.startsWith(path.join(ROOT, ".test-work", "bench-before-"))).toBe(true);
      expect(tree.dir.endsWith(path.join("tree", "packages", "littlepress")), "the kit in the checkout").toBe(true);
      expect(readFileSync(path.join(tree.dir, "lib", "a.ts"), "utf8")).toBe("export const a = 1;\n");
    } finally {
      tree.remove();
    }
    expect(existsSync(tree.dir)).toBe(false);
    expect(git(repo, "worktree", "list").trim().split("\n")).toHaveLength(1);
  });

  it("not in the repository: says so, and that another ref or a folder will do", () => {
    const repo = folder("repo-empty");
    writeKit(repo);
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "one");
    expect(() => checkoutTree("no-such-ref", repo)).toThrow(BeforeTreeError);
    expect(() => checkoutTree("no-such-ref", repo)).toThrow(
      /no such folder, nor commit.*another ref or a folder with --before/,
    );
  });

  it("where there is no git repository (a release, git archive): says to give --before a folder", () => {
    const copy = folder("no-git");
    writeKit(copy);
    expect(() => checkoutTree("HEAD", copy)).toThrow(BeforeTreeError);
    expect(() => checkoutTree("HEAD", copy)).toThrow(
      /is no folder, and .* is not in a git repository .*give --before a folder that holds the kit/,
    );
  });

  it("where git is not installed: says so, and to give --before a folder", () => {
    const path0 = process.env.PATH;
    process.env.PATH = folder("no-path"); // nothing to run there: spawning git fails as if it were not installed
    try {
      expect(() => checkoutTree("HEAD")).toThrow(
        /is no folder, and git, for a ref, is not installed here: give --before a folder/,
      );
    } finally {
      process.env.PATH = path0;
    }
  });
});

describe("--before <folder>", () => {
  it("copies the kit, not its installs, builds and test work, with no git, and removes the copy after", () => {
    const release = folder("release");
    writeKit(path.join(release, "packages", "littlepress"), { junk: true });
    const tree = beforeTree(release, folder("not-a-repo"));
    try {
      expect(tree).toMatchObject({ ref: release, commit: "9.9.9", folder: true });
      expect(tree.dir.startsWith(path.join(ROOT, ".test-work", "bench-before-"))).toBe(true);
      expect(readFileSync(path.join(tree.dir, "lib", "a.ts"), "utf8")).toBe("export const a = 1;\n");
      for (const junk of ["node_modules", "dist", ".test-work", "lib/.cache"])
        expect([junk, existsSync(path.join(tree.dir, junk))]).toEqual([junk, false]);
    } finally {
      tree.remove();
    }
    expect(existsSync(tree.dir)).toBe(false);
  });

  it("gets the packages it needs that this project no longer installs, nested, and no others", () => {
    // is-odd is not installed here; it needs is-number 6, where this project has 7. hono is installed here.
    const hono = JSON.parse(readFileSync(path.join(installedPackage("hono"), "package.json"), "utf8")) as Version;
    expect(() => installedPackage("is-odd"), "is-odd must be a package this project does not install").toThrow();
    const release = folder("release-deps");
    writeKit(release, { dependencies: { "is-odd": "3.0.1", hono: hono.version } });
    // npm's cache and logs in the run's temporary folder, not the home folder (unstubbed after the test).
    vi.stubEnv("npm_config_cache", folder("npm-cache"));
    const tree = beforeTree(release, folder("not-a-repo-deps"));
    try {
      expect(tree.packages.names).toEqual(["is-odd"]);
      const modules = path.join(tree.dir, "node_modules");
      expect(readdirSync(modules)).toEqual(["is-odd"]);
      const version = (file: string) => (JSON.parse(readFileSync(path.join(modules, file), "utf8")) as Version).version;
      expect(version("is-odd/package.json")).toBe("3.0.1");
      expect(version("is-odd/node_modules/is-number/package.json")).toMatch(/^6\./);
      // Resolved from the tree as Node resolves it: the tree's is-odd, with its own is-number.
      const odd = execFileSync(process.execPath, ["-e", 'process.stdout.write(String(require("is-odd")(3)))'], {
        cwd: tree.dir,
        encoding: "utf8",
      });
      expect(odd).toBe("true");
    } finally {
      tree.remove();
    }
    expect(existsSync(tree.dir)).toBe(false);
    expect(() => installedPackage("is-odd"), "nothing installed into this project").toThrow();
  });

  it("that holds no kit: says so", () => {
    const empty = folder("empty");
    expect(() => beforeTree(empty)).toThrow(/holds no kit \(no package\.json, nor packages\/littlepress\)/);
  });
});
