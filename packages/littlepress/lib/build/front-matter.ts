import { parse } from "yaml";
import { yamlProblem } from "./yaml-errors.ts";

// YAML 1.2 core schema: `date: 2026-02-30` stays the string the author wrote,
// so an impossible date is reported instead of silently becoming March 2nd.
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** A Markdown file split in two: the data of its front matter, and the text after it. */
export interface FrontMatterSplit {
  data: Record<string, unknown>;
  body: string;
  /** The file's line where the body starts (1 without front matter): template errors name file lines. */
  bodyLine: number;
}

/** What is wrong with a file's front matter, and what to do. */
export interface FrontMatterError {
  error: string;
  fix: string;
}

const FIX_YAML = "correct the YAML between the two --- lines";

/** Splits a Markdown file into its front matter (YAML) and the text it renders. */
export function splitFrontMatter(text: string): FrontMatterSplit | FrontMatterError {
  const clean = text.replace(/^\uFEFF/, ""); // editors on Windows may save a byte-order mark
  const m = FRONT_MATTER.exec(clean);
  if (!m) return missingFrontMatter(clean) ?? { data: {}, body: clean, bodyLine: 1 };
  const body = clean.slice(m[0].length);
  const bodyLine = m[0].split("\n").length;
  const block = m[1] ?? "";
  const simple = simpleFrontMatter(block);
  if (simple) return { data: simple, body, bodyLine };
  try {
    const data: unknown = parse(block, { schema: "core" });
    if (data === null || data === undefined) return { data: {}, body, bodyLine };
    if (typeof data !== "object" || Array.isArray(data)) {
      return { error: "the front matter is not a set of `key: value` lines", fix: FIX_YAML };
    }
    return { data: data as Record<string, unknown>, body, bodyLine };
  } catch (e) {
    // The block starts on the file's second line, under the opening `---`.
    const { said, fix } = yamlProblem(e, block, 1);
    return { error: `the front matter is not valid YAML at ${said}`, fix: fix ?? FIX_YAML };
  }
}

const OPENING = /^---[ \t]*\r?\n/;
const LATE_OPENING = /^(?:[ \t]*\r?\n)+---[ \t]*\r?\n/;

/** Front matter that was meant but is not there: opened and never closed, or opened below blank lines. */
function missingFrontMatter(text: string): FrontMatterError | undefined {
  if (OPENING.test(text)) {
    const fix = "end it with a line of three dashes, `---`, before the text";
    return { error: "the front matter opened by `---` on line 1 is never closed", fix };
  }
  const late = LATE_OPENING.exec(text);
  if (late) {
    const line = late[0].split("\n").length - 1;
    const error = `the front matter starts on line ${line}, after blank lines, so it is read as text`;
    return { error, fix: "remove the blank lines: the first `---` must be the file's first line" };
  }
  return undefined;
}

const LINE = /^([A-Za-z_][\w-]*):[ \t]+(.*?)[ \t]*$/;
const INTEGER = /^(?:0|-?[1-9]\d{0,14})$/;
const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const SINGLE_QUOTED = /^'([^']*)'$/;
const DATE_OR_HOUR = /^\d{4}-\d\d-\d\d(?:T\d\d(?::\d\d){0,2})?$/;
// A plain scalar that is a string under the core schema: starts with a letter,
// holds no character YAML treats specially, and is not a boolean or null.
const PLAIN_WORDS = /^[A-Za-z][^:#[\]{}"'`|>&*!%@,\\]*$/;
const NOT_STRINGS = /^(?:true|false|null|True|False|Null|TRUE|FALSE|NULL)$/;

/**
 * The front matter most editions have (`number: 12`, `title: "…"`,
 * `date: 2026-11-22`) read without the YAML parser, a tenth of the cost on a
 * site of 100,000 editions; undefined for anything else, which YAML reads.
 * Gives exactly what `parse(block, { schema: "core" })` gives (a property test
 * checks it).
 */
export function simpleFrontMatter(block: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const line of block.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m || m[1] === "__proto__" || Object.hasOwn(data, m[1]!)) return undefined;
    const raw = m[2]!;
    let value: unknown;
    if (INTEGER.test(raw)) value = Number(raw);
    else if (DOUBLE_QUOTED.test(raw)) value = raw.slice(1, -1);
    else if (SINGLE_QUOTED.test(raw)) value = raw.slice(1, -1);
    else if (DATE_OR_HOUR.test(raw)) value = raw;
    else if (PLAIN_WORDS.test(raw) && !NOT_STRINGS.test(raw)) value = raw;
    else return undefined;
    data[m[1]!] = value;
  }
  return data;
}
