// The documentation stays inside the package: every relative link in its
// README and docs/ leads to a file of the package (and a heading, when it
// names one), and no path written as code climbs out of it (issue 13: the
// interface spec used to be linked at ../shared/, outside the repository).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anchors, codePathsUp, isExternal, linkTargets, relativeLinkProblem } from "./markdown.ts";

const ROOT = process.cwd();
const PAGES = [
  "README.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

const linkProblem = (page: string, target: string) => relativeLinkProblem(page, target, ROOT);

it("reads the README and the pages under docs/, the interface among them", () => {
  expect(PAGES).toContain("docs/publication-interface.md");
});

describe.each(PAGES)("%s", (page) => {
  const markdown = readFileSync(page, "utf8");

  it("links only to files and headings inside the repository", () => {
    const relative = linkTargets(markdown).filter((t) => !isExternal(t));
    const broken = relative.map((t) => [t, linkProblem(page, t)]).filter(([, problem]) => problem);
    expect(broken).toEqual([]);
  });

  it("names no path outside the repository", () => {
    const outside = codePathsUp(markdown).filter((p) => linkProblem(page, p) === "points outside the repository");
    expect(outside).toEqual([]);
  });
});

describe("the link checks themselves", () => {
  it("find a link that leaves the repository, a missing file and a missing heading", () => {
    expect(linkProblem("README.md", "../shared/spec/publication-interface.md")).toBe("points outside the repository");
    expect(linkProblem("docs/x.md", "../../elsewhere.md")).toBe("points outside the repository");
    expect(linkProblem("README.md", "docs/missing.md")).toBe("leads to no file");
    expect(linkProblem("README.md", "#no-such-heading")).toBe("names no heading there");
    expect(linkProblem("README.md", "package.json")).toBeUndefined();
  });

  it("read every kind of link and GitHub's anchors", () => {
    const page = '[a](x.md) ![b](y.png "t") <a href="z.md#q">c</a>\n[r]: w.md\n`[no](code.md)`\n```\n[no](f.md)\n```\n';
    expect(linkTargets(page).sort()).toEqual(["w.md", "x.md", "y.png", "z.md#q"]);
    const page2 = "# What is served\n### publication.json\n## A\n## A\n";
    expect([...anchors(page2)]).toEqual(["what-is-served", "publicationjson", "a", "a-1"]);
    expect(codePathsUp("see `../shared/spec.md` and `lib/x.ts`")).toEqual(["../shared/spec.md"]);
  });
});
