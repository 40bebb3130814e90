// An edition's template that fails to render, said as the author's problem:
// an unknown variable by name (or the empty CSV cell it is), anything else in
// the template engine's own words, at the line of the author's file.
import { chainMessages, uniqueProblems, type ContentProblem } from "../model/content-error.ts";
import { nearNames } from "../model/near-miss.ts";
import { plural } from "../model/words.ts";
import type { EditionData } from "./edition-pages.ts";

/** Problems said per file at most: a template made from data fails alike for many of its rows. */
export const SAID_PER_FILE = 5;

/**
 * The template problems of a build, for the author: each once (a page of every variant fails alike), at
 * most SAID_PER_FILE for a file, then how many more there are, in the order the pages were rendered.
 */
export function templateProblems(problems: ContentProblem[]): ContentProblem[] {
  const byFile = new Map<string, ContentProblem[]>();
  for (const p of uniqueProblems(problems)) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  return [...byFile].flatMap(([file, all]) => {
    const more = all.length - SAID_PER_FILE;
    if (more <= 0) return all;
    const problem = `and ${plural(more, "more problem")} like these, ${all.length} in all`;
    return [...all.slice(0, SAID_PER_FILE), { file, field: "", problem, fix: "correct the ones above first" }];
  });
}

/** Which row (or date of the rule) a template made from data was being rendered for. */
export const rendering = (edition: EditionData) => (edition.origin ? ` (rendering ${edition.origin})` : "");

const UNKNOWN_VARIABLE_FIX =
  "correct the name, or define it in the front matter or a data file; " +
  'for a value that may be missing write {{ x | default: "…" }} or {% if x %}…{% endif %} ' +
  '(docs/writing-publications.md: "Template variables")';

/**
 * A template error as the author's problem: an unknown variable by name (with the name meant, when `scope`, what
 * the template saw, has one near it), anything else in the engine's words.
 */
export function templateError(error: unknown, edition: EditionData, scope: object = {}): ContentProblem {
  const problem = templateProblem(error, edition.bodyLine);
  const unknown = /^undefined variable: ([^,]+)(.*)$/.exec(problem);
  if (unknown) {
    const [, name, place] = unknown;
    const cell = emptyCell(name!, place!, edition);
    if (cell) return cell;
    const where = place!.replace(/^, (.+)$/, " ($1)");
    const problem = `\`${name}\` is not defined${where}: not in the front matter, \`config\` or a data file`;
    return {
      file: edition.source,
      field: `{{ ${name} }}`,
      problem: problem + meant(name!, scope) + rendering(edition),
      fix: UNKNOWN_VARIABLE_FIX,
    };
  }
  const nothing = printsNothing(problem, edition, scope);
  if (nothing) return nothing;
  const fix =
    "correct the Liquid there; " + 'tags look like {% if config.lang == "fr" %}…{% endif %}, values like {{ title }}';
  return { file: edition.source, field: "template", problem: problem + rendering(edition), fix };
}

/**
 * Nunjucks's "attempted to output null or undefined value" (a post's, under strict variables: edition-engines.ts),
 * said as Liquid's unknown variable is: the `{{ … }}` at that place of the author's text, and the name in it that
 * has no value. Undefined when the problem is another, or the place holds no `{{`.
 */
function printsNothing(problem: string, edition: EditionData, scope: object): ContentProblem | undefined {
  const said = /^line (\d+), column (\d+): attempted to output null or undefined value/.exec(problem);
  if (!said) return undefined;
  const line = edition.body.split("\n")[Number(said[1]) - edition.bodyLine];
  const output = /^\{\{-?\s*(.*?)\s*-?\}\}/.exec(line?.slice(Number(said[2]) - 1) ?? "");
  if (!output) return undefined;
  const expression = output[1]!;
  const name = /^[\w$.[\]"']+/.exec(expression)?.[0] ?? expression;
  const where = ` (line ${said[1]}, column ${said[2]})`;
  const what = hasRoot(name, scope) ? "has no value" : "is not defined: not in the front matter or a data file";
  return {
    file: edition.source,
    field: `{{ ${expression} }}`,
    problem: `prints nothing${where}: \`${name}\` ${what}${meant(name, scope)}${rendering(edition)}`,
    fix:
      "correct the name, or give it a value in the front matter or a data file; for a value that may be missing " +
      'write {{ x | default("…") }} or {% if x %}…{% endif %}',
  };
}

/** Whether the first name of `name` (`a` of `a.b[0]`) is one the template saw. */
const hasRoot = (name: string, scope: object) => name.split(/[.[]/)[0]! in scope;

/**
 * "; did you mean `title`?" for a name that is a slip away from one the template saw: its first name among
 * `scope`'s, else its first missing key among the keys of the object it is looked up in (`metadata.auhtor`).
 */
function meant(name: string, scope: object): string {
  const keys = name.split(/[.[\]"']+/).filter(Boolean);
  let holder: unknown = scope;
  for (const [i, key] of keys.entries()) {
    if (holder === null || typeof holder !== "object") return "";
    if (!(key in holder)) {
      const near = nearNames(key, Object.keys(holder))[0];
      return near ? `; did you mean \`${[...keys.slice(0, i), near].join(".")}\`?` : "";
    }
    holder = (holder as Record<string, unknown>)[key];
  }
  return "";
}

/**
 * An unknown variable that is a CSV column left empty in the row being
 * rendered: the cell is what to fill (an empty cell is a missing value, as a
 * field left out of front matter is, so it never prints as nothing unasked).
 */
function emptyCell(name: string, place: string, edition: EditionData): ContentProblem | undefined {
  const column = name.split(/[.[]/)[0]!;
  if (!edition.origin || !edition.empty?.includes(column)) return undefined;
  const where = place.replace(/^, (.+)$/, " ($1)");
  return {
    file: edition.origin,
    field: column,
    problem: `the \`${column}\` cell is empty, and ${edition.source} prints it${where}`,
    fix:
      `fill the cell; if it may stay empty, write {% if ${column} %}…{% endif %} or ` +
      `{{ ${column} | default: "…" }} in ${edition.source}, or give \`${column}\` a default in its front matter ` +
      '("" in a cell is empty text on purpose; docs/data-and-recurring-editions.md: "Editions from data")',
  };
}

/** Nunjucks's place, over its message: "(unknown path) [Line 2, Column 5]\n  Error: …" (a post's language). */
const NUNJUCKS = /^(?:Template render error: )?\([^)\n]*\)(?: \[Line (\d+), Column (\d+)\])?\s*\n\s*/;

/**
 * The template engine's own words for what is wrong, at the line of the author's file
 * (not of the text after the front matter).
 */
function templateProblem(error: unknown, bodyLine: number): string {
  const messages = chainMessages(error, 8);
  // The innermost message that has a place (liquidjs wraps an unknown variable's error once more, without one).
  const place = (m: string) => /line:\d+, col:\d+/.test(m) || NUNJUCKS.test(m);
  const message = messages.findLast(place) ?? messages.at(-1) ?? String(error);
  const at = (line: number, col: string) => `line ${line + bodyLine - 1}, column ${col}`;
  const nunjucks = NUNJUCKS.exec(message);
  if (nunjucks) {
    const [said, line, col] = nunjucks;
    // Nunjucks counts lines from 0 when it runs a template ("Error: …"), from 1 when it parses one.
    const running = /^\w*Error: /.test(message.slice(said.length));
    const words = message.slice(said.length).replace(/^Error: /, "");
    return line ? `${at(Number(line) + (running ? 1 : 0), col!)}: ${words}` : words;
  }
  return message
    .replace(/, file:.*?(?=, line:|$)/, "")
    .replace(/line:(\d+), col:(\d+)/, (_, line: string, col: string) => at(Number(line), col));
}
