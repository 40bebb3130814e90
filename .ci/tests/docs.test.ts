// The repository's own pages and messages, beside the package's (whose tests
// check its docs/ and its messages): the README's links lead to files of the
// repository, and the starter's messages (its layouts, functions, scripts and workflows)
// point only at headings the package's docs have.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  codePathsUp,
  isExternal,
  linkTargets,
  relativeLinkProblem,
} from "../../packages/littlepress/test/docs/markdown.ts";
import {
  loosePointers,
  pointerProblem,
  pointers,
  sourceFiles,
} from "../../packages/littlepress/test/docs/doc-pointers.ts";

const KIT = "packages/littlepress";

describe("README.md", () => {
  const markdown = readFileSync("README.md", "utf8");

  it("links only to files and headings inside the repository, the package's docs among them", () => {
    const relative = linkTargets(markdown).filter((t) => !isExternal(t));
    expect(relative).toContain(`${KIT}/docs/writing-publications.md`);
    const broken = relative.map((t) => [t, relativeLinkProblem("README.md", t, process.cwd())]).filter(([, p]) => p);
    expect(broken).toEqual([]);
  });

  it("names no path outside the repository", () => {
    const outside = codePathsUp(markdown).filter((p) => relativeLinkProblem("README.md", p, process.cwd()));
    expect(outside).toEqual([]);
  });
});

describe("the starter's pointers into the docs", () => {
  const found = sourceFiles(["layouts", "functions", "scripts", ".github/workflows"]).map((file) => ({
    file,
    text: readFileSync(file, "utf8"),
  }));

  it("are found (the scheduled rebuild's error, npm test's when littlepress is not installed)", () => {
    const all = found.flatMap(({ text }) => pointers(text)).map((p) => `${p.page}: ${p.heading}`);
    expect(all).toContain("docs/deploying-and-self-hosting.md: Scheduled rebuilds");
    expect(all).toContain("docs/upgrading.md: A site of your own");
  });

  it.each(found)("$file points only at headings of the package's docs, in the one form", ({ text }) => {
    expect(
      pointers(text)
        .map((p) => pointerProblem(p, KIT))
        .filter(Boolean),
    ).toEqual([]);
    expect(loosePointers(text)).toEqual([]);
  });
});
