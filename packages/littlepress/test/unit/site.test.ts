import { realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ContentError, ContentProblem } from "../../lib/model/content-error.ts";
import { loadSite, type Site } from "../../lib/build/site.ts";
import { contentFolders, md, problemsOf, pub } from "../helpers/content-folder.ts";

const folders = contentFolders("unit-site-");
const { root, content } = folders;
afterAll(folders.remove);

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
    expect(tales.editions).toEqual({
      by: "delivery_count",
      ends: true,
      list: [
        {
          key: "0",
          file: path.join(dir, "tales/editions/one.md").split(path.sep).join("/"),
          data: { number: 0 },
          body: "Text.\n",
          bodyLine: 4,
        },
      ],
    });
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

  it("finds editions in subfolders and leaves an image beside them (editions read images)", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/2025/a.md": md("number: 1"),
      "s/editions/b.md": md("number: 0"),
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

  it("reports a file with no front matter at all as that", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/a.md": "# Just text\n" });
    expect(problemsOf(dir)).toEqual([
      expect.objectContaining({
        field: "number",
        problem: "has no front matter (a `---` line at the very top), so no `number`",
      }),
    ]);
  });

  it("reports a key written with a capital as that", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/a.md": md("Number: 0") });
    expect(problemsOf(dir)).toEqual([
      expect.objectContaining({
        field: "number",
        problem: "the front matter has `Number` (line 2), not `number`: names are lowercase",
      }),
    ]);
  });

  it("answers a misspelt key with the name meant and its line (`nubmer` for `number`)", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/a.md": "---\ntitle: Part 4\nnubmer: 4\n---\nText\n",
    });
    expect(problemsOf(dir)).toEqual([
      {
        file: expect.stringMatching(/a\.md$/),
        field: "number",
        problem: "the front matter has `nubmer` (line 3), and no `number`: did you mean `number`?",
        fix: "rename it `number`: write the key in the front matter as `number: 4`",
      },
    ]);
  });

  it("shows the key each edition means in the fix: from its file's name, else an example", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/part-7.md": md("title: Part 7"),
      "s/editions/part-8.md": md("number: eight"),
      "s/editions/intro.md": md("title: Intro"),
      "s/editions/1-of-2.md": md("title: One"),
      "d/publication.json": pub("local_date"),
      "d/editions/2026-12-01.md": md("title: Sunday"),
      "d/editions/2026-02-30.md": md("title: No such day"),
      "h/publication.json": pub("utc_hour"),
      "h/editions/2026-12-01T09.md": md("title: Seven"),
    });
    const fixes = problemsOf(dir).map((p) => [path.basename(p.file), p.fix.replace(/^.* as /, "")] as const);
    expect(new Map(fixes)).toEqual(
      new Map([
        ["part-7.md", "`number: 7`"],
        ["part-8.md", "`number: 8` (0 is the first edition)"],
        ["intro.md", "`number: 0`"],
        ["1-of-2.md", "`number: 0`"],
        ["2026-12-01.md", "`date: 2026-12-01`"],
        ["2026-02-30.md", "`date: 2026-11-22`"],
        ["2026-12-01T09.md", "`hour: 2026-12-01T09`"],
      ]),
    );
  });

  it("refuses files that are not UTF-8, naming the encoding, and an unclosed front matter as such", () => {
    const dir = content({ "s/editions/ok.md": md("number: 0") });
    writeFileSync(
      path.join(dir, "s/publication.json"),
      Buffer.from(JSON.stringify(pub("delivery_count", { name: "Caf\xe9" })), "latin1"),
    );
    writeFileSync(path.join(dir, "s/editions/b.md"), Buffer.from("\uFEFF" + md("number: 1"), "utf16le"));
    writeFileSync(path.join(dir, "site.json"), Buffer.from('{"url": "https://caf\xe9.example"}', "latin1"));
    const problems = problemsOf(dir);
    expect(problems.map((p) => [path.relative(dir, p.file), p.field, p.problem])).toEqual([
      [
        path.join("s", "publication.json"),
        "encoding",
        "is not valid UTF-8 (line 1); it looks like Latin-1/Windows-1252",
      ],
      ["site.json", "encoding", "is not valid UTF-8 (line 1); it looks like Latin-1/Windows-1252"],
    ]);
    expect(problems[0]!.fix).toMatch(/^save it as UTF-8/);
    writeFileSync(path.join(dir, "s/publication.json"), JSON.stringify(pub("delivery_count")));
    writeFileSync(path.join(dir, "s/editions/c.md"), "---\nnumber: 2\n\nText\n");
    rmSync(path.join(dir, "site.json"));
    expect(problemsOf(dir).map((p) => [path.basename(p.file), p.field, p.problem])).toEqual([
      ["b.md", "encoding", "is saved as UTF-16 LE, not UTF-8"],
      ["c.md", "front matter", "the front matter opened by `---` on line 1 is never closed"],
    ]);
  });

  it("follows links to editions and publication folders inside the content folder", () => {
    const dir = content({
      "shared/one.md": md("number: 1"),
      "shared/more/two.md": md("number: 2"),
      "s/publication.json": pub("delivery_count"),
      "s/editions/0.md": md("number: 0"),
      "elsewhere/t/publication.json": pub("delivery_count"),
      "elsewhere/t/editions/0.md": md("number: 0"),
    });
    symlinkSync(path.resolve(dir, "shared/one.md"), path.join(dir, "s/editions/1.md"));
    symlinkSync("../../shared/more", path.join(dir, "s/editions/more"));
    symlinkSync("elsewhere/t", path.join(dir, "t"));
    const site = loadSite(dir);
    expect(site.publications.map((p) => p.slug)).toEqual(["s", "t"]);
    const list = site.publications[0]!.editions.list;
    expect(list.map((e) => [e.key, path.relative(dir, e.file)])).toEqual([
      ["0", path.join("s", "editions", "0.md")],
      ["1", path.join("s", "editions", "1.md")],
      ["2", path.join("s", "editions", "more", "two.md")],
    ]);
  });

  it("refuses links pointing outside the content folder, or at nothing, by name", () => {
    const outside = content({ "far.md": md("number: 1"), "far/publication.json": pub("delivery_count") });
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/0.md": md("number: 0") });
    symlinkSync(path.resolve(outside, "far.md"), path.join(dir, "s/editions/1.md"));
    symlinkSync("nowhere.md", path.join(dir, "s/editions/2.md"));
    symlinkSync(path.resolve(outside, "far"), path.join(dir, "far"));
    const problems = problemsOf(dir);
    expect(problems.map((p) => [path.relative(dir, p.file), p.problem])).toEqual([
      ["far", `is a symbolic link to ${realpathSync(path.join(outside, "far"))}, outside the content folder`],
      [
        path.join("s", "editions", "1.md"),
        `is a symbolic link to ${realpathSync(path.join(outside, "far.md"))}, outside the content folder`,
      ],
      [path.join("s", "editions", "2.md"), "is a symbolic link to nothing (its target does not exist)"],
    ]);
  });

  it("refuses data files no one reads, saying where data goes; editions/editions.json is read by Eleventy", () => {
    const dir = content({
      "s/publication.json": pub("delivery_count"),
      "s/editions/0.md": md("number: 0"),
      "s/editions/editions.json": { ok: true },
      "s/editions/haiku.json": { first: "old pond" },
      "s/editions/2026/2026.json": {},
      "s/_data/x.json": {},
    });
    const problems = problemsOf(dir);
    expect(problems.map((p) => path.relative(dir, p.file))).toEqual([
      path.join("s", "editions", "2026", "2026.json"),
      path.join("s", "editions", "haiku.json"),
      path.join("s", "_data"),
    ]);
    expect(problems[1]).toMatchObject({
      problem: "is not an edition, and littlepress does not read data files here",
      fix: expect.stringContaining("content/_data/"),
    });
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
    expect(problemsOf(dir)).toEqual([
      expect.objectContaining({ field: "front matter", problem: expect.stringMatching(/not valid YAML/) }),
    ]);
  });

  it("reports a publication with no editions", () => {
    const dir = content({ "s/publication.json": pub("delivery_count") });
    const problems = problemsOf(dir);
    expect(problems).toEqual([expect.objectContaining({ problem: "has no editions" })]);
    expect(problems[0]!.file).toContain(path.join("s", "editions"));
  });

  it("reports an editions folder with no Markdown in it", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/photo.png": "x" });
    expect(problemsOf(dir)).toEqual([expect.objectContaining({ problem: "has no editions" })]);
  });

  it("names a text file in the editions folder that nothing reads, rather than only the editions it lacks", () => {
    const dir = content({ "s/publication.json": pub("delivery_count"), "s/editions/readme.txt": "no" });
    expect(problemsOf(dir).map((p) => p.problem)).toEqual([
      "is not read: only `.md` files in the editions folder are editions, so it is never printed",
    ]);
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
    expect(
      (() => {
        try {
          loadSite(dir);
        } catch (e) {
          return (e as Error).message;
        }
        return "";
      })(),
    ).toMatch(/littlepress found \d+ problems in your content/);
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
    expect(problemsOf(content({ ...files, "site.json": { root: "nope" } }))).toEqual([
      expect.objectContaining({ field: "root" }),
    ]);
    expect(problemsOf(content({ ...files, "site.json": "{" }))).toEqual([
      expect.objectContaining({
        field: "line 1, column 2",
        problem: "is not valid JSON: the file ends before the } that closes the { at line 1, column 1, in `{`",
      }),
    ]);
  });

  it("reads the print-key services from site.json, a private one only when it says so", () => {
    const files = { "s/publication.json": pub("delivery_count"), "s/editions/a.md": md("number: 0") };
    const origins = ["https://sirius.example.org/", { origin: "http://192.168.1.20:5000", private: true }];
    expect(loadSite(content({ ...files, "site.json": { print_key_origins: origins } })).printKeyOrigins).toEqual([
      { origin: "https://sirius.example.org", private: false },
      { origin: "http://192.168.1.20:5000", private: true },
    ]);
    expect(loadSite(content(files)).printKeyOrigins).toBeUndefined();
  });

  it("reads max_subscriptions from site.json, and reports one that is not a whole number", () => {
    const files = { "s/publication.json": pub("delivery_count"), "s/editions/a.md": md("number: 0") };
    expect(loadSite(content({ ...files, "site.json": { max_subscriptions: 250 } })).maxSubscriptions).toBe(250);
    expect(problemsOf(content({ ...files, "site.json": { max_subscriptions: "lots" } }))).toEqual([
      expect.objectContaining({ field: "max_subscriptions", problem: '"lots" is not a whole number of subscriptions' }),
    ]);
    expect(problemsOf(content({ ...files, "site.json": { max_subscriptions: -1 } }))).toHaveLength(1);
  });

  it("reports print-key services that are not origins, naming the entry", () => {
    const files = { "s/publication.json": pub("delivery_count"), "s/editions/a.md": md("number: 0") };
    const bad = [
      "https://sirius.example.org/printkey/abc",
      "ftp://x.example",
      { origin: "http://a.example", private: "yes" },
    ];
    const problems = problemsOf(content({ ...files, "site.json": { print_key_origins: bad } }));
    expect(problems.map((p) => [p.field, p.problem])).toEqual([
      ["print_key_origins", 'entry 1: "https://sirius.example.org/printkey/abc" is not an http(s) origin'],
      ["print_key_origins", 'entry 2: "ftp://x.example" is not an http(s) origin'],
      ["print_key_origins", 'entry 3: "private" must be true or false'],
    ]);
    expect(problems[0]!.fix).toContain('"private": true');
    expect(problemsOf(content({ ...files, "site.json": { print_key_origins: "https://a.example" } }))).toEqual([
      expect.objectContaining({ field: "print_key_origins", problem: "must be a list of origins" }),
    ]);
  });

  it("reports an icon that does not exist, and finds one that does", () => {
    const files = { "s/editions/a.md": md("number: 0") };
    expect(
      problemsOf(content({ ...files, "s/publication.json": pub("delivery_count", { icon: "logo.png" }) })),
    ).toEqual([expect.objectContaining({ field: "icon" })]);
    const dir = content({
      ...files,
      "s/publication.json": pub("delivery_count", { icon: "logo.png" }),
      "s/logo.png": "png",
    });
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
