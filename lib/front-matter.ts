import { parse } from "yaml";

// YAML 1.2 core schema: `date: 2026-02-30` stays the string the author wrote,
// so an impossible date is reported instead of silently becoming March 2nd.
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Reads the YAML front matter at the top of a Markdown file. */
export function readFrontMatter(text: string): { data: Record<string, unknown> } | { error: string } {
  const m = FRONT_MATTER.exec(text.replace(/^\uFEFF/, "")); // editors on Windows may save a byte-order mark
  if (!m) return { data: {} };
  try {
    const data: unknown = parse(m[1]!, { schema: "core" });
    if (data === null || data === undefined) return { data: {} };
    if (typeof data !== "object" || Array.isArray(data)) return { error: "the front matter is not a set of `key: value` lines" };
    return { data: data as Record<string, unknown> };
  } catch (e) {
    return { error: `the front matter is not valid YAML: ${(e as Error).message.split("\n")[0]}` };
  }
}
