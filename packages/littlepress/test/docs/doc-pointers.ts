// The one way messages point an author into the documentation,
// (docs/page.md: "Heading"), read and checked: by this package's test of its own
// messages (readme-pointers.test.ts) and by the repository's of the starter's.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { headings } from "./markdown.ts";

const SOURCE_FILE = /\.(?:[cm]?[jt]s|njk|html|css|ya?ml)$/;

/** `docs/page.md: "Heading"` (or `README.md: "Heading"`), quotes escaped or not (it may sit inside a "…" string). */
export const POINTER = /\b((?:docs\/[\w.-]+|README)\.md): \\?"([^"\\]+)\\?"/g;
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

export interface Pointer {
  page: string;
  heading: string;
}

export function pointers(text: string): Pointer[] {
  return [...text.matchAll(POINTER)].map((m) => ({ page: m[1]!, heading: m[2]! }));
}

/** Lines that point at the docs loosely; comments are for the kit's readers, not its authors. */
export function loosePointers(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !/^\s*(?:\/\/|\/\*|\*|#\s)/.test(line) && isLoose(line.replace(POINTER, "")));
}

/**
 * What is wrong with a pointer, or undefined when its page has that heading. Pages are
 * the package's (`root`, by default the working folder): an installed site finds them
 * in node_modules/littlepress/docs/.
 */
export function pointerProblem({ page, heading }: Pointer, root = "."): string | undefined {
  const file = path.join(root, page);
  if (!existsSync(file)) return `${page} does not exist`;
  if (!headings(readFileSync(file, "utf8")).includes(heading)) return `${page} has no heading "${heading}"`;
  return undefined;
}

/** The files under `folders` whose text may reach authors (code, templates, styles, workflows). */
export function sourceFiles(folders: string[]): string[] {
  return folders
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)))
    .filter((f) => SOURCE_FILE.test(f))
    .sort();
}
