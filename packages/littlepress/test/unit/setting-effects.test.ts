// Whether a subscriber setting changes anything on paper (lib/model/setting-effects.ts):
// a choice counts when, every other choice held still, two of its options give
// different pages in some edition; a text setting when some edition prints it.
import { describe, expect, it } from "vitest";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { inertSettings, type VariantPage } from "../../lib/model/setting-effects.ts";
import { slotToken } from "../../lib/model/text-slots.ts";
import { variantsOf } from "../../lib/model/variants.ts";

const select = (name: string, ...values: string[]): ConfigField => ({
  type: "select",
  name,
  label: name,
  required: false,
  options: values.map((v) => [v, v]),
});
const text = (name: string): ConfigField => ({ type: "text", name, label: name, required: false });

/** Every edition of `keys` in every variant of `fields`, each page as `page` renders it. */
function pages(fields: ConfigField[], keys: string[], page: (key: string, v: Record<string, string>) => string) {
  return keys.flatMap((key) =>
    variantsOf(fields).map((variant): VariantPage => ({ key, variant, html: page(key, variant.values) })),
  );
}

describe("inertSettings", () => {
  const fields = [select("length", "short", "long"), select("lang", "en", "fr")];

  it("finds none when every setting changes some edition", () => {
    const all = pages(fields, ["0", "1"], (k, v) => `${k} ${v.lang} ${k === "1" && v.length === "long" ? "more" : ""}`);
    expect(inertSettings(fields, all)).toEqual([]);
  });

  it("names a choice whose options give the same page in every edition (a condition that reads another name)", () => {
    const all = pages(fields, ["0", "1", "2"], (k, v) => `${k} ${v.lang}`);
    expect(inertSettings(fields, all)).toEqual([
      { field: fields[0], why: 'every edition prints the same page for "short" and "long"' },
    ]);
  });

  it("holds the other choices still: a page that differs only by another setting is no reaction", () => {
    const three = [select("size", "s", "m", "l"), select("lang", "en", "fr")];
    const all = pages(three, ["0"], (k, v) => `${k} ${v.lang}`);
    expect(inertSettings(three, all).map((s) => [s.field.name, s.why])).toEqual([
      ["size", 'every edition prints the same page for each of "s", "m", "l"'],
    ]);
  });

  it("names a text setting no edition prints, and not one that some edition prints", () => {
    const withText = [text("pet"), text("town")];
    const all = pages(withText, ["0", "1"], (k) => (k === "1" ? `Hi ${slotToken("pet")}` : "Hi"));
    expect(inertSettings(withText, all)).toEqual([{ field: withText[1], why: "no edition prints it" }]);
  });

  it("says nothing without pages, or of a choice of one option", () => {
    expect(inertSettings(fields, [])).toEqual([]);
    const one = [select("only", "x")];
    expect(
      inertSettings(
        one,
        pages(one, ["0"], () => "same"),
      ),
    ).toEqual([]);
  });
});
