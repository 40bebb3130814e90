import { describeAjvError } from "./ajv-problems.ts";
import type { CharsetCodec } from "./charset.ts";
import { checkFields, type ConfigField } from "./config-fields.ts";
import { uniqueProblems, type ContentProblem } from "./content-error.ts";
import type { EditionsBy } from "./edition-key.ts";
import { publicationSchema, REQUIRED_HINTS } from "./publication-schema.ts";
import { validatePublication } from "./publication-validator.ts";
import { SAFE_SLUG } from "./site-paths.ts";
import { checkRecurrence, WEEKDAY_NAMES, type Recurrence } from "./recurrence.ts";

/** A publication's settings, read from content/<slug>/publication.json with defaults filled in. */
export interface Publication {
  /** Folder name under content/, and the first segment of every URL it serves. */
  slug: string;
  name: string;
  /** May contain only <strong>, <em>, <br> and <a>. */
  description: string;
  owner_email: string;
  /** Free text telling subscribers when deliveries happen. */
  delivered_on: string;
  publication_api_version: string;
  external_configuration: boolean;
  /** Character set of every edition, named in Content-Type and used to encode the body. */
  charset: string;
  editions: {
    by: EditionsBy;
    /** A finite series: past its last edition the router answers 410. */
    ends: boolean;
    /** Key of the edition shown at /sample/, as the author wrote it; the first edition when absent. */
    sample?: string | number;
  } & Partial<Recurrence>;
  /** Image for icon.png, relative to the publication's folder; `icon.png` there when absent. */
  icon?: string;
  /** Where the site is deployed, when this publication's differs from content/site.json's. */
  url?: string;
  /** An unknown variable in an edition's Liquid fails the build (the default), or prints as nothing (false). */
  strict_variables: boolean;
  /**
   * When a subscription ends because the series is over (410), its printer
   * prints one short slip saying so and where to subscribe again (true, the
   * default, which the checks fill in; absent reads as true), or nothing (false).
   */
  end_notice?: boolean;
  /** How editions' Markdown is read: `breaks` prints a line break inside a paragraph as one (poems, addresses). */
  markdown: { breaks: boolean };
  /** Subscriber settings, in form order. */
  fields: ConfigField[];
}

const RESERVED_SLUGS = new Set(["edition", "validate_config", "sample", "meta.json", "icon.png"]);

const EVERY = "/editions/every";
const BAD_EVERY = {
  problem: `must be "day", "weekday", "hour" or a list of days (${WEEKDAY_NAMES.join(", ")})`,
  fix:
    'write for example "every": "weekday" or "every": ["monday", "thursday"] ' +
    '(docs/data-and-recurring-editions.md: "Recurring editions")',
};

/** What the checks found: the publication with its defaults filled in, or every problem. */
export type CheckedPublication = { publication: Publication } | { problems: ContentProblem[] };

/** Whether a folder name can be a publication's slug (a URL segment of its own); problems name `file`. */
export function checkSlug(slug: string, file: string): ContentProblem[] {
  if (SAFE_SLUG.test(slug) && !RESERVED_SLUGS.has(slug)) return [];
  const problem = `the folder name "${slug}" cannot be used in a URL`;
  const fix = "rename the folder with lowercase letters, digits and dashes (for example `morning-tales`)";
  return [{ file, field: "", problem, fix }];
}

/**
 * Checks the parsed JSON of `file`, a publication.json: the schema, then what
 * it cannot say (fields, charset: one `codec` can encode).
 */
export function checkPublication(
  slug: string,
  raw: unknown,
  file: string,
  codec: Pick<CharsetCodec, "encodingExists">,
): CheckedPublication {
  if (!validatePublication(raw)) {
    const errors = validatePublication.errors ?? [];
    const problems = errors
      .filter((e) => e.keyword !== "oneOf" && e.keyword !== "if" && !e.instancePath.startsWith(EVERY))
      .map((e) => ({ file, ...describeAjvError(e, REQUIRED_HINTS, publicationSchema) }));
    // Its two forms each say what is wrong in their own terms: one sentence says both.
    if (errors.some((e) => e.instancePath.startsWith(EVERY)))
      problems.push({ file, field: "editions.every", ...BAD_EVERY });
    return { problems: uniqueProblems(problems) };
  }
  const json = raw as Omit<Publication, "slug" | "fields"> & { config: { fields: ConfigField[] } };
  const problems = checkFields(json.config.fields, file);
  if (json.editions.every !== undefined)
    problems.push(...checkRecurrence(json.editions.by, json.editions as Recurrence, file, json.editions.ends));
  if (!codec.encodingExists(json.charset)) {
    problems.push({
      file,
      field: "charset",
      problem: `"${String(json.charset)}" is not a character set littlepress can encode`,
      fix: 'use "utf-8" (or a standard name such as "shift_jis", "windows-1251")',
    });
  }
  if (problems.length) return { problems };
  const { config, $schema: _schema, ...settings } = json as typeof json & { $schema?: string };
  return {
    publication: {
      slug,
      ...settings,
      charset: json.charset.toLowerCase(),
      fields: config.fields.map((f) => ({ ...f, required: f.required ?? true })),
    },
  };
}
