import type { ErrorObject } from "ajv";
import { describe, expect, it } from "vitest";
import { describeAjvError, dottedPath } from "../../lib/model/ajv-problems.ts";

const err = (keyword: string, instancePath: string, params: Record<string, unknown>): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: "#",
  params,
});

describe("dottedPath", () => {
  it("turns a JSON pointer into a dotted path with indexes", () => {
    expect(dottedPath("")).toBe("");
    expect(dottedPath("/name")).toBe("name");
    expect(dottedPath("/editions/by")).toBe("editions.by");
    expect(dottedPath("/config/fields/1/options")).toBe("config.fields[1].options");
    expect(dottedPath("/config/fields/0/options/2")).toBe("config.fields[0].options[2]");
  });

  it("unescapes ~1 and ~0", () => {
    expect(dottedPath("/a~1b/c~0d")).toBe("a/b.c~d");
  });
});

describe("describeAjvError", () => {
  it("names a missing property under its parent, with a hint when there is one", () => {
    expect(describeAjvError(err("required", "/editions", { missingProperty: "by" }), { by: "add by" })).toEqual({
      field: "editions.by",
      problem: "is missing",
      fix: "add by",
    });
    expect(describeAjvError(err("required", "", { missingProperty: "x" }), {})).toEqual({
      field: "x",
      problem: "is missing",
      fix: 'add "x"',
    });
  });

  it("names an unknown property", () => {
    expect(
      describeAjvError(err("additionalProperties", "/config/fields/2", { additionalProperty: "colour" }), {}).field,
    ).toBe("config.fields[2].colour");
  });

  it("lists enum values", () => {
    expect(describeAjvError(err("enum", "/editions/by", { allowedValues: ["a", "b"] }), {}).problem).toBe(
      'must be one of "a", "b"',
    );
  });

  it("says 'a list' for arrays", () => {
    expect(describeAjvError(err("type", "/config/fields", { type: "array" }), {}).problem).toBe("must be a list");
    expect(describeAjvError(err("type", "/name", { type: "string" }), {}).problem).toBe("must be text");
  });

  it("shows how a value of the right type is written, under its own key (never 'a array')", () => {
    const fix = (type: string, at = "/end_notice") => describeAjvError(err("type", at, { type }), {}).fix;
    expect(fix("boolean")).toBe('write it without quotes, for example "end_notice": true');
    expect(fix("array", "/config/fields")).toBe(
      'write it in square brackets, for example "fields": ["first", "second"]',
    );
    expect(fix("string", "/name")).toBe('write it in double quotes, for example "name": "text"');
    expect(fix("integer", "/config/fields/0/max_length")).toBe('write it without quotes, for example "max_length": 3');
    expect(fix("object", "/editions")).toBe('write it in curly brackets, for example "editions": { "key": "value" }');
    // an item of a list has no key of its own
    expect(fix("string", "/config/fields/0/options/1/0")).toBe('write it in double quotes, for example "text"');
    for (const type of ["array", "boolean", "integer", "number", "object", "string"])
      expect(describeAjvError(err("type", "/x", { type }), {}).problem).not.toMatch(/\ba [aeiou]/);
  });

  it("answers a misspelt field name with the name meant, from the schema checked against", () => {
    const schema = { properties: { editions: { properties: { by: {}, ends: {} } } } };
    const slip = err("additionalProperties", "/editions", { additionalProperty: "ednds" });
    slip.schemaPath = "#/properties/editions/additionalProperties";
    expect(describeAjvError(slip, {}, schema)).toEqual({
      field: "editions.ednds",
      problem: "is not a field littlepress knows",
      fix: 'did you mean "ends"? Rename it "ends" (docs/writing-publications.md: "publication.json")',
    });
    const own = err("additionalProperties", "/editions", { additionalProperty: "colour" });
    own.schemaPath = slip.schemaPath;
    expect(describeAjvError(own, {}, schema).fix).toMatch(/^remove it, or check its spelling/);
    // a page's language belongs to the editions (checked there as a BCP 47 tag), not to publication.json
    const lang = err("additionalProperties", "", { additionalProperty: "lang" });
    expect(describeAjvError(lang, {}, schema).fix).toMatch(/^remove it: a page's language is set in each edition's/);
  });

  it("gives an e-mail hint for owner_email patterns only", () => {
    expect(describeAjvError(err("pattern", "/owner_email", { pattern: "x" }), {}).fix).toContain("you@example.com");
    expect(describeAjvError(err("pattern", "/other", { pattern: "^x$" }), {}).fix).toContain("^x$");
  });

  it("names the type field for a discriminator error", () => {
    expect(describeAjvError(err("discriminator", "/config/fields/0", { tag: "type" }), {}).field).toBe(
      "config.fields[0].type",
    );
  });

  it("falls back to ajv's message for other keywords", () => {
    expect(
      describeAjvError({ ...err("minimum", "/config/fields/0/min_length", {}), message: "must be >= 0" }, {}),
    ).toEqual({
      field: "config.fields[0].min_length",
      problem: "must be >= 0",
      fix: expect.any(String),
    });
  });
});
