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
  try {
    new FaultScanner(text).document();
  } catch (error) {
    if (error instanceof FaultFound) return error.fault;
    throw error;
  }
  return undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A scan of one text as JSON, stopping at its first fault (thrown as FaultFound). */
class FaultScanner {
  /** Where the scan is. */
  private i = 0;
  /** Where each { and [ still open is, innermost last. */
  private readonly opened: number[] = [];

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.space();
    if (this.i < this.text.length) {
      const fix = "remove what follows the end of the JSON; several values go inside one [ ] or { }";
      this.fail(this.i, "more after the end of the JSON value", fix);
    }
  }

  private fail(at: number, problem: string, fix: string): never {
    throw new FaultFound({ at, problem, fix });
  }

  private space(): void {
    const { text } = this;
    while (this.i < text.length && " \t\n\r".includes(text[this.i]!)) this.i++;
    if (text[this.i] === "/" && (text[this.i + 1] === "/" || text[this.i + 1] === "*"))
      this.fail(this.i, "a comment: JSON has none", "remove the comment, or move what it says into a README");
  }

  private unclosed(what: string): never {
    const open = this.opened.at(-1);
    if (open === undefined) this.fail(this.i, `the file ends where ${what} should be`, "finish what the file ends in");
    const close = this.text[open] === "{" ? "}" : "]";
    const problem = `the file ends before the ${close} that closes the ${this.text[open]} at ${where(this.text, open)}`;
    return this.fail(this.i, problem, `finish what the file ends in, and add the ${close}`);
  }

  private unexpected(what: string): never {
    const c = this.text[this.i];
    if (c === undefined) return this.unclosed(what);
    if (c === "'") this.fail(this.i, "text in single quotes", 'write text and names in double quotes: "like this"');
    const word = /^[A-Za-z_$][\w$]*/.exec(this.text.slice(this.i))?.[0];
    if (word) {
      const fix =
        what === "a name"
          ? `put the name in double quotes: "${word}"`
          : `put text in double quotes ("${word}"); the only words JSON knows are true, false and null, in lowercase`;
      this.fail(this.i, `${word} without double quotes`, fix);
    }
    return this.fail(this.i, `${JSON.stringify(c)} where ${what} should be`, "correct the JSON there");
  }

  private value(): void {
    this.space();
    const { text } = this;
    const c = text[this.i];
    if (c === "{") return this.object();
    if (c === "[") return this.items("]", () => this.value());
    if (c === '"') return this.string();
    NUMBER.lastIndex = this.i;
    if (c !== undefined && /[-\d]/.test(c) && NUMBER.test(text)) {
      this.i = NUMBER.lastIndex;
      if (/[\w.]/.test(text[this.i] ?? ""))
        this.fail(this.i, "a number that JSON cannot read", "write it as 12, -3 or 4.5");
      return;
    }
    for (const word of ["true", "false", "null"])
      if (text.startsWith(word, this.i) && !/[\w$]/.test(text[this.i + word.length] ?? "")) {
        this.i += word.length;
        return;
      }
    this.unexpected("a value");
  }

  /** The items of an object or a list, separated by commas, up to `close`. */
  private items(close: "}" | "]", item: () => void): void {
    const open = this.i;
    this.opened.push(open);
    this.i++;
    this.space();
    while (this.text[this.i] !== close) {
      item();
      if (this.itemsEnd(close, open)) return;
    }
    this.i++;
    this.opened.pop();
  }

  /**
   * After an item: true at `close` (and past it), false past a comma before another item; any other text
   * is the fault it is (a comma after the last item, the other bracket, a missing comma).
   */
  private itemsEnd(close: "}" | "]", open: number): boolean {
    const end = this.i;
    this.space();
    const c = this.text[this.i];
    if (c === close) {
      this.i++;
      this.opened.pop();
      return true;
    }
    if (c === ",") {
      const comma = this.i++;
      this.space();
      if (this.text[this.i] !== close) return false;
      const what = close === "}" ? "field" : "item";
      const fix = `remove the comma at ${where(this.text, comma)}: JSON allows no comma after the last ${what}`;
      this.fail(comma, `a comma after the last ${what}`, fix);
    }
    const other = close === "}" ? "]" : "}";
    if (c === other) {
      const bracket = this.text[open]!;
      const problem = `${other} where ${close} should close the ${bracket} at ${where(this.text, open)}`;
      this.fail(this.i, problem, `close each ${bracket} with ${close}, and each of the others with its own`);
    }
    if (this.i >= this.text.length) this.unclosed("a comma");
    return this.fail(
      end,
      "a comma is missing between two items",
      `add a comma at ${where(this.text, end)}, after the value before it`,
    );
  }

  private object(): void {
    this.items("}", () => {
      this.space();
      if (this.text[this.i] !== '"') this.unexpected("a name");
      this.string();
      this.space();
      if (this.text[this.i] !== ":") {
        const fix = 'write a colon between each name and its value: "name": value';
        if (this.text[this.i] === undefined) this.unexpected("a colon");
        this.fail(this.i, "a colon is missing after the name", fix);
      }
      this.i++;
      this.value();
    });
  }

  private string(): void {
    const open = this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined || c === "\n" || c === "\r") {
        const fix = "close it with a double quote on the same line; a line break in text is written \\n";
        this.fail(open, "text whose closing double quote is missing", fix);
      }
      if (c === '"') return void this.i++;
      if (c === "\\") {
        const escape = /^(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(this.text.slice(this.i + 1));
        if (!escape) {
          const fix = 'write a backslash as \\\\; the escapes JSON knows are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX';
          this.fail(this.i, `the backslash escape \\${this.text[this.i + 1] ?? ""}`, fix);
        }
        this.i += 1 + escape[0].length;
        continue;
      }
      if (c < " ") this.fail(this.i, "a tab or control character inside text", "write a tab as \\t, or remove it");
      this.i++;
    }
  }
}
