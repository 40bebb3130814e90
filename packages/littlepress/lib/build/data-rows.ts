// The rows of an edition's data file (content/<slug>/editions.csv, .json,
// .yaml): each row's fields and where it is, or the problem that keeps the
// file from being read. data-editions.ts makes editions of them.
import { parse as parseCsv } from "csv-parse/sync";
import { parse as parseYaml } from "yaml";
import type { ContentProblem } from "../model/content-error.ts";
import { plural } from "../model/words.ts";
import { parseJson } from "./json-file.ts";
import { readText } from "./text-file.ts";
import { yamlProblem } from "./yaml-errors.ts";

/** One row of a data file: its fields, and where it is ("content/x/editions.csv row 3 (line 4)"). */
export interface Row {
  fields: Record<string, unknown>;
  origin: string;
  /** Columns of a CSV row whose cells are empty (left out of `fields`). */
  empty?: string[];
}

/** A data file's rows; `file` with forward slashes, as problems name it. */
export function readRows(file: string, problems: ContentProblem[]): Row[] {
  const text = readText(file);
  if ("problem" in text) {
    problems.push(text.problem);
    return [];
  }
  const said = rowsOf(file, text.text);
  if ("problem" in said) {
    problems.push(said.problem);
    return [];
  }
  if (!said.rows.length)
    problems.push({ file, field: "", problem: "has no rows", fix: "add a row per edition, or remove the file" });
  return said.rows;
}

type Rows = { rows: Row[] } | { problem: ContentProblem };

/**
 * What each data file's text gave when it was last read: npm start reads every
 * data file at each save, and parsing a YAML file of a few hundred rows was a
 * twentieth of a save beside 1,000 editions. The same text gives the same rows.
 */
const lastRead = new Map<string, { text: string; said: Rows }>();

function rowsOf(file: string, text: string): Rows {
  const known = lastRead.get(file);
  if (known?.text === text) return known.said;
  const said = file.endsWith(".csv") ? csvRows(file, text) : listRows(file, text);
  lastRead.set(file, { text, said });
  return said;
}

/** What goes between a CSV file's columns, and its name in messages. */
const DELIMITERS = { ",": "comma", ";": "semicolon", "\t": "tab" } as const;
type Delimiter = keyof typeof DELIMITERS;

/**
 * The delimiter of a CSV file, as its header row shows it: a comma; else a
 * semicolon, as spreadsheets save "CSV" where the comma is the decimal mark;
 * else a tab (a sheet saved as tab-separated text, or copied and pasted).
 */
export function csvDelimiter(text: string): Delimiter {
  const header = /^\uFEFF?[\r\n]*([^\r\n]*)/.exec(text)![1]!; // the first line the parser reads
  const bare = header.replace(/"(?:[^"]|"")*"/g, ""); // a quoted name may hold anything
  return bare.includes(",") ? "," : bare.includes(";") ? ";" : bare.includes("\t") ? "\t" : ",";
}

const csvFix = (d: Delimiter) => {
  const header = ["date", "title", "word"].join(d === "\t" ? "<tab>" : d);
  return (
    `a header row names the columns (${header}); a value with a ${DELIMITERS[d]}, a quote or a line break ` +
    'goes in double quotes, a quote in it doubled: "say ""hi"""'
  );
};

/**
 * A CSV file's rows, by its header row (csv-parse: quoted values, doubled
 * quotes, line breaks in quotes, CRLF), separated by commas, semicolons or tabs (csvDelimiter).
 */
function csvRows(file: string, text: string): Rows {
  const delimiter = csvDelimiter(text);
  let records: { record: (string | undefined)[]; info: { bytes: number } }[];
  try {
    records = parseCsv(text, {
      ...{ bom: true, info: true, skip_empty_lines: true, delimiter },
      // An empty cell has no value, as a field left out of front matter; "" between quotes is empty text.
      cast: (value, context) => (value === "" && !context.quoting ? undefined : value),
    }) as unknown as typeof records;
  } catch (e) {
    const error = e as Error & { code?: string; lines?: number; record?: unknown[] };
    return { problem: { file, field: "", problem: `is not valid CSV: ${csvError(error)}`, fix: csvFix(delimiter) } };
  }
  const [header, ...data] = records;
  if (!header) return { rows: [] };
  const columns = header.record.map((c) => (c ?? "").trim());
  const unnamed = headerProblem(file, columns);
  if (unnamed) return { problem: unnamed };
  const lineAt = lineCounter(Buffer.from(text));
  let start = header.info.bytes;
  return {
    rows: data.map(({ record, info }, i) => {
      const fields = Object.fromEntries(columns.flatMap((c, j) => (record[j] === undefined ? [] : [[c, record[j]]])));
      const empty = columns.filter((c, j) => record[j] === undefined);
      const origin = `${file} row ${i + 1} (line ${lineAt(start)})`;
      start = info.bytes;
      return { fields, origin, ...(empty.length && { empty }) };
    }),
  };
}

/** A header row that names a column twice, or leaves one unnamed. */
function headerProblem(file: string, columns: string[]): ContentProblem | undefined {
  const bad = columns.findIndex((c, i) => !c || columns.indexOf(c) !== i || c === "__proto__");
  if (bad < 0) return undefined;
  const problem = columns[bad]
    ? `the header names the column "${columns[bad]}" twice`
    : `column ${bad + 1} of the header row has no name`;
  return { file, field: "header", problem, fix: "give every column its own name in the first row" };
}

/**
 * The line of the text (`bytes`) a record starting at an offset is on, asked in order of offsets: lines are
 * counted as the rows go, from where the last count stopped (a 10,000-row file is read once).
 */
function lineCounter(bytes: Buffer): (offset: number) => number {
  let counted = 0;
  let line = 1;
  return (offset) => {
    // Blank lines before a record are skipped by the parser: the record starts past them.
    while (bytes[offset] === 0x0d || bytes[offset] === 0x0a) offset++;
    for (let i = bytes.indexOf(0x0a, counted); i >= 0 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
    counted = Math.max(counted, offset);
    return line;
  };
}

/** csv-parse's message, or for a row of more or fewer values than the header names, the two counts. */
function csvError(error: Error & { code?: string; lines?: number; record?: unknown[] }): string {
  const { code, lines, record } = error;
  if (code !== "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH" || !lines || !record) return error.message;
  const columns = Number(/expect (\d+)/.exec(error.message)?.[1]);
  return `line ${lines} has ${plural(record.length, "value")}, and the header names ${plural(columns, "column")}`;
}

/** A JSON or YAML file's rows: a list of objects. */
function listRows(file: string, text: string): Rows {
  const json = file.endsWith(".json");
  let list: unknown;
  if (json) {
    const parsed = parseJson(file, text);
    if ("problem" in parsed) return parsed;
    list = parsed.value;
  } else
    try {
      // YAML 1.2 core schema: `date: 2026-02-30` stays the text the author wrote, as in front matter.
      list = parseYaml(text, { schema: "core" });
    } catch (e) {
      const { said, fix } = yamlProblem(e, text, 0);
      return {
        problem: { file, field: "", problem: `is not valid YAML at ${said}`, fix: fix ?? "correct the YAML syntax" },
      };
    }
  const example = json ? '[{"date": "2026-11-22", "title": "…"}, …]' : '- date: 2026-11-22\n  title: "…"';
  if (!Array.isArray(list))
    return {
      problem: { file, field: "", problem: "is not a list of rows", fix: `write one object per edition: ${example}` },
    };
  const rows: Row[] = [];
  for (const [i, item] of list.entries()) {
    const origin = `${file} row ${i + 1}`;
    if (item === null || typeof item !== "object" || Array.isArray(item))
      return {
        problem: { file: origin, field: "", problem: "is not a set of fields", fix: `write it as ${example}` },
      };
    rows.push({ fields: item as Record<string, unknown>, origin });
  }
  return { rows };
}
