import { parse } from "yaml";

// YAML 1.2 core schema: `date: 2026-02-30` stays the string the author wrote,
// so an impossible date is reported instead of silently becoming March 2nd.
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A Markdown file split in two: the data of its front matter, and the text after it. */
export interface FrontMatterSplit {
  data: Record<string, unknown>;
  body: string;
}

/** Splits a Markdown file into its front matter (YAML) and the text it renders. */
export function splitFrontMatter(text: string): FrontMatterSplit | { error: string } {
  const clean = text.replace(/^\uFEFF/, ""); // editors on Windows may save a byte-order mark
  const m = FRONT_MATTER.exec(clean);
  if (!m) return { data: {}, body: clean };
  const body = clean.slice(m[0].length);
  try {
    const data: unknown = parse(m[1]!, { schema: "core" });
    if (data === null || data === undefined) return { data: {}, body };
    if (typeof data !== "object" || Array.isArray(data)) return { error: "the front matter is not a set of `key: value` lines" };
    return { data: data as Record<string, unknown>, body };
  } catch (e) {
    return { error: `the front matter is not valid YAML: ${(e as Error).message.split("\n")[0]}` };
  }
}
