import { Ajv } from "ajv";
import { afterEach, describe, expect, it } from "vitest";
import type { ChoiceField, ConfigField, TextField } from "../../lib/model/config-fields.ts";
import { compileConfigValidator, configSchema, type ConfigCheck } from "../../lib/model/config-validator.ts";

const lang: ChoiceField = {
  type: "select",
  name: "lang",
  label: "Language",
  required: true,
  options: [
    ["English", "en"],
    ["Français", "fr"],
  ],
};
const size: ChoiceField = {
  type: "radio",
  name: "size",
  label: "Size",
  required: false,
  options: [
    ["Small", "s"],
    ["Medium", "m"],
    ["Large", "l"],
  ],
};
const name: TextField = {
  type: "text",
  name: "name",
  label: "Your name",
  required: true,
  min_length: 2,
  max_length: 5,
};
const code: TextField = {
  type: "text",
  name: "code",
  label: "Code",
  required: false,
  pattern: "[A-Z]{3}",
  pattern_message: "use three capital letters.",
};
const note: TextField = { type: "text", name: "note", label: "Note", required: false };

const FIELDS: ConfigField[] = [lang, size, name, code, note];
const validate = compileConfigValidator(FIELDS);

function errorsOf(check: ConfigCheck): string[] {
  expect(check.result.valid).toBe(false);
  if (check.result.valid) return [];
  expect(Array.isArray(check.result.errors)).toBe(true);
  for (const e of check.result.errors) expect(typeof e).toBe("string");
  expect(check.result.errors.length).toBeGreaterThan(0);
  return check.result.errors;
}

function expectValid(check: ConfigCheck) {
  expect(check.result).toStrictEqual({ valid: true });
  expect(check.badFields.size).toBe(0);
}

afterEach(() => {
  // Nothing a test submits may reach Object.prototype.
  expect(Object.prototype).not.toHaveProperty("polluted");
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe("compileConfigValidator: valid configs", () => {
  it("accepts a full valid config, with valid the boolean true and no errors key", () => {
    const check = validate({ lang: "fr", size: "l", name: "Phil", code: "ABC", note: "hello" });
    expectValid(check);
    expect(check.result.valid).toBe(true);
    expect(Object.keys(check.result)).toEqual(["valid"]);
  });

  it("accepts only the required fields", () => {
    expectValid(validate({ lang: "en", name: "Al" }));
  });

  it("accepts an optional field sent as an empty string", () => {
    expectValid(validate({ lang: "en", name: "Al", size: "", code: "", note: "" }));
  });

  it("accepts lengths exactly at min_length and max_length", () => {
    expectValid(validate({ lang: "en", name: "ab" }));
    expectValid(validate({ lang: "en", name: "abcde" }));
  });

  it("counts characters, not UTF-16 units: two emoji are two characters, five are five", () => {
    expectValid(validate({ lang: "en", name: "😀😀" }));
    expectValid(validate({ lang: "en", name: "😀😀😀😀😀" }));
    expectValid(validate({ lang: "en", name: "日本" }));
  });

  it("does not mutate the config it is given", () => {
    const config = { lang: "en", name: "Al", note: "" };
    validate(config);
    expect(config).toEqual({ lang: "en", name: "Al", note: "" });
  });
});

describe("compileConfigValidator: errors", () => {
  it("gives one error per bad field, in field order, whatever the key order", () => {
    const check = validate({ note: 5, code: "abc", name: "x", size: "xl", lang: "de" });
    const errors = errorsOf(check);
    expect(errors).toEqual([
      "Language: choose English or Français.",
      "Size: choose Small, Medium or Large.",
      "Your name: use at least 2 characters.",
      "Code: use three capital letters.",
      "Note: must be text, not a number.",
    ]);
    expect([...check.badFields].sort()).toEqual(["code", "lang", "name", "note", "size"]);
  });

  it("each error starts with its field's label", () => {
    const errors = errorsOf(validate({ lang: "xx", size: "xx", name: "x", code: "x", note: [] }));
    const labels = FIELDS.map((f) => f.label);
    expect(errors).toHaveLength(labels.length);
    errors.forEach((e, i) => expect(e.startsWith(`${labels[i]}: `)).toBe(true));
  });

  it("writes the select error exactly like the platform shows it", () => {
    expect(errorsOf(validate({ lang: "de", name: "Phil" }))).toEqual(["Language: choose English or Français."]);
  });

  it("asks for a required choice that is missing or empty with the same choose text", () => {
    expect(errorsOf(validate({ name: "Phil" }))).toEqual(["Language: choose English or Français."]);
    expect(errorsOf(validate({ lang: "", name: "Phil" }))).toEqual(["Language: choose English or Français."]);
  });

  it("refuses an option label where the value is expected", () => {
    expect(errorsOf(validate({ lang: "English", name: "Phil" }))).toEqual(["Language: choose English or Français."]);
  });

  it("asks for required text that is missing or empty", () => {
    const missing = validate({ lang: "en" });
    expect(errorsOf(missing)).toEqual(["Your name: please fill this in."]);
    expect([...missing.badFields]).toEqual(["name"]);
    expect(errorsOf(validate({ lang: "en", name: "" }))).toEqual(["Your name: please fill this in."]);
  });

  it("enforces min_length and max_length the right way round", () => {
    expect(errorsOf(validate({ lang: "en", name: "a" }))).toEqual(["Your name: use at least 2 characters."]);
    expect(errorsOf(validate({ lang: "en", name: "abcdef" }))).toEqual(["Your name: use at most 5 characters."]);
  });

  it("counts an emoji as one character for max_length", () => {
    const six = "😀😀😀😀😀😀";
    expect(errorsOf(validate({ lang: "en", name: six }))).toEqual(["Your name: use at most 5 characters."]);
    expect(errorsOf(validate({ lang: "en", name: "😀" }))).toEqual(["Your name: use at least 2 characters."]);
  });

  it("uses the singular for a limit of one character", () => {
    const one = compileConfigValidator([
      { type: "text", name: "n", label: "Initial", required: true, min_length: 1, max_length: 1 },
    ]);
    expect(errorsOf(one({ n: "ab" }))).toEqual(["Initial: use at most 1 character."]);
  });

  it("anchors the pattern to the whole value", () => {
    expectValid(validate({ lang: "en", name: "Al", code: "XYZ" }));
    expect(errorsOf(validate({ lang: "en", name: "Al", code: "xABC" }))).toEqual(["Code: use three capital letters."]);
    expect(errorsOf(validate({ lang: "en", name: "Al", code: "ABCD" }))).toEqual(["Code: use three capital letters."]);
    expect(errorsOf(validate({ lang: "en", name: "Al", code: "ABC\n" }))).toEqual(["Code: use three capital letters."]);
  });

  it("anchors an alternation as a whole, not just its ends", () => {
    const v = compileConfigValidator([{ type: "text", name: "w", label: "Word", required: true, pattern: "cat|dog" }]);
    expectValid(v({ w: "cat" }));
    expectValid(v({ w: "dog" }));
    expect(errorsOf(v({ w: "cats" }))).toEqual(["Word: this is not in the expected form."]);
    expect(errorsOf(v({ w: "hotdog" }))).toEqual(["Word: this is not in the expected form."]);
  });

  it("uses a generic text when there is no pattern_message", () => {
    const v = compileConfigValidator([
      { type: "text", name: "zip", label: "Postcode", required: true, pattern: "\\d{5}" },
    ]);
    expect(errorsOf(v({ zip: "1234" }))).toEqual(["Postcode: this is not in the expected form."]);
  });

  it.each([
    [42, "a number"],
    [true, "a boolean"],
    [false, "a boolean"],
    [null, "null"],
    [["Phil"], "a list"],
  ])("refuses the non-string %j for a text field", (value, what) => {
    const check = validate({ lang: "en", name: value });
    expect(errorsOf(check)).toEqual([`Your name: must be text, not ${what}.`]);
    expect([...check.badFields]).toEqual(["name"]);
  });

  it("refuses an object for a text field, in correct English", () => {
    expect(errorsOf(validate({ lang: "en", name: { first: "Phil" } }))).toEqual([
      "Your name: must be text, not an object.",
    ]);
  });

  it.each([1, true, null, ["en"], { en: true }])("refuses the non-string %j for a select field", (value) => {
    expect(errorsOf(validate({ lang: value, name: "Phil" }))).toEqual(["Language: choose English or Français."]);
  });

  it("refuses a non-string value for an optional field too", () => {
    expect(errorsOf(validate({ lang: "en", name: "Phil", note: 0 }))).toEqual(["Note: must be text, not a number."]);
  });

  it("refuses unknown keys by name, after the field errors", () => {
    const check = validate({ lang: "de", name: "Phil", colour: "red" });
    expect(errorsOf(check)).toEqual([
      "Language: choose English or Français.",
      'Unknown setting "colour": this publication does not ask for it.',
    ]);
    expect([...check.badFields]).toEqual(["lang"]);
  });

  it("refuses an unknown key even when its value is empty", () => {
    expect(errorsOf(validate({ lang: "en", name: "Phil", colour: "" }))).toEqual([
      'Unknown setting "colour": this publication does not ask for it.',
    ]);
  });

  it("clips a very long unknown key in its error", () => {
    const long = "k".repeat(5000);
    const [error] = errorsOf(validate({ lang: "en", name: "Phil", [long]: "x" }));
    expect(error!.length).toBeLessThan(200);
    expect(error).toContain("k".repeat(40));
  });

  it("refuses __proto__ and constructor keys from JSON by name, without polluting Object.prototype", () => {
    const config = JSON.parse(
      '{"lang": "en", "name": "Phil", "__proto__": {"polluted": "yes"}, ' +
        '"constructor": {"prototype": {"polluted": "yes"}}}',
    ) as Record<string, unknown>;
    const check = validate(config);
    const errors = errorsOf(check);
    expect(errors).toContain('Unknown setting "__proto__": this publication does not ask for it.');
    expect(errors).toContain('Unknown setting "constructor": this publication does not ask for it.');
    expect(errors).toHaveLength(2);
    expect(check.badFields.size).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses {"__proto__": 1}', () => {
    expect(
      errorsOf(validate(JSON.parse('{"lang": "en", "name": "Phil", "__proto__": 1}') as Record<string, unknown>)),
    ).toEqual(['Unknown setting "__proto__": this publication does not ask for it.']);
  });

  it("does not take inherited Object.prototype names as fields (toString, hasOwnProperty)", () => {
    const errors = errorsOf(validate({ lang: "en", name: "Phil", toString: "x", hasOwnProperty: "y" }));
    expect(errors).toEqual([
      'Unknown setting "toString": this publication does not ask for it.',
      'Unknown setting "hasOwnProperty": this publication does not ask for it.',
    ]);
  });

  it("says 'one of the N options' for a long list", () => {
    const many: ChoiceField = {
      type: "select",
      name: "n",
      label: "Number",
      required: true,
      options: Array.from({ length: 9 }, (_, i) => [`N${i}`, `${i}`] as [string, string]),
    };
    expect(errorsOf(compileConfigValidator([many])({ n: "x" }))).toEqual(["Number: choose one of the 9 options."]);
  });

  it("names the only option when there is one", () => {
    const only: ChoiceField = {
      type: "select",
      name: "n",
      label: "Edition",
      required: true,
      options: [["Standard", "std"]],
    };
    expect(errorsOf(compileConfigValidator([only])({ n: "x" }))).toEqual(["Edition: choose Standard."]);
  });
});

describe("compileConfigValidator: a publication with no fields", () => {
  const none = compileConfigValidator([]);

  it("accepts {}", () => {
    expectValid(none({}));
  });

  it('refuses {"x": "y"} naming x', () => {
    const check = none({ x: "y" });
    expect(errorsOf(check)).toEqual(['Unknown setting "x": this publication does not ask for it.']);
    expect(check.badFields.size).toBe(0);
  });
});

describe("compileConfigValidator: independent validators", () => {
  it("two validators compiled from different fields do not share state", () => {
    const a = compileConfigValidator([lang]);
    const b = compileConfigValidator([name]);
    expectValid(a({ lang: "en" }));
    expectValid(b({ name: "Phil" }));
    expect(errorsOf(a({ name: "Phil" }))).toEqual([
      "Language: choose English or Français.",
      'Unknown setting "name": this publication does not ask for it.',
    ]);
    expect(errorsOf(a({ lang: "xx" }))).toEqual(["Language: choose English or Français."]);
    expectValid(a({ lang: "fr" }));
  });
});

describe("configSchema", () => {
  it("makes required only the required fields and forbids others", () => {
    const schema = configSchema(FIELDS) as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    expect(schema.required).toEqual(["lang", "name"]);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(["lang", "size", "name", "code", "note"]);
  });

  // ajv compiles it unchecked (config-validator.ts: 50 ms of a cold start), so the check is made here.
  it("is a schema JSON Schema's meta-schema accepts, for every kind of field and limit", () => {
    const checker = new Ajv({ strict: false });
    for (const schema of [configSchema(FIELDS), configSchema([])])
      expect(checker.validateSchema(schema), JSON.stringify(checker.errors)).toBe(true);
    // The check can fail: a limit of the wrong type is refused.
    expect(checker.validateSchema({ type: "object", properties: { a: { type: "string", maxLength: "4" } } })).toBe(
      false,
    );
  });
});
