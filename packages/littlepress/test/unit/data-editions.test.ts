// Reading editions from data files and recurring rules: what loadSite makes of
// them, and how it reports their mistakes.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { csvDelimiter } from "../../lib/build/data-rows.ts";
import { loadSite } from "../../lib/build/site.ts";
import type { ContentProblem } from "../../lib/model/content-error.ts";
import { contentFolders, md, problemsOf, pub } from "../helpers/content-folder.ts";

const folders = contentFolders("unit-data-");
afterAll(folders.remove);
const { content } = folders;

const TEMPLATE = "# {{ title }}\n";
const BAD_EVERY =
  'must be "day", "weekday", "hour" or a list of days (sunday, monday, tuesday, ' +
  "wednesday, thursday, friday, saturday)";
const only = (dir: string, today?: string) => loadSite(dir, today ? { today } : {}).publications[0]!;
const keys = (dir: string, today?: string) => only(dir, today).editions.list.map((e) => e.key);
const rel = (dir: string, file: string) => path.relative(dir, file).split(path.sep).join("/");

describe("rows of a data file", () => {
  it("reads each format, row fields over the template's front matter", () => {
    for (const [name, rows] of [
      ["editions.csv", "number,title\n1,Two\n0,One\n"],
      [
        "editions.json",
        JSON.stringify([
          { number: 1, title: "Two" },
          { number: 0, title: "One" },
        ]),
      ],
      ["editions.yaml", "- number: 1\n  title: Two\n- number: 0\n  title: One\n"],
      ["editions.yml", "- {number: 1, title: Two}\n- {number: 0, title: One}\n"],
    ] as [string, string][]) {
      const dir = content({
        "s/publication.json": pub("delivery_count"),
        [`s/${name}`]: rows,
        "s/edition.md": md("title: Untitled\nlang: fr", TEMPLATE),
      });
      const list = only(dir).editions.list;
      expect(
        list.map((e) => [e.key, e.data.title, e.data.lang]),
        name,
      ).toEqual([
        ["0", "One", "fr"],
        ["1", "Two", "fr"],
      ]);
      expect(rel(dir, list[0]!.file)).toBe("s/edition.md");
      expect(list[0]!.origin).toBe(
        `${dir.split(path.sep).join("/")}/s/${name} row 2${name.endsWith(".csv") ? " (line 3)" : ""}`,
      );
      expect(list[0]!.body).toBe(`${TEMPLATE}\n`);
      // The number from a CSV cell is a number in the template, as in front matter.
      expect(list[0]!.data.number).toBe(0);
    }
  });

  it("parses CSV as CSV: quoted commas, doubled quotes, line breaks in quotes, a BOM and CRLF", () => {
    const csv = '\uFEFFdate,text,n\r\n2026-01-01,"a, b","say ""hi"""\r\n2026-01-02,"two\r\nlines",\r\n';
    const dir = content({ "s/publication.json": pub("local_date"), "s/editions.csv": csv, "s/edition.md": TEMPLATE });
    const list = only(dir).editions.list;
    expect(list.map((e) => e.data)).toEqual([
      { date: "2026-01-01", text: "a, b", n: 'say "hi"' },
      { date: "2026-01-02", text: "two\r\nlines" },
    ]);
  });

  it("reads a CSV separated by semicolons or tabs, as spreadsheets save it, by its header row", () => {
    const semicolons =
      'date;title;exercise\n2026-11-23;Monday;Chin tucks, slow\n\n2026-11-24;"Tuesday;later";"Neck, ""rolls"""\n';
    const tabs =
      "date\ttitle\texercise\r\n2026-11-23\tMonday\tChin tucks, slow\r\n\r\n" +
      '2026-11-24\t"Tuesday\tlater"\t"Neck, ""rolls"""\r\n';
    for (const [d, csv] of [
      [";", semicolons],
      ["\t", tabs],
    ] as const) {
      const dir = content({ "s/publication.json": pub("local_date"), "s/editions.csv": csv, "s/edition.md": TEMPLATE });
      const list = only(dir).editions.list;
      expect(
        list.map((e) => e.data),
        JSON.stringify(d),
      ).toEqual([
        { date: "2026-11-23", title: "Monday", exercise: "Chin tucks, slow" },
        { date: "2026-11-24", title: `Tuesday${d}later`, exercise: 'Neck, "rolls"' },
      ]);
      expect(list[1]!.origin).toMatch(/editions\.csv row 2 \(line 4\)$/);
    }
    expect(csvDelimiter("\uFEFFdate;title\n")).toBe(";");
    expect(csvDelimiter("\n\ndate\ttitle\n")).toBe("\t");
    // A header with a comma is comma-separated, whatever its names or rows hold.
    expect(csvDelimiter('date,"a;b"\n1;2\n')).toBe(",");
    expect(csvDelimiter('"a,b";c\n')).toBe(";");
    expect(csvDelimiter("date\n2026-01-01\n")).toBe(",");
  });

  it('leaves an empty cell out of the row, as a field left out of front matter, and keeps "" as empty text', () => {
    const csv = 'date,exercise,reps,note\n2026-11-23,Chin tucks,,\n2026-11-24,,10,""\n';
    const template = md("note: Breathe", TEMPLATE);
    const dir = content({ "s/publication.json": pub("local_date"), "s/editions.csv": csv, "s/edition.md": template });
    const list = only(dir).editions.list;
    expect(list.map((e) => e.data)).toEqual([
      { note: "Breathe", date: "2026-11-23", exercise: "Chin tucks" },
      { note: "", date: "2026-11-24", reps: "10" },
    ]);
    expect(list.map((e) => e.empty)).toEqual([["reps", "note"], ["exercise"]]);
    // A key column's empty cell is a missing key.
    const keyless = content({
      "s/publication.json": pub("local_date"),
      "s/editions.csv": "date,title\n,Untitled\n",
      "s/edition.md": TEMPLATE,
    });
    expect(problemsOf(keyless).map((p) => [p.file.replace(/.*\//, ""), p.field, p.problem])).toEqual([
      [
        "editions.csv row 1 (line 2)",
        "date",
        "the edition has no `date` (this publication's editions are keyed by local_date)",
      ],
    ]);
  });

  it("mixes rows of several files with Markdown editions", () => {
    const dir = content({
      "s/publication.json": pub("utc_date"),
      "s/editions.csv": "date\n2026-01-03\n",
      "s/editions.json": [{ date: "2026-01-01" }],
      "s/editions/b.md": md("date: 2026-01-02"),
      "s/edition.md": TEMPLATE,
    });
    expect(keys(dir)).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
  });

  it("fails on two editions with one key, naming both places: file and row, and file", () => {
    const csv = "date,title\n2026-01-01,a\n\n2026-01-02,b\n2026-01-01,c\n";
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions.csv": csv,
      "s/editions.yaml": "- date: 2026-01-02\n",
      "s/editions/x.md": md("date: 2026-01-02"),
      "s/edition.md": TEMPLATE,
    });
    const problems = problemsOf(dir);
    expect(
      problems.map((p) => [rel(dir, p.file.replace(/ row.*/, "")), p.field, p.problem.replace(dir + "/", "")]),
    ).toEqual([
      ["s/editions.csv", "date", "2026-01-02 is also the key of s/editions/x.md"],
      ["s/editions.csv", "date", "2026-01-01 is also the key of s/editions.csv row 1 (line 2)"],
      ["s/editions.yaml", "date", "2026-01-02 is also the key of s/editions/x.md"],
    ]);
    // The blank line is skipped, and counted in the line numbers.
    expect(problems[0]!.file).toMatch(/editions\.csv row 2 \(line 4\)$/);
    expect(problems[1]!.file).toMatch(/editions\.csv row 3 \(line 5\)$/);
    expect(problems[2]!.file).toMatch(/editions\.yaml row 1$/);
  });

  it("fails on a bad key, naming file, row and field", () => {
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions.json": [{ date: "2026-01-01" }, { date: "2026-02-30" }, { title: "no date" }, { date: 20260101 }],
      "s/edition.md": TEMPLATE,
    });
    const problems = problemsOf(dir);
    expect(problems.map((p) => [p.file.split(" ").slice(1).join(" "), p.field])).toEqual([
      ["row 2", "date"],
      ["row 3", "date"],
      ["row 4", "date"],
    ]);
    expect(problems[0]!.problem).toBe("`date` 2026-02-30 is not a real calendar date");
    expect(problems[1]!.problem).toMatch(/has no `date`/);
    expect(problems[2]!.problem).toBe("`date` must look like 2026-11-22, got 20260101");
    expect(problems[2]!.fix).toBe("write the key in the row, as in `date: 2026-11-22`");
  });

  it("reports a CSV that is not CSV, a header with a repeated or empty column, and rows that are not objects", () => {
    const dir = content({
      "a/publication.json": pub("local_date"),
      "a/editions.csv": 'date,title\n2026-01-01,"unclosed\n',
      "a/edition.md": TEMPLATE,
      "b/publication.json": pub("local_date"),
      "b/editions.csv": "date,title,title\n2026-01-01,a,b\n",
      "b/edition.md": TEMPLATE,
      "c/publication.json": pub("local_date"),
      "c/editions.csv": "date,,x\n2026-01-01,a,b\n",
      "c/edition.md": TEMPLATE,
      "d/publication.json": pub("local_date"),
      "d/editions.json": [{ date: "2026-01-01" }, "2026-01-02"],
      "d/edition.md": TEMPLATE,
      "e/publication.json": pub("local_date"),
      "e/editions.yaml": "date: 2026-01-01\n",
      "e/edition.md": TEMPLATE,
      "f/publication.json": pub("local_date"),
      "f/editions.csv": "date,title\n2026-01-01,a,extra\n",
      "f/edition.md": TEMPLATE,
      "g/publication.json": pub("local_date"),
      "g/editions.yaml": "- date: 2026-01-01\n  title: Part 4: The Bell\n",
      "g/edition.md": TEMPLATE,
    });
    const problems = problemsOf(dir);
    const said: Record<string, ContentProblem> = Object.fromEntries(
      problems.map((p) => [rel(dir, p.file).split("/")[0]!, p]),
    );
    expect(said.a!.problem).toMatch(/^is not valid CSV: Quote Not Closed/);
    expect(said.a!.fix).toMatch(/double quotes/);
    expect(said.b).toMatchObject({ field: "header", problem: 'the header names the column "title" twice' });
    expect(said.c).toMatchObject({ field: "header", problem: "column 2 of the header row has no name" });
    expect(said.d).toMatchObject({ problem: "is not a set of fields" });
    expect(said.d!.file).toMatch(/editions\.json row 2$/);
    expect(said.e).toMatchObject({ problem: "is not a list of rows" });
    expect(said.f!.problem).toBe("is not valid CSV: line 2 has 3 values, and the header names 2 columns");
    expect(said.f!.fix).toMatch(/^a header row names the columns \(date,title,word\); a value with a comma, /);
    expect(said.g!.problem).toMatch(/^is not valid YAML at line 2, column 10: Nested mappings/);
    expect(said.g!.fix).toMatch(/^quote the value: title: "Part 4: The Bell" /);
    expect(problems).toHaveLength(7);
  });

  it("answers a misspelt key column with the name meant (`nubmer` for `number`)", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions.csv": "nubmer,title\n0,One\n",
      "s/edition.md": TEMPLATE,
    });
    expect(problemsOf(dir)).toEqual([
      expect.objectContaining({
        field: "number",
        problem: "has a column `nubmer`, and no `number`: did you mean `number`?",
        fix: "rename the column `number`",
      }),
    ]);
  });

  it("fixes a serial row's missing or wrong number with the one after the row before it", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions.csv": "number,title\n,Zero\n1,One\n2,Two\n,Three\nthree,Four\n",
      "s/edition.md": TEMPLATE,
    });
    expect(problemsOf(dir).map((p) => [p.file.split(" ").slice(1).join(" "), p.fix])).toEqual([
      ["row 1 (line 2)", "write the key in the row, as in `number: 0`"],
      ["row 4 (line 5)", "write the key in the row, as in `number: 3`"],
      ["row 5 (line 6)", "write the key in the row, as in `number: 3` (0 is the first edition)"],
    ]);
  });

  it("says which separator a CSV's fix is about: a semicolon file's value with a semicolon goes in quotes", () => {
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions.csv": "date;title\n2026-01-01;Chin tucks; slow\n",
      "s/edition.md": TEMPLATE,
    });
    const [problem] = problemsOf(dir);
    expect(problem!.problem).toBe("is not valid CSV: line 2 has 3 values, and the header names 2 columns");
    expect(problem!.fix).toMatch(/^a header row names the columns \(date;title;word\); a value with a semicolon, /);
  });

  it("asks for the template when there are rows, and for rows when there is a template", () => {
    const dir = content({
      "a/publication.json": pub("local_date"),
      "a/editions.csv": "date\n2026-01-01\n",
      "b/publication.json": pub("local_date"),
      "b/edition.md": TEMPLATE,
      "c/publication.json": pub("local_date"),
      "c/editions.csv": "date,title\n",
      "c/edition.md": TEMPLATE,
    });
    const problems = problemsOf(dir);
    expect(problems.map((p) => [rel(dir, p.file), p.problem])).toEqual([
      ["a/editions.csv", "has rows, but there is no edition.md beside it to render them with"],
      [
        "b/edition.md",
        "is rendered once per row of editions.csv, editions.json, editions.yaml or per date of a recurring rule, " +
          "and this publication has neither",
      ],
      ["c/editions.csv", "has no rows"],
    ]);
  });

  it("explains Eleventy pagination front matter instead of a bad key", () => {
    const paginated = md('pagination:\n  data: haiku\n  size: 1\n  alias: h\ndate: "{{ h.date }}"');
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions/haiku.md": paginated,
      "t/publication.json": pub("local_date"),
      "t/editions.csv": "date\n2026-01-01\n",
      "t/edition.md": paginated,
    });
    const problems = problemsOf(dir);
    expect(problems.map((p) => [rel(dir, p.file), p.field])).toEqual([
      ["s/editions/haiku.md", "pagination"],
      ["t/edition.md", "pagination"],
    ]);
    expect(problems[0]!.problem).toMatch(/Eleventy pagination does not make editions here/);
    expect(problems[0]!.fix).toMatch(/editions\.csv .*\/edition\.md/);
    expect(problems.some((p) => p.problem.includes("must look like"))).toBe(false);
  });

  it("points a data file in the editions folder to where rows go", () => {
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions/haiku.csv": "date\n2026-01-01\n",
      "s/editions/a.md": md("date: 2026-01-01"),
    });
    expect(problemsOf(dir)).toEqual([
      expect.objectContaining({
        problem: expect.stringMatching(/not an edition/),
        fix: expect.stringMatching(/editions\.csv .*edition\.md/),
      }),
    ]);
  });
});

describe("recurring editions", () => {
  const weekly = (editions: object, files: Record<string, string> = {}) =>
    content({ "s/publication.json": pub("local_date", { editions }), "s/edition.md": TEMPLATE, ...files });

  it("renders the template for each date the rule names, from `from` to `until`", () => {
    const every = (rule: unknown) =>
      keys(weekly({ by: "local_date", every: rule, from: "2026-11-20", until: "2026-11-30" }));
    expect(every("day")).toHaveLength(11);
    expect(every("weekday")).toEqual([
      ...["2026-11-20", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30"],
    ]);
    expect(every(["monday", "thursday"])).toEqual(["2026-11-23", "2026-11-26", "2026-11-30"]);
    expect(every(["sunday"])).toEqual(["2026-11-22", "2026-11-29"]);
  });

  it("rolls forward from the build date without `until`: 60 days, or `ahead`", () => {
    const open = weekly({ by: "local_date", every: "day" });
    expect(keys(open, "2026-11-23")).toHaveLength(61);
    expect(keys(open, "2026-11-23").at(0)).toBe("2026-11-23");
    expect(keys(open, "2026-11-23").at(-1)).toBe("2027-01-22");
    expect(keys(open, "2027-06-01").at(0)).toBe("2027-06-01");
    const ahead = weekly({ by: "local_date", every: "weekday", from: "2026-01-01", ahead: 3 });
    expect(keys(ahead, "2026-01-09")).toEqual([
      ...["2026-01-01", "2026-01-02", "2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08"],
      ...["2026-01-09", "2026-01-12"],
    ]);
  });

  it("builds the first `ahead` days of a series that starts after the build", () => {
    const later = weekly({ by: "local_date", every: "day", from: "2027-06-01", ahead: 2 });
    expect(keys(later, "2026-11-23")).toEqual(["2027-06-01", "2027-06-02", "2027-06-03"]);
  });

  it("says so when a rule has no date at all", () => {
    const past = weekly({ by: "local_date", every: "day", until: "2026-01-31" });
    expect(problemsOf(past, { today: "2026-11-23" })).toEqual([
      expect.objectContaining({
        field: "editions.until",
        problem:
          '2026-01-31 is before the build date, 2026-11-23, and without "from" the rule starts at the build date',
      }),
    ]);
    const none = weekly({ by: "local_date", every: ["monday"], from: "2026-11-24", until: "2026-11-25" });
    expect(problemsOf(none)).toEqual([
      expect.objectContaining({ problem: "the rule names no date from 2026-11-24 to 2026-11-25" }),
    ]);
  });

  it("has February 29th in 2028 and not in 2027", () => {
    const leap = keys(weekly({ by: "local_date", every: "day", from: "2027-02-28", until: "2027-03-01" }));
    expect(leap).toEqual(["2027-02-28", "2027-03-01"]);
    expect(keys(weekly({ by: "local_date", every: "day", from: "2028-02-28", until: "2028-03-01" }))).toEqual([
      "2028-02-28",
      "2028-02-29",
      "2028-03-01",
    ]);
  });

  it("makes 24 editions a day for utc_hour", () => {
    const dir = content({
      "h/publication.json": pub("utc_hour", {
        editions: { by: "utc_hour", every: "hour", from: "2026-03-29", until: "2026-03-29" },
      }),
      "h/edition.md": TEMPLATE,
    });
    const list = keys(dir);
    expect(list).toHaveLength(24);
    expect([list[0], list[23]]).toEqual(["2026-03-29T00", "2026-03-29T23"]);
    expect(only(dir).editions.list[5]!.data).toEqual({ hour: "2026-03-29T05" });
    // What a template error names: the rule, and which of its editions.
    expect(only(dir).editions.list[5]!.origin).toMatch(/h\/publication\.json editions\.every, 2026-03-29T05$/);
  });

  it("lets a Markdown edition or a row stand in for one of the rule's dates", () => {
    const dir = weekly(
      { by: "local_date", every: "day", from: "2026-12-23", until: "2026-12-26" },
      {
        "s/editions/christmas.md": md("date: 2026-12-25", "Special."),
        "s/editions.csv": "date,title\n2026-12-24,Eve\n",
      },
    );
    const list = only(dir).editions.list;
    expect(list.map((e) => [e.key, e.body, e.data.title])).toEqual([
      ["2026-12-23", TEMPLATE, undefined],
      ["2026-12-24", TEMPLATE, "Eve"],
      ["2026-12-25", "Special.\n", undefined],
      ["2026-12-26", TEMPLATE, undefined],
    ]);
  });

  it("refuses rules that cannot be, each with a fix", () => {
    const dir = content({
      "a/publication.json": pub("delivery_count", { editions: { by: "delivery_count", every: "day" } }),
      "b/publication.json": pub("local_date", { editions: { by: "local_date", every: "daily" } }),
      "c/publication.json": pub("local_date", { editions: { by: "local_date", every: "day", from: "2026-02-30" } }),
      "d/publication.json": pub("local_date", {
        editions: { by: "local_date", every: "day", from: "2026-05-01", until: "2026-04-01" },
      }),
      "e/publication.json": pub("local_date", { editions: { by: "local_date", every: "hour" } }),
      "f/publication.json": pub("utc_hour", { editions: { by: "utc_hour", every: "day" } }),
      "g/publication.json": pub("local_date", { editions: { by: "local_date", from: "2026-01-01" } }),
      "h/publication.json": pub("local_date", { editions: { by: "local_date", every: "day", ends: true } }),
      "i/publication.json": pub("local_date", { editions: { by: "local_date", every: ["monday", "funday"] } }),
      "j/publication.json": pub("local_date", { editions: { by: "local_date", every: "day", until: "1/2/2026" } }),
      "k/publication.json": pub("local_date", {
        editions: { by: "local_date", every: "day", from: "2026-01-01", until: "2046-01-01" },
      }),
    });
    const problems = problemsOf(dir);
    const said = problems.map((p) => [rel(dir, p.file).split("/")[0], p.field, p.problem]);
    expect(said).toEqual([
      ["a", "editions.every", "recurs over dates, but this publication's editions are keyed by delivery_count"],
      ["b", "editions.every", BAD_EVERY],
      ["c", "editions.from", '"2026-02-30" is not a real date written YYYY-MM-DD'],
      ["d", "editions.until", '2026-04-01 is before "from", 2026-05-01'],
      ["e", "editions.every", '"hour" is for editions keyed by utc_hour, and these are keyed by local_date'],
      ["f", "editions.every", 'must be "hour" for editions keyed by utc_hour, got "day"'],
      ["g", "editions.every", 'is missing: "from" belongs to a rule of recurring editions'],
      ["h", "editions.ends", 'a series that ends needs an "until": without it the dates roll on with every build'],
      ["i", "editions.every", BAD_EVERY],
      ["j", "editions.until", "is not in the expected form"],
      ["k", "editions.until", "2026-01-01 to 2046-01-01 is more than 3700 days of editions"],
    ]);
    expect(problems.find((p) => p.field === "editions.until" && p.problem.includes("expected form"))!.fix).toBe(
      "write a date as YYYY-MM-DD, such as 2026-01-01",
    );
    for (const p of problems) expect(p.fix.length).toBeGreaterThan(10);
  });

  it("asks for the template a rule renders", () => {
    const dir = content({ "s/publication.json": pub("local_date", { editions: { by: "local_date", every: "day" } }) });
    expect(problemsOf(dir)).toEqual([
      expect.objectContaining({
        field: "editions.every",
        problem: expect.stringMatching(/^"every" renders edition\.md for each date, and there is no .*s\/edition\.md$/),
      }),
    ]);
  });
});
