// A YAML error as an author can act on it: at the line of their file (front
// matter starts on the file's second line), in the parser's words, and with
// the usual cure when there is one. `title: Part 4: The Bell` is the common
// case: a value holding `: ` (or starting with a character YAML reserves)
// must be quoted, which the parser's "Nested mappings are not allowed in
// compact mappings" never says.

/** What the parser said and where, and what to do. */
export interface YamlProblem {
  said: string;
  fix: string | undefined;
}

/** A `key: value` line, perhaps an item of a list (`- key: value`). */
const KEY_LINE = /^(\s*(?:-\s+)?)([^\s:#][^:#]*?):[ \t]+(\S.*?)\s*$/;
// A plain value YAML cannot read as text: `: ` or ` #` inside it, or a reserved character first.
const NEEDS_QUOTES = /: | #|^[@`%&*!|>{["']/;
// A list or mapping written inline (`[a, b`, `{a: 1}`): meant as one, so quoting is no cure.
const MEANT_LIST = /^(?:\[[^\]]*\]?|\{[^}]*\}?)$/;
const QUOTED = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')$/;

/**
 * `error` thrown by the yaml package on `text`, which starts on the file's line `1 + offset`:
 * "line 3, column 8: <message>" with the file's line, and the fix.
 */
export function yamlProblem(error: unknown, text: string, offset: number): YamlProblem {
  const { message, linePos } = error as { message?: string; linePos?: { line: number; col: number }[] };
  const first = String(message ?? error).split("\n")[0]!;
  const at = linePos?.[0];
  if (!at) return { said: first, fix: undefined };
  const words = first.replace(/ at line \d+, column \d+:?$/, "");
  return {
    said: `line ${at.line + offset}, column ${at.col}: ${words}`,
    fix: quoteFix(text.split(/\r?\n/)[at.line - 1]),
  };
}

/** `quote the value: title: "Part 4: The Bell"`, for a line whose plain value YAML cannot read. */
function quoteFix(line: string | undefined): string | undefined {
  const m = line === undefined ? null : KEY_LINE.exec(line);
  if (!m) return undefined;
  const [, lead, key, value] = m;
  if (QUOTED.test(value!) || !NEEDS_QUOTES.test(value!) || MEANT_LIST.test(value!)) return undefined;
  const quoted = value!.includes('"') && !value!.includes("'") ? `'${value}'` : `"${value!.replace(/[\\"]/g, "\\$&")}"`;
  return (
    `quote the value: ${lead!.trimStart()}${key}: ${quoted} ` +
    "(a value holding `: ` or ` #`, or starting with a quote, `@`, `[`, `{`, `*`, `&`, `!`, `|` or `>`, is quoted)"
  );
}
