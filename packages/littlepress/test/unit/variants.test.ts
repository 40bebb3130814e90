import { describe, expect, it } from "vitest";
import type { ChoiceField, ConfigField, TextField } from "../../lib/model/config-fields.ts";
import { MAX_VARIANTS, variantCount, variantId, variantsOf } from "../../lib/model/variants.ts";

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
  required: true,
  options: [
    ["Small", "s"],
    ["Medium", "m"],
    ["Large", "l"],
  ],
};
const name: TextField = { type: "text", name: "name", label: "Name", required: false };

describe("variantsOf", () => {
  it("is the cartesian product of choice values, first field slowest, first options first", () => {
    const variants = variantsOf([lang, name, size]);
    expect(variants.map((v) => v.id)).toEqual([
      "lang=en&size=s",
      "lang=en&size=m",
      "lang=en&size=l",
      "lang=fr&size=s",
      "lang=fr&size=m",
      "lang=fr&size=l",
    ]);
    expect(variants[4]!.values).toEqual({ lang: "fr", size: "m" });
  });

  it("follows field order, not alphabetical order, in ids", () => {
    expect(variantsOf([size, lang])[0]!.id).toBe("size=s&lang=en");
  });

  it("leaves text fields out of ids and values", () => {
    for (const v of variantsOf([lang, name])) {
      expect(v.id).not.toContain("name");
      expect(Object.keys(v.values)).toEqual(["lang"]);
    }
  });

  it('has one variant with id "" when there are no choice fields', () => {
    expect(variantsOf([])).toEqual([{ id: "", values: {} }]);
    expect(variantsOf([name])).toEqual([{ id: "", values: {} }]);
  });

  it("gives every variant a distinct id", () => {
    const ids = variantsOf([
      lang,
      size,
      {
        ...lang,
        name: "paper",
        options: [
          ["A", "a"],
          ["B", "b"],
        ],
      },
    ]).map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(12);
  });

  it("encodes values that need it in a query string", () => {
    const odd: ChoiceField = {
      type: "select",
      name: "q",
      label: "Q",
      required: true,
      options: [
        ["A", "a b&c=d"],
        ["É", "é"],
      ],
    };
    const ids = variantsOf([odd]).map((v) => v.id);
    expect(ids).toEqual(["q=a+b%26c%3Dd", "q=%C3%A9"]);
    expect(new URLSearchParams(ids[0]).get("q")).toBe("a b&c=d");
  });
});

describe("variantCount", () => {
  it("multiplies the option counts of choice fields", () => {
    expect(variantCount([lang, name, size])).toBe(6);
    expect(variantCount([lang])).toBe(2);
  });

  it("is 1 without choice fields", () => {
    expect(variantCount([])).toBe(1);
    expect(variantCount([name])).toBe(1);
  });

  it("equals the number of variants variantsOf produces", () => {
    const sets: ConfigField[][] = [[], [name], [lang], [lang, size], [size, name, lang]];
    for (const fields of sets) expect(variantsOf(fields)).toHaveLength(variantCount(fields));
  });

  it("has a sane limit", () => {
    expect(MAX_VARIANTS).toBe(256);
  });
});

describe("variantId", () => {
  it("is the id of the matching variant from variantsOf", () => {
    const fields = [lang, name, size];
    for (const v of variantsOf(fields)) expect(variantId(fields, { ...v.values, name: "Phil" })).toBe(v.id);
  });

  it("ignores text values and extra keys", () => {
    expect(variantId([lang, name], { lang: "fr", name: "Phil", other: "x" })).toBe("lang=fr");
  });

  it('is "" with no choice fields', () => {
    expect(variantId([name], { name: "Phil" })).toBe("");
  });
});
