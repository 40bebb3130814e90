// config.fields shapes, judged without a server.
import { describe, expect, it } from "vitest";
import { checkForm } from "../../scripts/check/form-checks.ts";
import { invalidConfig, sampleConfigs } from "../../scripts/check/sample-config.ts";

const shapeOf = (config: unknown) => checkForm({ config }, "GET x")[0]!;

describe("checkForm", () => {
  it("passes text, select and radio fields with [label, value] options", () => {
    const fields = [
      { type: "text", name: "name", label: "Name" },
      { type: "select", name: "lang", label: "Language", options: [["English", "en"]] },
      {
        type: "radio",
        name: "size",
        label: "Size",
        options: [
          ["Small", "s"],
          ["Large", "l"],
        ],
      },
    ];
    expect(checkForm({ config: { fields } }, "GET x").map((c) => c.status)).toEqual(["pass", "pass"]);
  });

  it("fails each malformed field, naming it", () => {
    expect(shapeOf({ fields: [{ type: "select", name: "a", label: "A" }] }).detail).toMatch(
      /config.fields\[0\] needs "options"/,
    );
    expect(
      shapeOf({ fields: [{ type: "select", name: "a", label: "A", options: [{ label: "x", value: "y" }] }] }).detail,
    ).toMatch(/options\[0\].*\[label, value\] pair/);
    expect(shapeOf({ fields: [{ type: "date", name: "a", label: "A" }] }).detail).toMatch(/type "date"/);
    expect(shapeOf({ fields: [{ type: "text", label: "A" }] }).detail).toMatch(/no "name"/);
    expect(shapeOf({ fields: [{ type: "text", name: "a" }] }).detail).toMatch(/no "label"/);
    expect(shapeOf({ fields: {} }).status).toBe("fail");
  });

  it("warns on a checkbox, which has no known value semantics", () => {
    expect(shapeOf({ fields: [{ type: "checkbox", name: "a", label: "A" }] }).status).toBe("warn");
  });

  it("fails names that repeat or clash with the platform's parameters", () => {
    const names = (fields: unknown[]) => checkForm({ config: { fields } }, "GET x")[1]!;
    expect(
      names([
        { type: "text", name: "a", label: "A" },
        { type: "text", name: "a", label: "B" },
      ]).detail,
    ).toMatch(/more than one field is named "a"/);
    expect(names([{ type: "text", name: "delivery_count", label: "A" }]).status).toBe("fail");
  });
});

describe("sample configs", () => {
  const fields = [
    {
      type: "select",
      name: "lang",
      label: "Language",
      options: [
        ["English", "en"],
        ["French", "fr"],
      ],
    },
    { type: "text", name: "code", label: "Code" },
    { type: "text", name: "name", label: "Name" },
  ];

  it("picks the first option and a name-like text, then empties the text fields an error mentions", () => {
    const tries = sampleConfigs(fields, {}, ["Code: three capitals"]);
    expect(tries[0]).toEqual({ lang: "en", code: "Ada", name: "Ada" });
    expect(tries[1]).toEqual({ lang: "en", code: "", name: "Ada" });
    expect(tries[2]).toEqual({ lang: "en", code: "", name: "" });
  });

  it("lets --config values win", () => {
    expect(sampleConfigs(fields, { code: "ABC" })[0]).toEqual({ lang: "en", code: "ABC", name: "Ada" });
  });

  it("builds an invalid config from an unknown key and a value outside the options", () => {
    expect(invalidConfig(fields, { lang: "en" })).toEqual({
      config: { lang: "littlepress-check-not-an-option", littlepress_check_unknown: "x" },
      hasBadOption: true,
    });
  });
});
