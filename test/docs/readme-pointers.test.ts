// Messages that send an author to the README name a heading that is there.
// Every pointer is written one way, (README: "Heading"), so that this test
// finds them all; a loose "see the README" is refused, since it cannot be checked.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headings } from "./markdown.ts";

/** The folders whose text reaches authors: messages, usage texts, the layouts. */
const SOURCES = ["lib", "scripts", "layouts", "functions"];
const SOURCE_FILE = /\.(?:[cm]?[jt]s|njk|html|css)$/;

/** `README: "Heading"`, quotes escaped or not (it may sit inside a "…" string). */
const POINTER = /README: \\?"([^"\\]+)\\?"/g;
/** Ways of pointing at the README without naming a heading the test could check. */
const LOOSE = /\b(?:see|in|against|as)\s+(?:the\s+)?README\b(?!:)|\bREADME\s+(?:describes|says)\b|\(README,/i;

function sourceFiles(): string[] {
  return SOURCES.flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)))
    .filter((f) => SOURCE_FILE.test(f))
    .sort();
}

function pointers(text: string): string[] {
  return [...text.matchAll(POINTER)].map((m) => m[1]!);
}

/** Lines that point at the README loosely; comments are for the kit's readers, not its authors. */
function loosePointers(text: string): string[] {
  return text.split("\n").filter((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line) && LOOSE.test(line.replace(POINTER, "")));
}

const readme = new Set(headings(readFileSync("README.md", "utf8")));
const files = sourceFiles();
const found = files.map((file) => ({ file, text: readFileSync(file, "utf8") }));

it("finds the pointers in lib/ (a publication.json mistake, a misused text setting)", () => {
  const all = found.flatMap(({ text }) => pointers(text));
  expect(all).toContain("publication.json");
  expect(all).toContain("Subscriber settings");
});

describe.each(found.filter(({ text }) => pointers(text).length || loosePointers(text).length))("$file", ({ text }) => {
  it("points only at headings the README has", () => {
    expect(pointers(text).filter((heading) => !readme.has(heading))).toEqual([]);
  });

  it('points at the README only as (README: "Heading")', () => {
    expect(loosePointers(text)).toEqual([]);
  });
});

describe("the pointer checks themselves", () => {
  it("read pointers in either quoting, and the README's headings outside code", () => {
    const source = `fix: 'x (README: "Subscriber settings")', y: "z (README: \\"Editions\\")"`;
    expect(pointers(source)).toEqual(["Subscriber settings", "Editions"]);
    expect(headings("# A\n```sh\n# not a heading\n```\n#### D ####\n##### E\n")).toEqual(["A", "D"]);
    expect(readme.has("Text settings in templates")).toBe(false); // the heading the old message named
  });

  it("catch a loose pointer in a message but not in a comment", () => {
    expect(loosePointers('fix: "see “Text settings” in the README"')).toHaveLength(1);
    expect(loosePointers('fix: "correct it as the README describes"')).toHaveLength(1);
    expect(loosePointers("// The two pictures in the README")).toEqual([]);
    expect(loosePointers(`fix: 'correct it (README: "publication.json")'`)).toEqual([]);
  });
});
