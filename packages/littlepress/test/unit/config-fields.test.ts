import { describe, expect, it } from "vitest";
import {
  checkFields,
  fallbackValue,
  isChoice,
  RESERVED_NAMES,
  specField,
  type ChoiceField,
  type ConfigField,
  type TextField,
} from "../../lib/model/config-fields.ts";

const FILE = "content/tales/publication.json";

const text = (name: string, extra: Partial<TextField> = {}): TextField => ({
  type: "text",
  name,
  label: name.toUpperCase(),
  required: true,
  ...extra,
});
const select = (name: string, values: string[], extra: Partial<ChoiceField> = {}): ChoiceField => ({
  type: "select",
  name,
  label: name.toUpperCase(),
  required: true,
  options: values.map((v) => [`Label ${v}`, v]),
  ...extra,
});

function expectWellFormed(problems: ReturnType<typeof checkFields>) {
  for (const p of problems) {
    expect(p.file).toBe(FILE);
    expect(p.field).toMatch(/^config\.fields\[\d+\]/);
    expect(p.problem.length).toBeGreaterThan(0);
    expect(p.fix.length).toBeGreaterThan(0);
  }
}

describe("checkFields", () => {
  it("finds no problems in a good set of fields", () => {
    const fields: ConfigField[] = [
      select("lang", ["en", "fr"], { default: "fr" }),
      {
        type: "radio",
        name: "size",
        label: "Size",
        required: false,
        options: [
          ["Small", "s"],
          ["Large", "l"],
        ],
      },
      text("name", { min_length: 1, max_length: 40, pattern: "[A-Za-z ]+", pattern_message: "letters only" }),
      text("City_2", { min_length: 3, max_length: 3 }),
      text("a".repeat(64)),
    ];
    expect(checkFields(fields, FILE)).toEqual([]);
    expect(checkFields([], FILE)).toEqual([]);
  });

  it("reports a duplicate name at the second field", () => {
    const problems = checkFields([text("name"), select("lang", ["en"]), text("name")], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: FILE, field: "config.fields[2].name" });
    expect(problems[0]!.problem).toContain('"name"');
    expectWellFormed(problems);
  });

  it.each([
    "my-name",
    "1a",
    "_x",
    "",
    "a b",
    "ü",
    "a.b",
    "a".repeat(65),
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "valueOf",
  ])("refuses the unsafe name %j", (name) => {
    const problems = checkFields([text(name)], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[0].name");
    expect(problems[0]!.problem).toContain("not a safe query-parameter name");
    expectWellFormed(problems);
  });

  it.each([...RESERVED_NAMES])("refuses the reserved name %s", (name) => {
    const problems = checkFields([select("lang", ["en"]), text(name)], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[1].name");
    expect(problems[0]!.problem).toContain("the platform sends itself");
  });

  it("reserves exactly the two parameters the platform sends", () => {
    expect([...RESERVED_NAMES].sort()).toEqual(["delivery_count", "local_delivery_time"]);
  });

  it.each(["select", "radio"] as const)("refuses a %s field with no options", (type) => {
    const problems = checkFields([{ type, name: "lang", label: "Language", required: true, options: [] }], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[0].options");
    expect(problems[0]!.problem).toContain(`a ${type} field needs options`);
  });

  it("refuses an option value listed twice, at the second one", () => {
    const problems = checkFields([select("lang", ["en", "fr", "en"])], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[0].options[2]");
    expect(problems[0]!.problem).toContain('"en"');
  });

  it("allows two options with the same label but different values", () => {
    expect(
      checkFields(
        [
          {
            type: "select",
            name: "x",
            label: "X",
            required: true,
            options: [
              ["Same", "a"],
              ["Same", "b"],
            ],
          },
        ],
        FILE,
      ),
    ).toEqual([]);
  });

  it("refuses a default that is not an option value (a label is not a value)", () => {
    const problems = checkFields([select("lang", ["en", "fr"], { default: "Label en" })], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[0].default");
    expect(problems[0]!.fix).toContain("en, fr");
  });

  it("refuses an invalid pattern", () => {
    const problems = checkFields([text("code", { pattern: "[A-Z" })], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[0].pattern");
    expect(problems[0]!.problem).toContain("[A-Z");
  });

  it("refuses a pattern that only compiles without the u flag", () => {
    // A lone `{` is accepted by legacy regexps but not in unicode mode, which ajv uses.
    expect(checkFields([text("code", { pattern: "a{" })], FILE)).toHaveLength(1);
  });

  it("refuses min_length larger than max_length, and accepts them equal", () => {
    const problems = checkFields([text("name", { min_length: 5, max_length: 2 })], FILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe("config.fields[0].min_length");
    expect(problems[0]!.problem).toContain("5");
    expect(problems[0]!.problem).toContain("2");
    expect(checkFields([text("name", { min_length: 2, max_length: 2 })], FILE)).toEqual([]);
  });

  it("reports every problem in every field at once", () => {
    const problems = checkFields(
      [
        text("my-name"),
        select("lang", []),
        text("n", { min_length: 3, max_length: 1, pattern: "(" }),
        select("s", ["a"], { default: "b" }),
      ],
      FILE,
    );
    expect(problems.map((p) => p.field)).toEqual([
      "config.fields[0].name",
      "config.fields[1].options",
      "config.fields[2].pattern",
      "config.fields[2].min_length",
      "config.fields[3].default",
    ]);
    expectWellFormed(problems);
  });
});

describe("isChoice", () => {
  it("is true for select and radio, false for text", () => {
    expect(isChoice(select("a", ["x"]))).toBe(true);
    expect(isChoice({ ...select("a", ["x"]), type: "radio" })).toBe(true);
    expect(isChoice(text("a"))).toBe(false);
  });
});

describe("fallbackValue", () => {
  it("is the default when there is one", () => {
    expect(fallbackValue(select("lang", ["en", "fr"], { default: "fr" }))).toBe("fr");
    expect(fallbackValue(text("name", { default: "friend" }))).toBe("friend");
  });

  it("is the first option's value for a choice without default", () => {
    expect(fallbackValue(select("lang", ["de", "en"]))).toBe("de");
  });

  it("is empty for a text field without default", () => {
    expect(fallbackValue(text("name"))).toBe("");
  });

  it("keeps an empty-string default rather than falling through", () => {
    expect(fallbackValue(text("name", { default: "" }))).toBe("");
  });
});

describe("specField", () => {
  const KIT_KEYS = ["required", "default", "min_length", "max_length", "pattern", "pattern_message"];

  it("shows only type, name and label of a text field", () => {
    const f = text("name", {
      required: false,
      default: "friend",
      min_length: 1,
      max_length: 40,
      pattern: "[a-z]+",
      pattern_message: "lowercase",
    });
    const spec = specField(f);
    expect(spec).toEqual({ type: "text", name: "name", label: "NAME" });
    for (const k of KIT_KEYS) expect(Object.keys(spec)).not.toContain(k);
    expect(JSON.parse(JSON.stringify(spec))).toEqual({ type: "text", name: "name", label: "NAME" });
  });

  it("shows options of a select or radio field, and no kit keys", () => {
    const f: ChoiceField = {
      type: "radio",
      name: "lang",
      label: "Language",
      required: false,
      default: "fr",
      options: [
        ["English", "en"],
        ["Français", "fr"],
      ],
    };
    const spec = specField(f);
    expect(spec).toEqual({
      type: "radio",
      name: "lang",
      label: "Language",
      options: [
        ["English", "en"],
        ["Français", "fr"],
      ],
    });
    for (const k of KIT_KEYS) expect(Object.keys(spec)).not.toContain(k);
  });
});
