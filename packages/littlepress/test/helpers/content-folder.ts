// Content folders written by unit tests: { "slug/publication.json": {...}, "slug/editions/a.md": "..." }.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { ContentError, type ContentProblem } from "../../lib/model/content-error.ts";
import { loadSite, type LoadOptions } from "../../lib/build/site.ts";

export type Files = Record<string, string | object>;

/** A folder under .test-work/ for one test file's content folders; `remove` when the file is done. */
export function contentFolders(prefix: string) {
  mkdirSync(".test-work", { recursive: true });
  const root = mkdtempSync(path.join(".test-work", prefix));
  let n = 0;
  return {
    root,
    /** Writes a content folder (objects as JSON, strings as they are) and returns its path. */
    content: (files: Files): string => {
      const dir = path.join(root, `c${n++}`);
      mkdirSync(dir, { recursive: true });
      for (const [name, body] of Object.entries(files)) {
        const file = path.join(dir, name);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, typeof body === "string" ? body : JSON.stringify(body));
      }
      return dir;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A publication.json keyed by `by`, with `extra` over it. */
export const pub = (by: string, extra: object = {}) => ({
  name: "P",
  description: "D",
  owner_email: "p@example.com",
  delivered_on: "Daily",
  editions: { by },
  ...extra,
});

/** A Markdown edition: front matter, then the body. */
export const md = (front: string, body = "Text.") => `---\n${front}\n---\n${body}\n`;

/** The problems loadSite reports for `dir`, each a full ContentProblem (fails when it reports none). */
export function problemsOf(dir: string, options?: LoadOptions): ContentProblem[] {
  let error: unknown;
  try {
    loadSite(dir, options);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ContentError);
  const problems = (error as ContentError).problems;
  expect(problems.length).toBeGreaterThan(0);
  for (const p of problems) {
    for (const k of ["file", "field", "problem", "fix"] as const) expect(typeof p[k]).toBe("string");
  }
  return problems;
}
