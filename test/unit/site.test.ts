import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError, type ContentProblem } from "../../lib/content-error.ts";
import { loadSite, type Site } from "../../lib/site.ts";

let root: string;
let n = 0;

beforeAll(() => {
  mkdirSync(".test-work", { recursive: true });
  root = mkdtempSync(path.join(".test-work", "unit-site-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Files = Record<string, string | object>;

/** Writes a content folder from { "slug/publication.json": {...}, "slug/editions/a.md": "..." }. */
function content(files: Files): string {
  const dir = path.join(root, `c${n++}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof body === "string" ? body : JSON.stringify(body));
  }
  return dir;
}

const pub = (by: string, extra: object = {}) => ({ name: "P", description: "D", owner_email: "p@example.com", delivered_on: "Daily", editions: { by }, ...extra });
const md = (front: string, body = "Text.") => `---\n${front}\n---\n${body}\n`;

function problemsOf(dir: string): ContentProblem[] {
  let error: unknown;
  try {
    loadSite(dir);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ContentError);
  const problems = (error as ContentError).problems;
  expect(problems.length).toBeGreaterThan(0);
  for (const p of problems) {
    for (const k of ["file", "field", "problem", "fix"] as const) expect(typeof p[k]).toBe("string");
  }
  return problems;
}

describe("loadSite", () => {
  it("reads publications in folder order with their editions", () => {
    const dir = content({
      "tales/publication.json": pub("delivery_count", { editions: { by: "delivery_count", ends: true } }),
      "tales/editions/one.md": md("number: 0"),
      "daily/publication.json": pub("local_date"),
      "daily/editions/x.md": md("date: 2026-11-22"),
    });
    const site: Site = loadSite(dir);
    expect(site.publications.map((p) => p.slug)).toEqual(["daily", "tales"]);
    const tales = site.publications[1]!;
    expect(tales.editions).toEqual({ by: "delivery_count", ends: true, list: [{ key: "0", file: path.join(dir, "tales/editions/one.md").split(path.sep).join("/"), data: { number: 0 }, body: "Text.\n", bodyLine: 4 }] });
    expect(tales.charset).toBe("utf-8");
    expect(tales.sampleKey).toBe("0");
    expect(site).not.toHaveProperty("root");
  });

  it("sorts delivery counts numerically: 2 before 10", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/a.md": md("number: 10"),
      "s/editions/b.md": md("number: 2"),
      "s/editions/c.md": md("number: 0"),
      "s/editions/d.md": md("number: 1"),
      "s/editions/e.md": md("number: 100"),
    });
    expect(loadSite(dir).publications[0]!.editions.list.map((e) => e.key)).toEqual(["0", "1", "2", "10", "100"]);
  });

  it("sorts dates and hours chronologically, whatever the file names", () => {
    const dir = content({
      "d/publication.json": pub("utc_date"),
      "d/editions/z.md": md("date: 2026-01-02"),
      "d/editions/a.md": md("date: 2026-12-31"),
      "d/editions/m.md": md("date: 2025-06-01"),
      "h/publication.json": pub("utc_hour"),
      "h/editions/1.md": md("hour: 2026-01-02T10"),
      "h/editions/2.md": md("hour: 2026-01-02T09"),
    });
    const [d, h] = loadSite(dir).publications;
    expect(d!.editions.list.map((e) => e.key)).toEqual(["2025-06-01", "2026-01-02", "2026-12-31"]);
    expect(h!.editions.list.map((e) => e.key)).toEqual(["2026-01-02T09", "2026-01-02T10"]);
  });

  it("finds editions in subfolders and ignores files that are not Markdown", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/2025/a.md": md("number: 1"),
      "s/editions/b.md": md("number: 0"),
      "s/editions/notes.txt": "number: 5",
      "s/editions/image.png": "x",
    });
    const list = loadSite(dir).publications[0]!.editions.list;
    expect(list.map((e) => e.key)).toEqual(["0", "1"]);
    expect(list[1]!.file.endsWith("s/editions/2025/a.md")).toBe(true);
  });

  it("skips folders without publication.json or editions, and hidden or _ folders", () => {
    const dir = content({
      "assets/logo.txt": "x",
      "_drafts/publication.json": pub("nope"),
      ".hidden/publication.json": "{",
      "s/publication.json": pub("delivery_count"),
      "s/editions/a.md": md("number: 0"),
    });
    expect(loadSite(dir).publications.map((p) => p.slug)).toEqual(["s"]);
  });

  it("gives an empty site for a missing content folder", () => {
    expect(loadSite(path.join(root, "no-such-folder"))).toEqual({ publications: [] });
  });

  it("reports a key used by two files, naming both", () => {
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions/a.md": md("date: 2026-11-22"),
      "s/editions/b.md": md("date: 2026-11-22"),
    });
    const problems = problemsOf(dir);
    expect(problems).toHaveLength(1);
    const text = `${problems[0]!.file} ${problems[0]!.problem}`;
    expect(text).toContain("a.md");
    expect(text).toContain("b.md");
    expect(problems[0]!.field).toBe("date");
    expect(problems[0]!.problem).toContain("2026-11-22");
  });

  it("reports 7 and 007 as the same delivery count", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/a.md": md("number: 7"),
      "s/editions/b.md": md("number: 007"),
    });
    expect(problemsOf(dir)).toHaveLength(1);
  });

  it("reports a missing key with the mode's field name", () => {
    const dir = content({ "s/publication.json": pub("utc_hour"), "s/editions/a.md": md("title: Hello") });
    const problems = problemsOf(dir);
    expect(problems).toEqual([expect.objectContaining({ field: "hour" })]);
    expect(problems[0]!.file.endsWith("a.md")).toBe(true);
  });

  it("reports a file with no front matter at all", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/a.md": "# Just text\n" });
    expect(problemsOf(dir)).toEqual([expect.objectContaining({ field: "number" })]);
  });

  it("reports malformed keys", () => {
    const dir = content({
      "s/publication.json": pub("local_date"),
      "s/editions/a.md": md("date: 2026-02-30"),
      "s/editions/b.md": md("date: 22/11/2026"),
      "s/editions/c.md": md("date: 2026-11-22"),
    });
    const problems = problemsOf(dir);
    expect(problems.map((p) => path.basename(p.file))).toEqual(["a.md", "b.md"]);
    expect(problems[0]!.problem).toMatch(/not a real calendar date/);
  });

  it("reports a quoted number as a malformed key", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/a.md": md('number: "3"') });
    expect(problemsOf(dir)).toEqual([expect.objectContaining({ field: "number" })]);
  });

  it("reports invalid YAML front matter", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/a.md": md("number: [0") });
    expect(problemsOf(dir)).toEqual([expect.objectContaining({ field: "front matter", problem: expect.stringMatching(/not valid YAML/) })]);
  });

  it("reports a publication with no editions", () => {
    const dir = content({ "s/publication.json": pub("delivery_count") });
    const problems = problemsOf(dir);
    expect(problems).toEqual([expect.objectContaining({ problem: "has no editions" })]);
    expect(problems[0]!.file).toContain(path.join("s", "editions"));
  });

  it("reports an editions folder with no Markdown in it", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/readme.txt": "no" });
    expect(problemsOf(dir)).toEqual([expect.objectContaining({ problem: "has no editions" })]);
  });

  it("reports an editions folder without publication.json", () => {
    const dir = content({ "s/editions/a.md": md("number: 0") });
    const problems = problemsOf(dir);
    expect(problems).toEqual([expect.objectContaining({ problem: "is missing" })]);
    expect(problems[0]!.file.endsWith(path.join("s", "publication.json"))).toBe(true);
  });

  it("reports the problems of several publications at once", () => {
    const dir = content({
      "a/publication.json": pub("weekly"),
      "a/editions/x.md": md("number: 0"),
      "b/publication.json": pub("delivery_count"),
      "b/editions/x.md": md("number: -1"),
      "b/editions/y.md": md("number: 1.5"),
      "c/publication.json": pub("local_date"),
      "d/publication.json": pub("utc_date"),
      "d/editions/ok.md": md("date: 2026-11-22"),
      "Bad Name/publication.json": pub("delivery_count"),
    });
    const problems = problemsOf(dir);
    const where = problems.map((p) => path.relative(dir, p.file).split(path.sep)[0]);
    expect(new Set(where)).toEqual(new Set(["a", "b", "c", "Bad Name"]));
    expect(problems.filter((p) => p.file.includes(`${path.sep}b${path.sep}`))).toHaveLength(2);
    expect((() => {
      try {
        loadSite(dir);
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    })()).toMatch(/littlepress found \d+ problems in your content/);
  });

  it("uses editions.sample as the sample key, and the first edition without it", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count", { editions: { by: "delivery_count", sample: 2 } }),
      "s/editions/a.md": md("number: 1"),
      "s/editions/b.md": md("number: 2"),
      "d/publication.json": pub("local_date", { editions: { by: "local_date", sample: "2026-11-23" } }),
      "d/editions/a.md": md("date: 2026-11-22"),
      "d/editions/b.md": md("date: 2026-11-23"),
      "f/publication.json": pub("utc_date"),
      "f/editions/b.md": md("date: 2026-11-23"),
      "f/editions/a.md": md("date: 2026-11-22"),
    });
    const keys = Object.fromEntries(loadSite(dir).publications.map((p) => [p.slug, p.sampleKey]));
    expect(keys).toEqual({ s: "2", d: "2026-11-23", f: "2026-11-22" });
  });

  it("reports an editions.sample that is not one of the editions", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count", { editions: { by: "delivery_count", sample: 5 } }),
      "s/editions/a.md": md("number: 0"),
    });
    expect(problemsOf(dir)).toEqual([expect.objectContaining({ field: "editions.sample" })]);
  });

  it("serves a publication at the root when content/site.json names it", () => {
    const dir = content({
      "site.json": { root: "s" },
      "s/publication.json": pub("delivery_count"),
      "s/editions/a.md": md("number: 0"),
    });
    expect(loadSite(dir).root).toBe("s");
  });

  it("reports a site.json root that is not a publication, and a site.json that is not JSON", () => {
    const files = { "s/publication.json": pub("delivery_count"), "s/editions/a.md": md("number: 0") };
    expect(problemsOf(content({ ...files, "site.json": { root: "nope" } }))).toEqual([expect.objectContaining({ field: "root" })]);
    expect(problemsOf(content({ ...files, "site.json": "{" }))).toEqual([expect.objectContaining({ field: "" })]);
  });

  it("reports an icon that does not exist, and finds one that does", () => {
    const files = { "s/editions/a.md": md("number: 0") };
    expect(problemsOf(content({ ...files, "s/publication.json": pub("delivery_count", { icon: "logo.png" }) }))).toEqual([expect.objectContaining({ field: "icon" })]);
    const dir = content({ ...files, "s/publication.json": pub("delivery_count", { icon: "logo.png" }), "s/logo.png": "png" });
    expect(loadSite(dir).publications[0]!.iconFile).toBe(path.join(dir, "s", "logo.png"));
  });

  it("does not claim a quoted sample count is missing when that edition exists", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count", { editions: { by: "delivery_count", sample: "2" } }),
      "s/editions/a.md": md("number: 2"),
    });
    let site: Site | undefined;
    let problems: ContentProblem[] = [];
    try {
      site = loadSite(dir);
    } catch (e) {
      problems = (e as ContentError).problems;
    }
    // Either "2" is taken as edition 2, or the author is told to write a number; never "there is no edition 2".
    if (site) expect(site.publications[0]!.sampleKey).toBe("2");
    else expect(problems.map((p) => p.problem).join("\n")).not.toMatch(/there is no edition "2"/);
  });
});
