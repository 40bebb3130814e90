import { describe, expect, it } from "vitest";
import type { ChoiceField, ConfigField, TextField } from "../../lib/model/config-fields.ts";
import { compileConfigValidator } from "../../lib/model/config-validator.ts";
import { subscriberSettings } from "../../lib/model/subscriber.ts";

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
  default: "l",
  options: [
    ["Small", "s"],
    ["Large", "l"],
  ],
};
const name: TextField = {
  type: "text",
  name: "name",
  label: "Name",
  required: true,
  default: "friend",
  min_length: 2,
  pattern: "[^0-9]*",
};
const note: TextField = { type: "text", name: "note", label: "Note", required: false };
const FIELDS: ConfigField[] = [lang, size, name, note];
const validate = compileConfigValidator(FIELDS);

const settings = (query: string, fields = FIELDS, v = validate) =>
  subscriberSettings(fields, new URLSearchParams(query), v);

describe("subscriberSettings", () => {
  it("uses the values sent, in field order", () => {
    const s = settings("note=hi&name=Ada&size=s&lang=en");
    expect(s.variantId).toBe("lang=en&size=s");
    expect([...s.values]).toEqual([
      ["lang", "en"],
      ["size", "s"],
      ["name", "Ada"],
      ["note", "hi"],
    ]);
  });

  it("falls back for missing values: default, else first option, else empty", () => {
    const s = settings("");
    expect(s.variantId).toBe("lang=en&size=l");
    expect(Object.fromEntries(s.values)).toEqual({ lang: "en", size: "l", name: "friend", note: "" });
  });

  it("falls back only for the values validate_config would refuse", () => {
    const s = settings("lang=de&size=s&name=R2D2&note=ok");
    expect(Object.fromEntries(s.values)).toEqual({ lang: "en", size: "s", name: "friend", note: "ok" });
    expect(settings("lang=fr&name=A").values.get("name")).toBe("friend");
  });

  it("ignores parameters that are not fields", () => {
    const s = settings("lang=fr&delivery_count=3&colour=red&local_delivery_time=x");
    expect([...s.values.keys()]).toEqual(["lang", "size", "name", "note"]);
    expect(s.variantId).toBe("lang=fr&size=l");
  });

  it("reads percent-encoded UTF-8", () => {
    expect(settings("name=Zo%C3%AB").values.get("name")).toBe("Zoë");
  });

  it('gives variant "" and no values without fields', () => {
    const s = settings("a=b", [], compileConfigValidator([]));
    expect(s.variantId).toBe("");
    expect(s.values.size).toBe(0);
  });

  it("is not confused by field names that are Object.prototype names in the query", () => {
    const s = settings("__proto__=x&constructor=y&lang=fr");
    expect(s.variantId).toBe("lang=fr&size=l");
  });
});
