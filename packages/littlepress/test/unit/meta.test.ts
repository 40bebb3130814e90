import { describe, expect, it } from "vitest";
import type { EditionsBy } from "../../lib/model/edition-key.ts";
import { metaJson } from "../../lib/model/meta.ts";
import type { Publication } from "../../lib/model/publication.ts";

const SPEC_KEYS = [
  "owner_email",
  "publication_api_version",
  "name",
  "description",
  "delivered_on",
  "send_timezone_info",
  "send_delivery_count",
  "external_configuration",
  "config",
];

function publication(by: EditionsBy, extra: Partial<Publication> = {}): Publication {
  return {
    slug: "tales",
    name: "Tales",
    description: "Short <em>tales</em>.",
    owner_email: "tales@example.com",
    delivered_on: "Every morning",
    publication_api_version: "1.0",
    external_configuration: false,
    charset: "shift_jis",
    editions: { by, ends: true },
    strict_variables: true,
    markdown: { breaks: false },
    fields: [],
    ...extra,
  };
}

describe("metaJson", () => {
  it("has only the spec's fields, with their values", () => {
    const meta = metaJson(publication("delivery_count"));
    expect(meta).toStrictEqual({
      owner_email: "tales@example.com",
      publication_api_version: "1.0",
      name: "Tales",
      description: "Short <em>tales</em>.",
      delivered_on: "Every morning",
      send_timezone_info: false,
      send_delivery_count: true,
      external_configuration: false,
    });
    for (const k of Object.keys(meta)) expect(SPEC_KEYS).toContain(k);
  });

  it("never shows kit settings (slug, charset, editions, fields)", () => {
    const json = JSON.parse(JSON.stringify(metaJson(publication("local_date")))) as Record<string, unknown>;
    for (const k of ["slug", "charset", "editions", "fields", "ends", "by"]) expect(json).not.toHaveProperty(k);
  });

  it.each([
    ["delivery_count", false, true],
    ["local_date", true, false],
    ["utc_date", true, false],
    ["utc_hour", true, false],
  ] as const)("for %s: send_timezone_info %s, send_delivery_count %s", (by, tz, count) => {
    const meta = metaJson(publication(by));
    expect(meta.send_timezone_info).toBe(tz);
    expect(meta.send_delivery_count).toBe(count);
  });

  it("has real booleans, which survive JSON", () => {
    const json = JSON.parse(
      JSON.stringify(metaJson(publication("utc_date", { external_configuration: true }))),
    ) as Record<string, unknown>;
    expect(json.send_timezone_info).toBe(true);
    expect(json.send_delivery_count).toBe(false);
    expect(json.external_configuration).toBe(true);
  });

  it("omits config when there are no fields", () => {
    expect(metaJson(publication("local_date"))).not.toHaveProperty("config");
    expect(JSON.stringify(metaJson(publication("local_date")))).not.toContain('"config"');
  });

  it("shows config fields in order with only type, name, label and options", () => {
    const meta = metaJson(
      publication("local_date", {
        fields: [
          {
            type: "select",
            name: "lang",
            label: "Language",
            required: true,
            default: "fr",
            options: [
              ["English", "en"],
              ["Français", "fr"],
            ],
          },
          {
            type: "text",
            name: "name",
            label: "Your name",
            required: false,
            default: "friend",
            min_length: 1,
            max_length: 40,
            pattern: "[a-z]+",
            pattern_message: "lowercase",
          },
          { type: "radio", name: "size", label: "Size", required: true, options: [["S", "s"]] },
        ],
      }),
    );
    expect(meta.config).toStrictEqual({
      fields: [
        {
          type: "select",
          name: "lang",
          label: "Language",
          options: [
            ["English", "en"],
            ["Français", "fr"],
          ],
        },
        { type: "text", name: "name", label: "Your name" },
        { type: "radio", name: "size", label: "Size", options: [["S", "s"]] },
      ],
    });
    const text = JSON.stringify(meta);
    for (const kit of ["required", "default", "min_length", "max_length", "pattern", "pattern_message"])
      expect(text).not.toContain(`"${kit}"`);
  });
});
