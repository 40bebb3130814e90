import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parse } from "yaml";
import { simpleFrontMatter, splitFrontMatter } from "../../lib/build/front-matter.ts";

function data(text: string): Record<string, unknown> {
  const r = splitFrontMatter(text);
  if ("error" in r) throw new Error(`unexpected error: ${r.error}`);
  return r.data;
}

function error(text: string): string {
  const r = splitFrontMatter(text);
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.data)}`);
  return r.error;
}

describe("splitFrontMatter", () => {
  it("gives the text after the front matter as the body, byte-order mark and all line endings handled", () => {
    const split = (text: string) => {
      const r = splitFrontMatter(text);
      if ("error" in r) throw new Error(r.error);
      return r.body;
    };
    expect(split("---\nnumber: 3\n---\n# Body\n\nMore.\n")).toBe("# Body\n\nMore.\n");
    expect(split("\uFEFF---\r\nnumber: 3\r\n---\r\nBody")).toBe("Body");
    expect(split("No front matter here.\n")).toBe("No front matter here.\n");
    expect(split("---\nnumber: 3\n---")).toBe("");
  });

  it("reads key: value lines", () => {
    expect(data("---\nnumber: 3\ntitle: Part three\n---\n# Body\n")).toEqual({ number: 3, title: "Part three" });
  });

  it("keeps dates as the strings the author wrote, impossible ones included", () => {
    expect(data("---\ndate: 2026-02-30\n---\nbody")).toEqual({ date: "2026-02-30" });
    expect(data("---\ndate: 2026-11-22\n---\nbody")).toEqual({ date: "2026-11-22" });
    expect(data("---\nhour: 2026-11-22T07\n---\n")).toEqual({ hour: "2026-11-22T07" });
  });

  it("keeps a quoted number a string and an unquoted one a number", () => {
    expect(data('---\nnumber: "3"\n---\n')).toEqual({ number: "3" });
    expect(data("---\nnumber: 3\n---\n")).toEqual({ number: 3 });
    expect(data("---\nnumber: 1.5\n---\n")).toEqual({ number: 1.5 });
  });

  it("gives {} when there is no front matter", () => {
    expect(data("# Just a heading\n\nText.")).toEqual({});
    expect(data("")).toEqual({});
    expect(data("text\n---\nnumber: 3\n---\n")).toEqual({});
  });

  it("gives {} for empty front matter", () => {
    expect(data("---\n\n---\nbody")).toEqual({});
    expect(data("---\n# only a comment\n---\nbody")).toEqual({});
  });

  it("reports invalid YAML with an error", () => {
    expect(error("---\nnumber: [1, 2\n---\nbody")).toMatch(/not valid YAML/);
    expect(error("---\na: 1\na: 2\n---\n")).toMatch(/not valid YAML/);
    expect(error("---\nkey: value\n  bad indent: x\n---\n")).toMatch(/not valid YAML/);
  });

  it("gives a YAML error at the file's line, and says to quote a value YAML cannot read plain", () => {
    const split = splitFrontMatter("---\nnumber: 4\ntitle: Part 4: The Bell\n---\nText\n");
    expect(split).toEqual({
      error:
        "the front matter is not valid YAML at line 3, column 8: Nested mappings are not allowed in compact mappings",
      fix: expect.stringMatching(/^quote the value: title: "Part 4: The Bell" \(/),
    });
    // a value starting with a quote that does not end there: quoted as a whole, in the other quotes
    expect(splitFrontMatter('---\ntitle: "Hello" world\n---\n')).toMatchObject({
      error: expect.stringMatching(/ at line 2, column /),
      fix: expect.stringMatching(/^quote the value: title: '"Hello" world' /),
    });
    expect(splitFrontMatter("---\ntags: [a, b\n---\n")).toMatchObject({
      fix: "correct the YAML between the two --- lines",
    });
    expect(splitFrontMatter("---\ntitle: [Draft] Notes\n---\n")).toMatchObject({
      fix: expect.stringMatching(/^quote the value: title: "\[Draft\] Notes" /),
    });
  });

  it("reports front matter that is not a mapping", () => {
    expect(error("---\n- a\n- b\n---\n")).toMatch(/key: value/);
    expect(error("---\njust text\n---\n")).toMatch(/key: value/);
  });

  it("keeps the error to one line", () => {
    expect(error("---\nnumber: [1, 2\n---\nbody")).not.toContain("\n");
  });

  it("reads CRLF line endings", () => {
    expect(data("---\r\ndate: 2026-02-30\r\nnumber: 3\r\n---\r\nbody\r\n")).toEqual({ date: "2026-02-30", number: 3 });
  });

  it("reads front matter that ends the file without a newline", () => {
    expect(data("---\nnumber: 4\n---")).toEqual({ number: 4 });
  });

  it("tolerates trailing spaces after the --- lines", () => {
    expect(data("--- \nnumber: 5\n---\t\nbody")).toEqual({ number: 5 });
  });

  it("stops at the first closing ---, so a horizontal rule in the body is not front matter", () => {
    expect(data("---\nnumber: 6\n---\nText\n\n---\n\nMore")).toEqual({ number: 6 });
  });

  it("says an opening --- that is never closed is that, not a missing key", () => {
    expect(error("---\nnumber: 3\ntitle: x\n\nThe text.\n")).toBe(
      "the front matter opened by `---` on line 1 is never closed",
    );
  });

  it("says front matter below blank lines is read as text, naming its line", () => {
    expect(error("\n\n---\nnumber: 3\n---\nbody")).toBe(
      "the front matter starts on line 3, after blank lines, so it is read as text",
    );
  });

  it("reads --- followed at once by --- as empty front matter", () => {
    expect(data("---\n---\nbody")).toEqual({});
  });

  it("reads front matter after a UTF-8 byte-order mark, as Eleventy does", () => {
    // Eleventy (gray-matter) strips the BOM and sees `number: 3`; littlepress must see the same key.
    expect(data("\uFEFF---\nnumber: 3\n---\nbody")).toEqual({ number: 3 });
  });
});

describe("simpleFrontMatter, the fast path for plain key: value lines", () => {
  const key = fc.stringMatching(/^[A-Za-z_][\w-]{0,8}$/);
  // Values an author writes, and near misses YAML reads differently.
  const value = fc.oneof(
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc.constantFrom(
      "0",
      "-0",
      "007",
      "+5",
      "1.5",
      "1e3",
      "0x1F",
      ".inf",
      "~",
      "",
      "true",
      "False",
      "NULL",
      "yes",
      "no",
      "on",
    ),
    fc.constantFrom("2026-11-22", "2026-02-30", "2026-11-22T07", "2026-11-22T07:00", "2026-11-22 07:00"),
    fc.string({ unit: fc.constantFrom(..."aZ 0:#-'\"\\,.!?&*|>%@[]{}é\t"), maxLength: 12 }),
    fc.string({ unit: fc.constantFrom(..."abc XYZ.,-!?1"), maxLength: 20 }).map((s) => `"${s}"`),
    fc.string({ unit: fc.constantFrom(..."abc XYZ.,-!?1'"), maxLength: 20 }).map((s) => `'${s}'`),
    fc.string({ unit: fc.constantFrom(..."abc XYZ.,-!?1"), maxLength: 20 }).map((s) => `Word ${s}`),
  );
  const block = fc
    .array(fc.tuple(key, fc.constantFrom(" ", "  ", "\t"), value), { minLength: 1, maxLength: 6 })
    .map((lines) => lines.map(([k, sp, v]) => `${k}:${sp}${v}`).join("\n"));

  it("reads what YAML's core schema reads, or leaves the block to YAML", () => {
    let fast = 0;
    fc.assert(
      fc.property(block, (text) => {
        const simple = simpleFrontMatter(text);
        if (simple === undefined) return;
        fast++;
        expect(simple).toStrictEqual(parse(text, { schema: "core" }));
      }),
      { numRuns: 5_000 },
    );
    expect(fast).toBeGreaterThan(500); // the fast path is really taken
  });

  it("takes the usual edition front matter", () => {
    expect(simpleFrontMatter('number: 12\ntitle: "Part 13: The Return"')).toEqual({
      number: 12,
      title: "Part 13: The Return",
    });
    expect(simpleFrontMatter("date: 2026-11-22\ntitle: Frost on the Window\nlang: fr")).toEqual({
      date: "2026-11-22",
      title: "Frost on the Window",
      lang: "fr",
    });
    expect(simpleFrontMatter("tags:\n  - a")).toBeUndefined();
  });
});
