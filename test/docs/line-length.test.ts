// No source line is over 120 characters (issue 16). Prettier keeps code within
// printWidth 120 but does not break long strings, comments or Nunjucks templates,
// so this test reads every tracked source file, new ones too, and names each line over.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const MAX = 120;
/** Where the kit's own source is; test/fixtures holds sites as authors write them. */
const TRACKED = [
  "lib",
  "scripts",
  "functions",
  "test",
  "layouts",
  ".eleventy.js",
  "eslint.config.js",
  "vitest.config.ts",
];
const SOURCE_FILE = /\.(?:ts|mts|js|njk|css)$/;

function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...TRACKED], { encoding: "utf8" });
  return listed
    .split("\0")
    .filter((f) => SOURCE_FILE.test(f) && !f.startsWith("test/fixtures/"))
    .sort();
}

/** "file:line: length" for each line over MAX characters (code points, so "é" and "😀" count one). */
function longLines(file: string, text: string): string[] {
  return text.split(/\r?\n/).flatMap((line, i) => {
    const length = [...line].length;
    return length > MAX ? [`${file}:${i + 1}: ${length}`] : [];
  });
}

const files = sourceFiles();

it("reads the tracked source: lib, scripts, functions, layouts, the tests and the configuration files", () => {
  expect(files).toContain("lib/build/build.ts");
  expect(files).toContain("layouts/desk/publication.njk");
  expect(files).toContain("test/docs/line-length.test.ts");
  expect(files).toContain("eslint.config.js");
  expect(files.some((f) => f.startsWith("test/fixtures/"))).toBe(false);
});

it(`has no line over ${MAX} characters`, () => {
  expect(files.flatMap((file) => longLines(file, readFileSync(file, "utf8")))).toEqual([]);
});

it("counts characters, not bytes or UTF-16 units", () => {
  expect(longLines("a.ts", `${"é".repeat(MAX)}\n${"😀".repeat(MAX)}\nx`)).toEqual([]);
  expect(longLines("a.ts", `ok\n${"x".repeat(MAX + 1)}\n`)).toEqual([`a.ts:2: ${MAX + 1}`]);
});
