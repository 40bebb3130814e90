import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Ajv } from "ajv";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContentProblem } from "../../lib/model/content-error.ts";
import { readPublication } from "../../lib/build/publication-file.ts";
import type { Publication } from "../../lib/model/publication.ts";
import { publicationSchema } from "../../lib/model/publication-schema.ts";

let dir: string;
let n = 0;

beforeAll(() => {
  mkdirSync(".test-work", { recursive: true });
  dir = mkdtempSync(path.join(".test-work", "unit-publication-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = {
  name: "Tales",
  description: "Short <em>tales</em>.",
  owner_email: "tales@example.com",
  delivered_on: "Every morning",
  editions: { by: "delivery_count" },
};

function write(json: unknown): string {
  const file = path.join(dir, `p${n++}.json`);
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
  return file;
}

function read(json: unknown, slug = "tales"): { file: string; result: ReturnType<typeof readPublication> } {
  const file = write(json);
  return { file, result: readPublication(slug, file) };
}

function good(json: unknown): Publication {
  const { result } = read(json);
  if ("problems" in result) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return result.publication;
}

function problems(json: unknown, slug = "tales"): ContentProblem[] {
  const { file, result } = read(json, slug);
  if (!("problems" in result)) throw new Error(`expected problems, got ${JSON.stringify(result.publication)}`);
  expect(result.problems.length).toBeGreaterThan(0);
  for (const p of result.problems) {
    expect(p.file).toBe(file);
    expect(typeof p.field).toBe("string");
    expect(typeof p.problem).toBe("string");
    expect(typeof p.fix).toBe("string");
    expect(p.problem.length).toBeGreaterThan(0);
    expect(p.fix.length).toBeGreaterThan(0);
  }
  return result.problems;
}

describe("readPublication: defaults", () => {
  it("fills in every default", () => {
    const pub = good(BASE);
    expect(pub).toEqual({
      slug: "tales",
      name: "Tales",
      description: "Short <em>tales</em>.",
      owner_email: "tales@example.com",
      delivered_on: "Every morning",
      publication_api_version: "1.0",
      external_configuration: false,
      charset: "utf-8",
      strict_variables: true,
      end_notice: true,
      markdown: { breaks: false },
      editions: { by: "delivery_count", ends: false },
      fields: [],
    });
    expect(pub).not.toHaveProperty("config");
  });

  it("keeps values that are given", () => {
    const pub = good({
      ...BASE,
      publication_api_version: "1.1",
      external_configuration: true,
      charset: "windows-1251",
      editions: { by: "utc_hour", ends: true },
    });
    expect(pub.publication_api_version).toBe("1.1");
    expect(pub.external_configuration).toBe(true);
    expect(pub.charset).toBe("windows-1251");
    expect(pub.editions).toEqual({ by: "utc_hour", ends: true });
  });

  it("lower-cases the charset", () => {
    expect(good({ ...BASE, charset: "Shift_JIS" }).charset).toBe("shift_jis");
  });

  it("makes fields required by default and keeps an explicit false", () => {
    const pub = good({
      ...BASE,
      config: {
        fields: [
          { type: "text", name: "name", label: "Name" },
          { type: "select", name: "lang", label: "Language", options: [["English", "en"]], required: false },
          { type: "radio", name: "size", label: "Size", options: [["S", "s"]] },
        ],
      },
    });
    expect(pub.fields.map((f) => [f.name, f.required])).toEqual([
      ["name", true],
      ["lang", false],
      ["size", true],
    ]);
    expect(pub.fields[1]).toEqual({
      type: "select",
      name: "lang",
      label: "Language",
      options: [["English", "en"]],
      required: false,
    });
  });

  it("keeps end_notice false: no end slip", () => {
    expect(good({ ...BASE, end_notice: false }).end_notice).toBe(false);
  });

  it("accepts an empty config and a $schema key", () => {
    expect(good({ ...BASE, config: {} }).fields).toEqual([]);
    expect(good({ ...BASE, $schema: "./schema.json" })).not.toHaveProperty("$schema");
  });
});

describe("readPublication: problems", () => {
  it("reports invalid JSON", () => {
    const [p, ...rest] = problems('{ "name": "Tales", }');
    expect(rest).toEqual([]);
    expect(p!.field).toBe("line 1, column 18");
    expect(p!.problem).toMatch(/not valid JSON: a comma after the last field/);
  });

  it("reports a missing file", () => {
    const file = path.join(dir, "does-not-exist.json");
    const result = readPublication("tales", file);
    expect(result).toEqual({ problems: [{ file, field: "", problem: "is missing", fix: expect.any(String) }] });
  });

  it.each(["name", "description", "owner_email", "delivered_on", "editions"])(
    "names the missing required field %s",
    (field) => {
      const json: Record<string, unknown> = { ...BASE };
      delete json[field];
      const ps = problems(json);
      expect(ps).toHaveLength(1);
      expect(ps[0]!.field).toBe(field);
      expect(ps[0]!.problem).toBe("is missing");
      expect(ps[0]!.fix).toContain(`"${field}"`);
    },
  );

  it("names every missing field at once, editions.by included", () => {
    const ps = problems({ description: "x", editions: {} });
    expect(ps.map((p) => p.field).sort()).toEqual(["delivered_on", "editions.by", "name", "owner_email"]);
  });

  it("names an unknown field", () => {
    const ps = problems({ ...BASE, colour: "red" });
    expect(ps).toEqual([expect.objectContaining({ field: "colour", problem: "is not a field littlepress knows" })]);
  });

  it("names an unknown field inside editions and inside a config field", () => {
    expect(problems({ ...BASE, editions: { by: "local_date", repeat: "daily" } }).map((p) => p.field)).toEqual([
      "editions.repeat",
    ]);
    const ps = problems({ ...BASE, config: { fields: [{ type: "text", name: "n", label: "N", colour: "red" }] } });
    expect(ps.map((p) => p.field)).toContain("config.fields[0].colour");
  });

  it("refuses an end_notice that is not true or false, naming the file and the field", () => {
    const { file, result } = read({ ...BASE, end_notice: "no" });
    expect(result).toEqual({
      problems: [
        {
          file,
          field: "end_notice",
          problem: "must be true or false",
          fix: 'write it without quotes, for example "end_notice": true',
        },
      ],
    });
  });

  it("refuses an unknown editions.by", () => {
    const ps = problems({ ...BASE, editions: { by: "weekly" } });
    expect(ps).toHaveLength(1);
    expect(ps[0]!.field).toBe("editions.by");
    expect(ps[0]!.problem).toContain('"delivery_count"');
    expect(ps[0]!.problem).toContain('"utc_hour"');
  });

  it("refuses an unknown field type", () => {
    const ps = problems({ ...BASE, config: { fields: [{ type: "checkbox", name: "n", label: "N" }] } });
    expect(ps).toHaveLength(1);
    expect(ps[0]!.field).toBe("config.fields[0].type");
    expect(ps[0]!.problem).toMatch(/"text", "select" or "radio"/);
  });

  it("refuses a select without options, naming the options field", () => {
    const ps = problems({ ...BASE, config: { fields: [{ type: "select", name: "n", label: "N" }] } });
    expect(ps).toEqual([expect.objectContaining({ field: "config.fields[0].options", problem: "is missing" })]);
  });

  it("refuses an option that is not a [label, value] pair", () => {
    const ps = problems({
      ...BASE,
      config: { fields: [{ type: "select", name: "n", label: "N", options: [["only label"]] }] },
    });
    expect(ps.map((p) => p.field)).toEqual(["config.fields[0].options[0]"]);
  });

  it("passes checkFields problems through (a reserved name)", () => {
    const ps = problems({ ...BASE, config: { fields: [{ type: "text", name: "delivery_count", label: "N" }] } });
    expect(ps.map((p) => p.field)).toEqual(["config.fields[0].name"]);
  });

  it("refuses a charset iconv-lite does not know", () => {
    const ps = problems({ ...BASE, charset: "klingon" });
    expect(ps).toEqual([expect.objectContaining({ field: "charset" })]);
    expect(ps[0]!.problem).toContain('"klingon"');
  });

  it("refuses wrong types", () => {
    const ps = problems({ ...BASE, external_configuration: "false", editions: { by: "local_date", ends: "yes" } });
    expect(ps.map((p) => p.field).sort()).toEqual(["editions.ends", "external_configuration"]);
    expect(ps.every((p) => p.problem === "must be true or false")).toBe(true);
  });

  it("refuses an owner_email that is not an address", () => {
    expect(problems({ ...BASE, owner_email: "tales at example" })).toEqual([
      expect.objectContaining({ field: "owner_email", problem: "is not in the expected form" }),
    ]);
  });

  it("refuses an empty name", () => {
    expect(problems({ ...BASE, name: "" })).toEqual([expect.objectContaining({ field: "name", problem: "is empty" })]);
  });

  it("refuses a JSON array or string at the top", () => {
    expect(problems("[]")).toEqual([expect.objectContaining({ field: "", problem: expect.stringMatching(/object/) })]);
    expect(problems('"x"')).toHaveLength(1);
  });

  it.each([
    "Tales",
    "my tales",
    "my_tales",
    "-tales",
    "tales!",
    "",
    "edition",
    "validate_config",
    "sample",
    "meta.json",
    "icon.png",
    "é",
  ])("refuses the slug %j", (slug) => {
    const ps = problems(BASE, slug);
    expect(ps).toHaveLength(1);
    expect(ps[0]!.field).toBe("");
    expect(ps[0]!.problem).toContain(`"${slug}"`);
  });

  it("accepts slugs of lowercase letters, digits and dashes", () => {
    for (const slug of ["tales", "morning-tales", "2026", "a-1-b"]) {
      const { result } = read(BASE, slug);
      expect("publication" in result && result.publication.slug).toBe(slug);
    }
  });
});

// ajv compiles it unchecked (publication.ts: 50 ms of every build's start), so the check is made here.
it("checks publication.json by a schema JSON Schema's meta-schema accepts", () => {
  const checker = new Ajv({ strict: false });
  expect(checker.validateSchema(publicationSchema), JSON.stringify(checker.errors)).toBe(true);
});
