import type { ContentProblem } from "./content-error.ts";

/**
 * Subscriber settings, declared by the author under `config.fields`. The
 * platform builds its subscription form from them and sends the values back as
 * query parameters on every `/edition/` request.
 */
export type ConfigField = TextField | ChoiceField;

/** One choice of a select or radio field: what the subscriber sees, and the value sent. */
export type FieldOption = [label: string, value: string];

interface FieldBase {
  /** Query-parameter name and key in the submitted config. */
  name: string;
  /** Shown on the form, and at the start of every error text about this field. */
  label: string;
  /** Kit key: must a value be given? Default true. */
  required: boolean;
  /** Kit key: used when a value is missing or unusable (a browser view, say). */
  default?: string;
}

/** Free text. It cannot be listed, so editions leave a slot that the router fills. */
export interface TextField extends FieldBase {
  type: "text";
  min_length?: number;
  max_length?: number;
  /** A regular expression the whole value must match. */
  pattern?: string;
  /** Shown when `pattern` does not match, after the label. */
  pattern_message?: string;
}

/** A fixed list of values: every edition is prebuilt once per value. */
export interface ChoiceField extends FieldBase {
  type: "select" | "radio";
  options: FieldOption[];
}

/** A field as the spec defines it, which is all meta.json may show. */
export interface SpecField {
  type: string;
  name: string;
  label: string;
  options?: FieldOption[];
}

export const isChoice = (f: ConfigField): f is ChoiceField => f.type !== "text";

/** The free-text fields, in field order: the ones whose values fill slots at request time. */
export const textFields = (fields: readonly ConfigField[]): TextField[] =>
  fields.filter((f): f is TextField => !isChoice(f));

export function specField(f: ConfigField): SpecField {
  return isChoice(f)
    ? { type: f.type, name: f.name, label: f.label, options: f.options }
    : { type: f.type, name: f.name, label: f.label };
}

/** Parameters the platform itself sends; a field may not take their names. */
export const RESERVED_NAMES = new Set(["local_delivery_time", "delivery_count"]);
// Letters, digits and underscores, starting with a letter: needs no encoding in
// a query string and can be written `config.<name>` in a template.
const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const OBJECT_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The value a missing or unusable setting falls back to. */
export function fallbackValue(f: ConfigField): string {
  if (f.default !== undefined) return f.default;
  return isChoice(f) ? f.options[0]![1] : "";
}

/** Adds one problem about the field being checked: `field` is the key under it (".name"). */
type Add = (field: string, problem: string, fix: string) => void;

/** Checks what the JSON schema cannot: names, duplicates, defaults. */
export function checkFields(fields: ConfigField[], file: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const add: Add = (field, problem, fix) =>
      problems.push({ file, field: `config.fields[${i}]${field}`, problem, fix });
    checkName(f.name, seen, add);
    seen.add(f.name);
    if (isChoice(f)) checkChoice(f, add);
    else checkText(f, add);
  });
  return problems;
}

/** A field's name: safe in a query string and a template, not the platform's, not taken. */
function checkName(name: string, seen: ReadonlySet<string>, add: Add): void {
  if (!SAFE_NAME.test(name) || OBJECT_KEYS.has(name)) {
    add(
      ".name",
      `"${name}" is not a safe query-parameter name`,
      "use letters, digits and _ only, starting with a letter (for example `lang`)",
    );
  } else if (RESERVED_NAMES.has(name)) {
    add(".name", `"${name}" is a parameter the platform sends itself`, "choose another name");
  }
  if (seen.has(name)) add(".name", `two fields are named "${name}"`, "give every field its own name");
}

/** A select or radio: some options, each value once, a default among them. */
function checkChoice(f: ChoiceField, add: Add): void {
  if (f.options.length === 0)
    add(
      ".options",
      `a ${f.type} field needs options`,
      'list them as [label, value] pairs, for example [["English", "en"], ["Français", "fr"]]',
    );
  const values = new Set<string>();
  f.options.forEach(([, value], j) => {
    if (values.has(value))
      add(`.options[${j}]`, `the value "${value}" is listed twice`, "give every option its own value");
    values.add(value);
  });
  if (f.default !== undefined && !values.has(f.default)) {
    add(
      ".default",
      `the default "${f.default}" is not one of the option values`,
      `use one of: ${[...values].join(", ")}`,
    );
  }
}

/** A text field: a pattern that compiles, lengths in order. */
function checkText(f: TextField, add: Add): void {
  if (f.pattern !== undefined) {
    try {
      new RegExp(f.pattern, "u");
    } catch {
      // The engine's message names no field; the problem below does, with what to do.
      add(
        ".pattern",
        `"${f.pattern}" is not a valid regular expression`,
        "correct the pattern (JavaScript syntax, matched against the whole value)",
      );
    }
  }
  if (f.min_length !== undefined && f.max_length !== undefined && f.min_length > f.max_length) {
    add(
      ".min_length",
      `min_length ${f.min_length} is larger than max_length ${f.max_length}`,
      "make min_length the smaller of the two",
    );
  }
}
