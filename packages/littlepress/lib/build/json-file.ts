// Every JSON file an author writes (site.json, publication.json, editions.json)
// is parsed here. JSON.parse says "Expected double-quoted property name in JSON
// at position 299", or for some mistakes no position at all; an author needs
// the line and column, the text of that line, and what to change. So when
// JSON.parse refuses a file, the text is scanned again to find where and why.
import type { ContentProblem } from "../model/content-error.ts";

/** The file's value, or its syntax error as a problem naming the line and column and the fix. */
export function parseJson(file: string, text: string): { value: unknown } | { problem: ContentProblem } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: jsonProblem(file, text, error as Error) };
  }
}

/** A syntax error found by scanning: where (an offset into the text), what, and what to do. */
interface Fault {
  at: number;
  problem: string;
  fix: string;
}

/** How the scanner stops at the first fault. */
class FaultFound extends Error {
  constructor(readonly fault: Fault) {
    super(fault.problem);
  }
}

/** The problem for a text JSON.parse refused with `error`. */
export function jsonProblem(file: string, text: string, error: Error): ContentProblem {
  if (!text.trim()) return { file, field: "", problem: "is empty", fix: "write the JSON in it, or remove the file" };
  const fault = findFault(text);
  if (!fault) {
    // The scanner agrees with JSON.parse on every text the tests try; should it not, JSON.parse's words.
    const fix = "correct the JSON syntax (a trailing comma or a missing quote, usually)";
    return { file, field: "", problem: `is not valid JSON: ${error.message}`, fix };
  }
  const { line, column, text: lineText } = lineOf(text, fault.at);
  const shown = lineText.trim();
  const quoted = shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
  return {
    file,
    field: `line ${line}, column ${column}`,
    problem: `is not valid JSON: ${fault.problem}${quoted ? `, in \`${quoted}\`` : ""}`,
    fix: fault.fix,
  };
}

/** The line (from 1), the column (from 1, in characters) and the whole text of the line at `offset`. */
export function lineOf(text: string, offset: number): { line: number; column: number; text: string } {
  const before = text.slice(0, offset);
  const start = before.lastIndexOf("\n") + 1;
  const end = text.indexOf("\n", offset);
  return {
    line: before.split("\n").length,
    column: [...text.slice(start, offset)].length + 1,
    text: text.slice(start, end < 0 ? text.length : end).replace(/\r$/, ""),
  };
}

const where = (text: string, at: number) => {
  const { line, column } = lineOf(text, at);
  return `line ${line}, column ${column}`;
};

/** The first syntax error in `text`, scanning as JSON (RFC 8259) is read; undefined when there is none. */
export function findFault(text: string): Fault | undefined {
  let i = 0;
  const fail = (at: number, problem: string, fix: string): never => {
    throw new FaultFound({ at, problem, fix });
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
    if (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*"))
      fail(i, "a comment: JSON has none", "remove the comment, or move what it says into a README");
  };
  /** Where each { and [ still open is, innermost last. */
  const opened: number[] = [];
  const unclosed = (what: string) => {
    const open = opened.at(-1);
    if (open === undefined) return fail(i, `the file ends where ${what} should be`, "finish what the file ends in");
    const close = text[open] === "{" ? "}" : "]";
    const problem = `the file ends before the ${close} that closes the ${text[open]} at ${where(text, open)}`;
    return fail(i, problem, `finish what the file ends in, and add the ${close}`);
  };
  const unexpected = (what: string) => {
    const c = text[i];
    if (c === undefined) return unclosed(what);
    if (c === "'") return fail(i, "text in single quotes", 'write text and names in double quotes: "like this"');
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))?.[0];
    if (word) {
      const fix =
        what === "a name"
          ? `put the name in double quotes: "${word}"`
          : `put text in double quotes ("${word}"); the only words JSON knows are true, false and null, in lowercase`;
      return fail(i, `${word} without double quotes`, fix);
    }
    return fail(i, `${JSON.stringify(c)} where ${what} should be`, "correct the JSON there");
  };

  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return string();
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (c !== undefined && /[-\d]/.test(c) && number.test(text)) {
      i = number.lastIndex;
      if (/[\w.]/.test(text[i] ?? "")) fail(i, "a number that JSON cannot read", "write it as 12, -3 or 4.5");
      return;
    }
    for (const word of ["true", "false", "null"])
      if (text.startsWith(word, i) && !/[\w$]/.test(text[i + word.length] ?? "")) {
        i += word.length;
        return;
      }
    unexpected("a value");
  };

  /** The items of an object or a list, separated by commas, up to `close`. */
  const items = (close: "}" | "]", item: () => void) => {
    const open = i;
    const closed = () => {
      i++;
      opened.pop();
    };
    opened.push(open);
    i++;
    space();
    if (text[i] === close) return closed();
    for (;;) {
      item();
      const end = i;
      space();
      if (text[i] === close) return closed();
      if (text[i] === ",") {
        const comma = i;
        i++;
        space();
        if (text[i] === close) {
          const what = close === "}" ? "field" : "item";
          return fail(
            comma,
            `a comma after the last ${what}`,
            `remove the comma at ${where(text, comma)}: JSON allows no comma after the last ${what}`,
          );
        }
        continue;
      }
      const other = close === "}" ? "]" : "}";
      if (text[i] === other) {
        const bracket = text[open]!;
        const problem = `${other} where ${close} should close the ${bracket} at ${where(text, open)}`;
        return fail(i, problem, `close each ${bracket} with ${close}, and each of the others with its own`);
      }
      if (i >= text.length) return unclosed("a comma");
      const problem = "a comma is missing between two items";
      return fail(end, problem, `add a comma at ${where(text, end)}, after the value before it`);
    }
  };

  const object = () =>
    items("}", () => {
      space();
      if (text[i] !== '"') unexpected("a name");
      string();
      space();
      if (text[i] !== ":") {
        const fix = 'write a colon between each name and its value: "name": value';
        if (text[i] === undefined) unexpected("a colon");
        fail(i, "a colon is missing after the name", fix);
      }
      i++;
      value();
    });

  const array = () => items("]", value);

  const string = () => {
    const open = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c === "\n" || c === "\r") {
        const fix = "close it with a double quote on the same line; a line break in text is written \\n";
        return fail(open, "text whose closing double quote is missing", fix);
      }
      if (c === '"') return void i++;
      if (c === "\\") {
        const escape = /^(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(text.slice(i + 1));
        if (!escape) {
          const fix = 'write a backslash as \\\\; the escapes JSON knows are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX';
          return fail(i, `the backslash escape \\${text[i + 1] ?? ""}`, fix);
        }
        i += 1 + escape[0].length;
        continue;
      }
      if (c < " ") return fail(i, "a tab or control character inside text", "write a tab as \\t, or remove it");
      i++;
    }
  };

  try {
    value();
    space();
    if (i < text.length) {
      const fix = "remove what follows the end of the JSON; several values go inside one [ ] or { }";
      fail(i, "more after the end of the JSON value", fix);
    }
  } catch (error) {
    if (error instanceof FaultFound) return error.fault;
    throw error;
  }
  return undefined;
}
