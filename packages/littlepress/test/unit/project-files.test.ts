// The project's files without git: the .gitignore rules read as git reads
// them, and the walk finds what `git ls-files` finds (test/unit/line-length).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRule, projectFiles } from "../helpers/project-files.ts";

const matches = (line: string, relative: string) => parseRule(line)!.pattern.test(relative);

describe(".gitignore rules", () => {
  it("reads a name without a slash at any depth, and a slash at the start or inside as tied to the top", () => {
    expect(matches("node_modules/", "node_modules")).toBe(true);
    expect(matches("node_modules/", "layouts/node_modules")).toBe(true);
    expect(parseRule("node_modules/")!.folderOnly).toBe(true);
    expect(matches("/preview/", "preview")).toBe(true);
    expect(matches("/preview/", "test/preview")).toBe(false);
    expect(matches("_site.*/", "_site.old")).toBe(true);
    expect(matches("*.log", "scripts/x.log")).toBe(true);
    expect(matches("*.log", "scripts/x.log.ts")).toBe(false);
    expect(matches("docs/*.md", "docs/a.md")).toBe(true);
    expect(matches("docs/*.md", "docs/sub/a.md")).toBe(false);
    expect(matches("a/**/b", "a/b")).toBe(true);
    expect(matches("a/**/b", "a/x/y/b")).toBe(true);
    expect(parseRule("!keep.log")!.negated).toBe(true);
    expect(parseRule("# a comment")).toBeUndefined();
    expect(parseRule("   ")).toBeUndefined();
  });
});

/** git itself, in `cwd`, reading no user's or system's configuration (a global excludes file would hide files). */
const git = (cwd: string, args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });

describe("beside git", () => {
  // In a repository the test makes of the kit's files: the same in a clone and in a copy without .git.
  it("walking the tree finds the files git lists", () => {
    const paths = ["lib", "scripts", "functions", "test", "layouts", ".eleventy.js", "package.json"];
    const repo = mkdtempSync(path.join(tmpdir(), "littlepress-project-files-"));
    try {
      for (const p of [...paths, ".gitignore"]) cpSync(p, path.join(repo, p), { recursive: true });
      // What a working copy holds beside the source, which .gitignore hides.
      for (const junk of ["lib/node_modules/x.js", "test/.test-work/a.ts", "scripts/.cache/b.js"]) {
        mkdirSync(path.dirname(path.join(repo, junk)), { recursive: true });
        writeFileSync(path.join(repo, junk), "export {};\n");
      }
      git(repo, ["init", "-q"]);
      const listed = git(repo, ["ls-files", "-z", "--others", "--exclude-standard", "--", ...paths]);
      const walked = projectFiles(repo, paths, { git: false });
      expect(walked.length).toBeGreaterThan(100);
      expect(walked).toEqual(listed.split("\0").filter(Boolean).sort());
      expect(walked.filter((f) => f.includes("node_modules") || f.includes(".cache"))).toEqual([]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
