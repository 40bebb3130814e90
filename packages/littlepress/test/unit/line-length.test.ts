// No source line is over 120 characters (issue 16). Prettier keeps code within
// printWidth 120 but does not break long strings, comments or Nunjucks templates,
// so this test reads every source file git tracks or would track, new ones too, and
// names each line over. A copy of the kit without git reads the same files (projectFiles).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { projectFiles } from "../helpers/project-files.ts";

const MAX = 120;
/** Where the kit's own source is; test/fixtures holds sites as authors write them. */
const TRACKED = ["lib", "scripts", "functions", "test", "layouts", ".eleventy.js", "vitest.config.ts"];
const SOURCE_FILE = /\.(?:ts|mts|js|njk|css)$/;

/** The kit's source files under `root` (the project), as relative paths with slashes. */
function sourceFiles(root = ".", options?: { git?: boolean }): string[] {
  return projectFiles(root, TRACKED, options).filter((f) => SOURCE_FILE.test(f) && !f.startsWith("test/fixtures/"));
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
  expect(files).toContain("test/unit/line-length.test.ts");
  expect(files).toContain("vitest.config.ts");
  expect(files.some((f) => f.startsWith("test/fixtures/"))).toBe(false);
});

it("reads the same files in a copy without .git (a tarball, degit), skipping what .gitignore ignores", () => {
  const copy = mkdtempSync(path.join(tmpdir(), "littlepress-no-git-"));
  const back = process.cwd();
  try {
    for (const p of [...TRACKED, ".gitignore"]) cpSync(p, path.join(copy, p), { recursive: true });
    // What a working copy has beside the source, and git ignores.
    for (const junk of [
      "layouts/node_modules/x/index.js",
      "lib/_site/a.js",
      "test/.test-work/b.ts",
      "functions/.cache/c.js",
    ]) {
      mkdirSync(path.dirname(path.join(copy, junk)), { recursive: true });
      writeFileSync(path.join(copy, junk), "export {};\n");
    }
    process.chdir(copy);
    expect(sourceFiles()).toEqual(files);
  } finally {
    process.chdir(back);
    rmSync(copy, { recursive: true, force: true });
  }
});

it(`has no line over ${MAX} characters`, () => {
  expect(files.flatMap((file) => longLines(file, readFileSync(file, "utf8")))).toEqual([]);
});

it("counts characters, not bytes or UTF-16 units", () => {
  expect(longLines("a.ts", `${"é".repeat(MAX)}\n${"😀".repeat(MAX)}\nx`)).toEqual([]);
  expect(longLines("a.ts", `ok\n${"x".repeat(MAX + 1)}\n`)).toEqual([`a.ts:2: ${MAX + 1}`]);
});
