// Messages that send an author to the documentation name a page and a heading
// that are there. Every pointer is written one way, (docs/page.md: "Heading"),
// so that this test finds them all and follows each into its page; the old
// (README: "Heading") and a loose "see the README" are refused, since the
// README no longer holds those sections and a loose pointer cannot be checked.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { headings } from "./markdown.ts";
import { loosePointers, pointerProblem, pointers, sourceFiles } from "./doc-pointers.ts";

/** The folders whose text reaches authors: messages, usage texts, the layouts, the functions. */
const SOURCES = ["lib", "scripts", "layouts", "functions"];

const files = sourceFiles(SOURCES);
const found = files.map((file) => ({ file, text: readFileSync(file, "utf8") }));

it("finds the pointers in lib/ (a publication.json mistake, a misused text setting)", () => {
  const all = found.flatMap(({ text }) => pointers(text)).map((p) => `${p.page}: ${p.heading}`);
  expect(all).toContain("docs/writing-publications.md: publication.json");
  expect(all).toContain("docs/settings.md: Text settings");
});

describe.each(found.filter(({ text }) => pointers(text).length || loosePointers(text).length))("$file", ({ text }) => {
  it("points only at pages and headings that are there", () => {
    expect(
      pointers(text)
        .map((p) => pointerProblem(p))
        .filter(Boolean),
    ).toEqual([]);
  });

  it('points at the docs only as (docs/page.md: "Heading")', () => {
    expect(loosePointers(text)).toEqual([]);
  });
});

describe("the pointer checks themselves", () => {
  it("read pointers in either quoting, and a page's headings outside code", () => {
    const source =
      `fix: 'x (docs/settings.md: "Subscriber settings")', ` + `y: "z (docs/writing-publications.md: \\"Editions\\")"`;
    expect(pointers(source)).toEqual([
      { page: "docs/settings.md", heading: "Subscriber settings" },
      { page: "docs/writing-publications.md", heading: "Editions" },
    ]);
    expect(headings("# A\n```sh\n# not a heading\n```\n#### D ####\n##### E\n")).toEqual(["A", "D"]);
  });

  it("fail a pointer to a missing page or a missing heading", () => {
    expect(pointerProblem({ page: "docs/settings.md", heading: "Text settings" })).toBeUndefined();
    expect(pointerProblem({ page: "docs/no-such-page.md", heading: "Text settings" })).toBe(
      "docs/no-such-page.md does not exist",
    );
    expect(pointerProblem({ page: "docs/settings.md", heading: "Text settings in templates" })).toBe(
      'docs/settings.md has no heading "Text settings in templates"',
    );
    // The README is for authors starting out: the sections messages named have moved into docs/.
    expect(pointerProblem({ page: "README.md", heading: "Recurring editions" })).toBe(
      'README.md has no heading "Recurring editions"',
    );
  });

  it("catch a loose pointer or the README's old form in a message, but not in a comment", () => {
    expect(loosePointers('fix: "see “Text settings” in the README"')).toHaveLength(1);
    expect(loosePointers('fix: "correct it as the README describes"')).toHaveLength(1);
    expect(loosePointers('fix: "correct it (see the docs)"')).toHaveLength(1);
    expect(loosePointers('fix: "correct it (docs/settings.md)"')).toHaveLength(1);
    expect(loosePointers(`fix: 'correct it (README: "publication.json")'`)).toHaveLength(1);
    expect(loosePointers("// The two pictures in the README")).toEqual([]);
    expect(loosePointers('    readme: { type: "boolean" },')).toEqual([]);
    expect(loosePointers("# secret NETLIFY_BUILD_HOOK; see the README")).toEqual([]);
    expect(loosePointers(`fix: 'correct it (docs/writing-publications.md: "publication.json")'`)).toEqual([]);
  });
});
