// The JSON files an author writes (site.json, publication.json, editions.json):
// a syntax error names the line and the column, shows the line, and says the fix.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { findFault, parseJson } from "../../lib/build/json-file.ts";
import { contentFolders, md, problemsOf, pub } from "../helpers/content-folder.ts";

const folders = contentFolders("unit-json-");
afterAll(folders.remove);

/** publication.json as an author lays it out, with a comma left after the last field of `editions`. */
const TRAILING = `{
  "name": "Morning stretches",
  "description": "Five minutes of stretches, every weekday morning",
  "owner_email": "me@example.com",
  "delivered_on": "Weekdays",
  "editions": {
    "by": "local_date",
    "every": "weekday",
  }
}
`;

describe("a JSON file with a syntax error", () => {
  it("says the line and column of a trailing comma in publication.json, the line, and to remove it", () => {
    const dir = folders.content({ "s/publication.json": TRAILING, "s/editions/a.md": md("date: 2026-11-23") });
    const [problem, ...rest] = problemsOf(dir);
    expect(rest).toEqual([]);
    expect(problem!.file).toMatch(/s\/publication\.json$/);
    expect(problem!.field).toBe("line 8, column 23");
    expect(problem!.problem).toBe('is not valid JSON: a comma after the last field, in `"every": "weekday",`');
    expect(problem!.fix).toBe("remove the comma at line 8, column 23: JSON allows no comma after the last field");
    expect(problem!.problem).not.toMatch(/position/);
  });

  it("reads site.json and editions.json through the same helper", () => {
    const dir = folders.content({
      "site.json": '{\n  "url": "https://example.com",\n}\n',
      "s/publication.json": pub("local_date"),
      "s/edition.md": "# {{ title }}\n",
      "s/editions.json": '[\n  {"date": "2026-11-23", "title": "A"}\n  {"date": "2026-11-24", "title": "B"}\n]\n',
    });
    const problems = problemsOf(dir);
    const of = (name: string) => problems.find((p) => p.file.endsWith(name))!;
    expect(of("site.json")).toMatchObject({
      field: "line 2, column 31",
      problem: 'is not valid JSON: a comma after the last field, in `"url": "https://example.com",`',
      fix: "remove the comma at line 2, column 31: JSON allows no comma after the last field",
    });
    expect(of("editions.json")).toMatchObject({
      field: "line 2, column 39",
      problem: 'is not valid JSON: a comma is missing between two items, in `{"date": "2026-11-23", "title": "A"}`',
      fix: "add a comma at line 2, column 39, after the value before it",
    });
    expect(problems).toHaveLength(2);
  });

  it.each([
    ["[1, 2,]", "line 1, column 6", "a comma after the last item"],
    ["{'a': 1}", "line 1, column 2", "text in single quotes"],
    ["{a: 1}", "line 1, column 2", "a without double quotes"],
    ['{"a": True}', "line 1, column 7", "True without double quotes"],
    ['{"a": 1 // one\n}', "line 1, column 9", "a comment: JSON has none"],
    ['{"a": 1\n "b": 2}', "line 1, column 8", "a comma is missing between two items"],
    ['{"a": 1}\n// one', "line 2, column 1", "a comment: JSON has none"],
    ['{"a": "one\ntwo"}', "line 1, column 7", "text whose closing double quote is missing"],
    ['{"a": "C:\\path"}', "line 1, column 10", "the backslash escape \\p"],
    ['{"a" 1}', "line 1, column 6", "a colon is missing after the name"],
    ['{"a": [1, 2}', "line 1, column 12", "} where ] should close the [ at line 1, column 7"],
    ['{"a": 1', "line 1, column 8", "the file ends before the } that closes the { at line 1, column 1"],
    ['{"a": [1, {"b":', "line 1, column 16", "the file ends before the } that closes the { at line 1, column 11"],
    ['{"a": 01}', "line 1, column 8", "a number that JSON cannot read"],
    ["{} {}", "line 1, column 4", "more after the end of the JSON value"],
  ])("%j: %s, %s", (text, field, said) => {
    const parsed = parseJson("x.json", text);
    expect("problem" in parsed && parsed.problem).toMatchObject({ field, problem: expect.stringContaining(said) });
  });

  it("says an empty file is empty", () => {
    expect(parseJson("x.json", " \n")).toEqual({
      problem: { file: "x.json", field: "", problem: "is empty", fix: "write the JSON in it, or remove the file" },
    });
  });

  it("finds a fault exactly when JSON.parse refuses the text, for JSON with one character changed", () => {
    const edited = fc
      .tuple(fc.jsonValue(), fc.nat(), fc.constantFrom("", ",", '"', "'", "}", "]", ":", " ", "\\", "/", "x", "0"))
      .map(([value, at, insert]) => {
        const text = JSON.stringify(value, null, 2);
        const i = at % (text.length + 1);
        return insert ? text.slice(0, i) + insert + text.slice(i) : text.slice(0, i) + text.slice(i + 1);
      });
    fc.assert(
      fc.property(edited, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(findFault(text) === undefined, text).toBe(valid);
      }),
      { numRuns: 3000 },
    );
  });
});
