// The JSON Schemas ajv compiles without checking them (lib/model/publication.ts
// and config-validator.ts turn its meta-schema check off: 50 ms of every start)
// are checked here instead, against JSON Schema's meta-schema.
import { Ajv } from "ajv";
import { expect, it } from "vitest";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { configSchema } from "../../lib/model/config-validator.ts";
import { publicationSchema } from "../../lib/model/publication-schema.ts";

const checker = new Ajv({ strict: false });

it("checks publication.json by a valid schema", () => {
  expect(checker.validateSchema(publicationSchema), JSON.stringify(checker.errors)).toBe(true);
});

it("checks a subscriber's settings by a valid schema, for every kind of field and limit", () => {
  const fields: ConfigField[] = [
    { type: "text", name: "name", label: "Name", required: true, min_length: 1, max_length: 40, pattern: "[A-Za-z ]+" },
    { type: "text", name: "note", label: "Note", required: false },
    {
      type: "select",
      name: "lang",
      label: "Language",
      required: true,
      options: [
        ["English", "en"],
        ["French", "fr"],
      ],
    },
    { type: "radio", name: "size", label: "Size", required: false, options: [["Small", "s"]] },
  ];
  for (const schema of [configSchema(fields), configSchema([])])
    expect(checker.validateSchema(schema), JSON.stringify(checker.errors)).toBe(true);
  // The check can fail: a limit of the wrong type is refused.
  expect(checker.validateSchema({ type: "object", properties: { a: { type: "string", maxLength: "4" } } })).toBe(false);
});
