// Messages that send an author to the documentation name a page and a heading
// that are there. Every pointer is written one way, (docs/page.md: "Heading"),
// so that this test finds them all and follows each into its page; the old
// (README: "Heading") and a loose "see the README" are refused, since the
// README no longer holds those sections and a loose pointer cannot be checked.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headings } from "./markdown.ts";

/** The folders whose text reaches authors: messages, usage texts, the layouts, the workflows' errors. */
const KIT = "packages/littlepress";
const SOURCES = [
  `${KIT}/lib`,
  `${KIT}/scripts`,
  `${KIT}/layouts`,
  `${KIT}/functions`,
  "layouts",
  "functions",
  ".github/workflows",
];
const SOURCE_FILE = /\.(?:[cm]?[jt]s|njk|html|css|ya?ml)$/;

/** `docs/page.md: "Heading"` (or `README.md: "Heading"`), quotes escaped or not (it may sit inside a "…" string). */
const POINTER = /\b((?:docs\/[\w.-]+|README)\.md): \\?"([^"\\]+)\\?"/g;
/** Pointers the test could not check: no page or no heading ("see the README", "docs/x.md" alone). */
const LOOSE = new RegExp(
  [
    /\b(?:see|in|against|as)\s+(?:the\s+)?(?:README|docs)\b(?![.:/])/.source,
    /\bREADME\s+(?:describes|says)\b/.source,
    /\(README,/.source,
    /\bdocs\/[\w.-]+\.md\b/.source,
  ].join("|"),
  "i",
);
/** The README's old form, (README: "Heading"), from before its sections moved into docs/ (case matters: `readme:`). */
const OLD_FORM = /\bREADME: /;
const isLoose = (line: string) => LOOSE.test(line) || OLD_FORM.test(line);

interface Pointer {
  page: string;
  heading: string;
}

function sourceFiles(): string[] {
  return SOURCES.flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)))
    .filter((f) => SOURCE_FILE.test(f))
    .sort();
}

function pointers(text: string): Pointer[] {
  return [...text.matchAll(POINTER)].map((m) => ({ page: m[1]!, heading: m[2]! }));
}

/** Lines that point at the docs loosely; comments are for the kit's readers, not its authors. */
function loosePointers(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !/^\s*(?:\/\/|\/\*|\*|#\s)/.test(line) && isLoose(line.replace(POINTER, "")));
}

/** What is wrong with a pointer, or undefined when its page has that heading. */
function pointerProblem({ page, heading }: Pointer): string | undefined {
  if (!existsSync(page)) return `${page} does not exist`;
  if (!headings(readFileSync(page, "utf8")).includes(heading)) return `${page} has no heading "${heading}"`;
  return undefined;
}

const files = sourceFiles();
const found = files.map((file) => ({ file, text: readFileSync(file, "utf8") }));

it("finds the pointers in lib/ (a publication.json mistake, a misused text setting) and the workflows", () => {
  const all = found.flatMap(({ text }) => pointers(text)).map((p) => `${p.page}: ${p.heading}`);
  expect(all).toContain("docs/writing-publications.md: publication.json");
  expect(all).toContain("docs/settings.md: Text settings");
  expect(all).toContain("docs/deploying-and-self-hosting.md: Scheduled rebuilds");
});

describe.each(found.filter(({ text }) => pointers(text).length || loosePointers(text).length))("$file", ({ text }) => {
  it("points only at pages and headings that are there", () => {
    expect(pointers(text).map(pointerProblem).filter(Boolean)).toEqual([]);
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
