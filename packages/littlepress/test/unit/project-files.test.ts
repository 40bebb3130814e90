// The project's files without git: the .gitignore rules read as git reads
// them, and the walk finds what `git ls-files` finds (test/unit/line-length).
import { execFileSync } from "node:child_process";
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

const hasGit = (() => {
  try {
    execFileSync("git", ["rev-parse", "--git-dir"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(hasGit)("in this git checkout", () => {
  it("walking the tree finds the files git lists", () => {
    const paths = ["lib", "scripts", "functions", "test", "layouts", ".eleventy.js", "package.json"];
    const walked = projectFiles(".", paths, { git: false });
    expect(walked.length).toBeGreaterThan(100);
    expect(walked).toEqual(projectFiles(".", paths));
  });
});
