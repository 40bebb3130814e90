// Editions from data: one template, content/<slug>/edition.md, rendered once
// per row of content/<slug>/editions.csv, editions.json or editions.yaml, and
// once per date of a recurring rule (publication.json's `editions.every`).
// Each row carries its key the way front matter does (`number`, `date` or
// `hour`); all its fields are in scope in the template, over the template's
// own front matter.
import { existsSync } from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../model/content-error.ts";
import type { EditionKey, EditionsBy } from "../model/edition-key.ts";
import { KEY_FIELD, keyFromFrontMatter, keyValueOfText, slippedKeyName } from "../model/front-matter-key.ts";
import type { Publication } from "../model/publication.ts";
import { recurringKeys, type Recurrence } from "../model/recurrence.ts";
import type { IsoDate } from "../model/dates.ts";
import { splitFrontMatter, type FrontMatterSplit } from "./front-matter.ts";
import { readText } from "./text-file.ts";
import { readRows } from "./data-rows.ts";

/** The template every data row and recurring date is rendered with. */
export const TEMPLATE_FILE = "edition.md";
/** The data files, in the order their rows are read. */
export const DATA_FILES = ["editions.csv", "editions.json", "editions.yaml", "editions.yml"] as const;

/** An edition made from the template: its key, its data, and the row (or rule) it comes from. */
export interface DataEdition extends FrontMatterSplit {
  key: EditionKey;
  /** The template, with forward slashes: what template errors and print warnings name. */
  file: string;
  /**
   * Where its key comes from: "content/x/editions.csv row 3 (line 4)", or
   * "content/x/publication.json editions.every, 2026-11-23".
   */
  origin: string;
  /** The CSV columns its row leaves empty: missing from `data`, as a field missing from front matter is. */
  empty?: string[];
}

/** The editions a publication makes from its template: from data rows, and from its recurring rule. */
export interface DataEditions {
  rows: DataEdition[];
  /** Dates (or hours) of the rule; a Markdown edition or a row for the same key replaces the rule's. */
  recurring: DataEdition[];
}

/** Whether a file in a publication's folder is one of its data files. */
export const isDataFile = (name: string) => (DATA_FILES as readonly string[]).includes(name);

const slash = (file: string) => file.split(path.sep).join("/");

/**
 * Reads a publication's data rows and its rule into editions of its template.
 * `today` is the build date (the start of an open-ended rule's window).
 */
export function dataEditions(pub: Publication, dir: string, today: IsoDate, problems: ContentProblem[]): DataEditions {
  const templateFile = path.join(dir, TEMPLATE_FILE);
  const dataFiles = DATA_FILES.map((name) => path.join(dir, name)).filter((f) => existsSync(f));
  const rule = pub.editions.every === undefined ? undefined : (pub.editions as Recurrence);
  const none: DataEditions = { rows: [], recurring: [] };
  if (!existsSync(templateFile)) {
    problems.push(...noTemplate(templateFile, dataFiles, rule !== undefined, dir));
    return none;
  }
  const template = readTemplate(templateFile, problems);
  if (!template) return none;
  const unusable = templateProblem(template, slash(templateFile), dataFiles.length > 0 || rule !== undefined);
  if (unusable) {
    problems.push(unusable);
    return none;
  }
  const field = KEY_FIELD[pub.editions.by];
  const made: Made = (key, row, origin, empty) => ({
    ...template,
    data: { ...template.data, ...row },
    key,
    file: slash(templateFile),
    origin,
    ...(empty?.length && { empty }),
  });
  const rows = dataFiles.flatMap((file) => rowEditions(pub.editions.by, slash(file), made, problems));
  if (!rule) return { rows, recurring: [] };
  const publicationFile = slash(path.join(dir, "publication.json"));
  return { rows, recurring: ruleEditions(rule, today, { publicationFile, field, made }, problems) };
}

/** An edition of the template: its key, its row's fields (or the rule's key), where it comes from. */
type Made = (key: EditionKey, row: Record<string, unknown>, origin: string, empty?: string[]) => DataEdition;

/** Data files, or a rule, and no template to render them with: each said, with the file to create. */
function noTemplate(templateFile: string, dataFiles: string[], rule: boolean, dir: string): ContentProblem[] {
  const problems = dataFiles.map((file) => ({
    file: slash(file),
    field: "",
    problem: `has rows, but there is no ${TEMPLATE_FILE} beside it to render them with`,
    fix:
      `create ${slash(templateFile)}: the Markdown of one edition, with {{ title }} and the other columns ` +
      '(docs/data-and-recurring-editions.md: "Editions from data")',
  }));
  if (rule) {
    const problem = `"every" renders ${TEMPLATE_FILE} for each date, and there is no ${slash(templateFile)}`;
    const fix =
      `create ${slash(templateFile)}: the Markdown of one edition, with {{ day.weekday }} and the like ` +
      '(docs/data-and-recurring-editions.md: "Recurring editions")';
    problems.push({ file: slash(path.join(dir, "publication.json")), field: "editions.every", problem, fix });
  }
  return problems;
}

/** What keeps a template from being rendered: push in its front matter, or nothing to render it for. */
function templateProblem(template: FrontMatterSplit, file: string, hasEditions: boolean): ContentProblem | undefined {
  if (template.data.push !== undefined) {
    // The template's front matter is every row's: push there would print every edition at once.
    const fix = "mark the one edition to push in its row instead: a push column, true on that row";
    return { file, field: "push", problem: "push would mark every edition", fix };
  }
  if (hasEditions) return undefined;
  const problem =
    `is rendered once per row of ${DATA_FILES.slice(0, 3).join(", ")} or per date of a recurring rule, ` +
    "and this publication has neither";
  const fix =
    'add content/<slug>/editions.csv with a header row (date,title,…), or "every" in publication.json ' +
    '(docs/data-and-recurring-editions.md: "Editions from data")';
  return { file, field: "", problem, fix };
}

/** The editions of one data file's rows; a row whose key is missing or wrong is a problem instead. */
function rowEditions(by: EditionsBy, file: string, made: Made, problems: ContentProblem[]): DataEdition[] {
  const field = KEY_FIELD[by];
  const editions: DataEdition[] = [];
  for (const row of readRows(file, problems)) {
    const raw = row.fields[field];
    const value = keyValueOfText(by, raw); // a CSV cell is text: "3" is the number 3 there
    const key = keyFromFrontMatter(by, value, () => nextNumber(by, editions.at(-1)?.key));
    if ("problem" in key) {
      const fix = key.fix.replace("in the front matter as", "in the row, as in");
      // A misspelt column (`nubmer`) is the name meant, as a misspelt front-matter key is (near-miss.ts).
      const near = raw === undefined ? slippedKeyName(row.fields, field) : undefined;
      const problem = near ? `has a column \`${near}\`, and no \`${field}\`: did you mean \`${field}\`?` : key.problem;
      problems.push({ file: row.origin, field, problem, fix: near ? `rename the column \`${field}\`` : fix });
      continue;
    }
    editions.push(made(key.key, { ...row.fields, [field]: value }, row.origin, row.empty));
  }
  return editions;
}

/** A serial's rows count up: the row after number 4 most likely means 5 (dates may step by any interval). */
function nextNumber(by: EditionsBy, previous: EditionKey | undefined): EditionKey | undefined {
  if (by !== "delivery_count") return undefined;
  return previous === undefined ? "0" : String(Number(previous) + 1);
}

/** The editions of a recurring rule, one per key it gives; a rule that gives none is a problem. */
function ruleEditions(
  rule: Recurrence,
  today: IsoDate,
  { publicationFile, field, made }: { publicationFile: string; field: string; made: Made },
  problems: ContentProblem[],
): DataEdition[] {
  const keys = recurringKeys(rule, today);
  if (!keys.length)
    problems.push({
      file: publicationFile,
      field: "editions.until",
      problem:
        rule.from === undefined
          ? `${rule.until} is before the build date, ${today}, and without "from" the rule starts at the build date`
          : `the rule names no date from ${rule.from} to ${rule.until}`,
      fix: 'add "from", the date of the first edition, or move "until" later',
    });
  // The date is named: a template error says which of the rule's editions it was rendering.
  return keys.map((key) => made(key, { [field]: key }, `${publicationFile} editions.every, ${key}`));
}

function readTemplate(file: string, problems: ContentProblem[]): FrontMatterSplit | undefined {
  const text = readText(file);
  if ("problem" in text) {
    problems.push(text.problem);
    return undefined;
  }
  const front = splitFrontMatter(text.text);
  if ("error" in front) {
    problems.push({ file: slash(file), field: "front matter", problem: front.error, fix: front.fix });
    return undefined;
  }
  const pagination = paginationProblem(slash(file), front.data);
  if (pagination) problems.push(pagination);
  return pagination ? undefined : front;
}

/**
 * Eleventy's pagination front matter, written by an author who knows Eleventy:
 * littlepress makes one edition per row itself, so it says where rows go
 * (instead of a key problem about "{{ row.date }}").
 */
export function paginationProblem(file: string, data: Record<string, unknown>): ContentProblem | undefined {
  if (!("pagination" in data)) return undefined;
  return {
    file,
    field: "pagination",
    problem: "Eleventy pagination does not make editions here: littlepress renders one edition per row itself",
    fix:
      "put the rows in content/<slug>/editions.csv (or .json, .yaml), one column per field " +
      "and a `date` (or `number`, `hour`) column, and the Markdown in content/<slug>/edition.md " +
      'without pagination; the columns are its variables (docs/data-and-recurring-editions.md: "Editions from data")',
  };
}
