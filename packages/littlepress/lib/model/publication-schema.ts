import { EDITIONS_BY } from "./edition-key.ts";
import { WEEKDAY_NAMES } from "./recurrence.ts";

// JSON Schema of content/<slug>/publication.json. ajv fills in the defaults,
// so the rest of the kit sees every field.

const choiceOrText = {
  type: "object",
  required: ["type"],
  discriminator: { propertyName: "type" },
  oneOf: [
    {
      properties: {
        type: { const: "text" },
        name: { type: "string" },
        label: { type: "string", minLength: 1 },
        required: { type: "boolean", default: true },
        default: { type: "string" },
        min_length: { type: "integer", minimum: 0 },
        max_length: { type: "integer", minimum: 1 },
        pattern: { type: "string" },
        pattern_message: { type: "string", minLength: 1 },
      },
      required: ["type", "name", "label"],
      additionalProperties: false,
    },
    {
      properties: {
        type: { enum: ["select", "radio"] },
        name: { type: "string" },
        label: { type: "string", minLength: 1 },
        required: { type: "boolean", default: true },
        default: { type: "string" },
        options: {
          type: "array",
          items: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 2 },
        },
      },
      required: ["type", "name", "label", "options"],
      additionalProperties: false,
    },
  ],
} as const;

const DATE = "^\\d{4}-\\d{2}-\\d{2}$";

export const publicationSchema = {
  type: "object",
  required: ["name", "description", "owner_email", "delivered_on", "editions"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    name: { type: "string", minLength: 1 },
    description: { type: "string" },
    owner_email: { type: "string", pattern: "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$" },
    delivered_on: { type: "string", minLength: 1 },
    publication_api_version: { type: "string", default: "1.0" },
    external_configuration: { type: "boolean", default: false },
    charset: { type: "string", default: "utf-8" },
    icon: { type: "string", minLength: 1 },
    url: { type: "string", pattern: "^https?://[^/\\s]+" },
    strict_variables: { type: "boolean", default: true },
    end_notice: { type: "boolean", default: true },
    markdown: {
      type: "object",
      additionalProperties: false,
      properties: { breaks: { type: "boolean", default: false } },
      default: {},
    },
    editions: {
      type: "object",
      required: ["by"],
      additionalProperties: false,
      properties: {
        by: { enum: EDITIONS_BY },
        ends: { type: "boolean", default: false },
        sample: { type: ["integer", "string"] },
        // Recurring editions (lib/model/recurrence.ts): edition.md rendered for each date the rule names.
        every: {
          anyOf: [{ enum: ["day", "weekday", "hour"] }, { type: "array", items: { enum: WEEKDAY_NAMES }, minItems: 1 }],
        },
        from: { type: "string", pattern: DATE },
        until: { type: "string", pattern: DATE },
        ahead: { type: "integer", minimum: 1 },
      },
      dependencies: { from: ["every"], until: ["every"], ahead: ["every"] },
    },
    config: {
      type: "object",
      additionalProperties: false,
      properties: { fields: { type: "array", items: choiceOrText, default: [] } },
      default: {},
    },
  },
} as const;

/** What to tell an author who left out a required field. */
export const REQUIRED_HINTS: Record<string, string> = {
  name: 'add "name": the publication\'s display name',
  description: 'add "description": one or two sentences (<strong>, <em>, <br> and <a> allowed)',
  owner_email: 'add "owner_email": the address the platform can reach you at',
  delivered_on: 'add "delivered_on": free text such as "Every morning"',
  editions: 'add "editions": { "by": "delivery_count" } (or local_date, utc_date, utc_hour)',
  by: 'add "by": one of ' + EDITIONS_BY.join(", "),
  options: 'add "options": a list of [label, value] pairs',
  every:
    'add "every": "day", "weekday", or a list of days such as ["monday", "thursday"] ' +
    '(docs/data-and-recurring-editions.md: "Recurring editions")',
};
