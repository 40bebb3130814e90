// Just enough Markdown for the docs tests: the headings a reader can be sent
// to, GitHub's anchors for them, and the links and paths a page points at.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The text outside fenced code blocks (a "# comment" in a shell block is no heading). */
export function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** Headings # to ####, as their text (GitHub's own heading levels an author links to). */
export function headings(markdown: string): string[] {
  return [...withoutFences(markdown).matchAll(/^#{1,4}[ \t]+(.+?)[ \t#]*$/gm)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as dashes, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings(markdown)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n ? `${base}-${n}` : base);
  }
  return result;
}

/** Every link target: [text](target), ![alt](target), [ref]: target, href="…" and src="…". */
export function linkTargets(markdown: string): string[] {
  const text = withoutFences(markdown).replace(/`[^`\n]*`/g, "");
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  const html = [...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
  return [...inline, ...references, ...html];
}

/** Paths written as code that go up a folder (`../somewhere`): a reader would look for them too. */
export function codePathsUp(markdown: string): string[] {
  return [...withoutFences(markdown).matchAll(/`(\.\.\/[^`\s]+)`/g)].map((m) => m[1]!);
}

/** Whether a link leaves the page's own files: a URL with a scheme, or protocol-relative. */
export const isExternal = (target: string) => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(target);

/**
 * What is wrong with a relative link from `page` (a path from the working folder), or
 * undefined when it leads to a file inside `root`, and to a heading there when it names one.
 */
export function relativeLinkProblem(page: string, target: string, root: string): string | undefined {
  const [file = "", anchor] = target.split("#");
  const resolved = file ? path.resolve(path.dirname(page), decodeURIComponent(file)) : path.resolve(page);
  const inside = path.relative(root, resolved);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return "points outside the repository";
  if (!existsSync(resolved)) return "leads to no file";
  const markdown = resolved.endsWith(".md") ? readFileSync(resolved, "utf8") : "";
  if (anchor && markdown && !anchors(markdown).has(anchor)) return "names no heading there";
  return undefined;
}
