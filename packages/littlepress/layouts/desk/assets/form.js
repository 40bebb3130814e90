// The subscriber form, built from meta.json the way the platform builds it:
// one control per config field (text, select, radio), submitted to
// validate_config/ as a form post with one field, `config`, holding the JSON
// text of {name: value}. On valid: false the platform shows a general alert,
// then each error text beside the field whose label it starts with.
import { code, h, replace } from "./dom.js";
import { isObject } from "./meta.js";
import { loadSettings, saveSettings } from "./settings.js";

/**
 * @typedef {import("./meta.js").Field} Field
 * @typedef {ReturnType<typeof fieldControl>} Control
 */

/**
 * @param {{
 *   slot: HTMLElement, slug: string, base: URL, meta: import("./meta.js").Meta, defaults: Record<string, string>
 * }} options (defaults: each choice's default, by name, which the form preselects as the platform does)
 */
export function setupForm({ slot, slug, base, meta, defaults }) {
  if (meta.fields.length === 0) {
    replace(
      slot,
      h(
        "p",
        { class: "notice notice-quiet", id: "settings-none" },
        "This publication asks its subscribers for nothing: " +
          "there is nothing to set, and the simulator sends no settings.",
      ),
    );
    return;
  }

  const saved = loadSettings(slug)?.values ?? {};
  // What the form shows first: the value saved for the simulator, else the setting's default.
  const controls = meta.fields.map((field, i) => fieldControl(field, i, saved[field.name] ?? defaults[field.name]));
  const result = h("div", {
    class: "notice",
    id: "settings-result",
    role: "status",
    "aria-live": "polite",
    "aria-atomic": "true",
  });
  const button = h("button", { type: "submit", class: "button button-primary" }, "Check and save settings");
  const form = h(
    "form",
    { class: "platform-form", id: "settings-form", novalidate: true, "aria-labelledby": "subscribe-title" },
    result,
    controls.map((c) => c.wrapper),
    h(
      "div",
      { class: "actions" },
      button,
      h("span", { class: "hint" }, "Sends ", code("config"), " to ", code("validate_config/"), "."),
    ),
  );
  replace(slot, form);

  let busy = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void check();
  });

  /** Sends the values to validate_config/ and shows the answer (once at a time). */
  async function check() {
    if (busy) return;
    busy = true;
    for (const c of controls) c.setErrors([]);
    result.className = "notice";
    replace(result, "Asking validate_config/ …");
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus.
    form.setAttribute("aria-busy", "true");
    button.setAttribute("aria-disabled", "true");
    try {
      /** @type {Record<string, string>} */
      const values = {};
      for (const c of controls) {
        const value = c.value();
        if (value !== undefined) values[c.field.name] = value;
      }
      const answer = await validate(base, values);
      if (answer.kind === "valid") {
        const stored = saveSettings(slug, values);
        showSaved(result, meta.fields, values, stored);
      } else if (answer.kind === "invalid") {
        showErrors(result, controls, answer.errors);
      } else {
        result.className = "notice notice-error";
        replace(result, h("strong", {}, "The desk could not check these settings. "), answer.problem);
      }
    } finally {
      form.removeAttribute("aria-busy");
      button.removeAttribute("aria-disabled");
      busy = false;
    }
  }
}

/**
 * One form control for a field, with its error slot.
 * @param {Field} field
 * @param {number} index
 * @param {string | undefined} savedValue the value saved, or the default
 */
function fieldControl(field, index, savedValue) {
  const id = `cfg-${index}`;
  const errorBox = h("div", { class: "field-error", id: `${id}-error`, hidden: true });
  /** @type {(HTMLInputElement | HTMLSelectElement)[]} */
  let inputs;
  /** @type {HTMLElement} */
  let wrapper;
  /** @type {() => string | undefined} */
  let value;

  if (field.type === "select") {
    const select = h(
      "select",
      { id, name: field.name },
      field.options.map(([label, optionValue]) => h("option", { value: optionValue }, label)),
    );
    if (savedValue !== undefined && field.options.some(([, v]) => v === savedValue)) select.value = savedValue;
    inputs = [select];
    value = () => select.value;
    wrapper = h(
      "div",
      { class: "field", dataset: { field: field.name } },
      h("label", { for: id }, field.label),
      select,
      errorBox,
    );
  } else if (field.type === "radio") {
    const radios = field.options.map(([, optionValue], j) =>
      h("input", {
        type: "radio",
        id: `${id}-${j}`,
        name: field.name,
        value: optionValue,
        checked: savedValue === optionValue,
      }),
    );
    inputs = radios;
    value = () => radios.find((input) => input.checked)?.value;
    wrapper = h(
      "fieldset",
      { class: "field field-radios", dataset: { field: field.name } },
      h("legend", {}, field.label),
      h(
        "div",
        { class: "radios" },
        field.options.map(([label], j) =>
          h("label", { class: "radio", for: `${id}-${j}` }, radios[j], h("span", {}, label)),
        ),
      ),
      errorBox,
    );
  } else {
    const input = h("input", { type: "text", id, name: field.name, spellcheck: "false" });
    if (savedValue !== undefined) input.value = savedValue;
    inputs = [input];
    value = () => input.value;
    const note =
      field.type === "text"
        ? null
        : h(
            "p",
            { class: "hint" },
            "meta.json gives the type ",
            code(field.type),
            ", which the desk does not know: it is shown as a text field.",
          );
    wrapper = h(
      "div",
      { class: "field", dataset: { field: field.name } },
      h("label", { for: id }, field.label),
      input,
      note,
      errorBox,
    );
  }

  return {
    field,
    wrapper,
    inputs,
    value,
    /**
     * Shows the error texts beside the field (none clears them).
     * @param {string[]} texts
     */
    setErrors(texts) {
      replace(
        errorBox,
        texts.map((t) => h("p", {}, t)),
      );
      errorBox.hidden = texts.length === 0;
      wrapper.classList.toggle("field-invalid", texts.length > 0);
      for (const input of inputs) {
        if (texts.length) {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", errorBox.id);
        } else {
          input.removeAttribute("aria-invalid");
          input.removeAttribute("aria-describedby");
        }
      }
    },
  };
}

/**
 * Posts the config as the platform does and reads the answer.
 * @param {URL} base
 * @param {Record<string, string>} values
 * @returns {Promise<{kind: "valid"} | {kind: "invalid", errors: string[]} | {kind: "problem", problem: string}>}
 */
async function validate(base, values) {
  let res;
  try {
    res = await fetch(new URL("validate_config/", base), {
      method: "POST",
      // A URLSearchParams body is sent as application/x-www-form-urlencoded;charset=UTF-8.
      body: new URLSearchParams({ config: JSON.stringify(values) }),
      cache: "no-store",
    });
  } catch (error) {
    return {
      kind: "problem",
      problem: `validate_config/ could not be reached (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  const text = await res.text();
  /** @type {unknown} */
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { kind: "problem", problem: `validate_config/ answered ${res.status} with something that is not JSON.` };
  }
  if (!isObject(data))
    return { kind: "problem", problem: `validate_config/ answered ${res.status} with JSON that is not an object.` };
  if (data.valid === true) return { kind: "valid" };
  if (data.valid === false) {
    if (!Array.isArray(data.errors) || data.errors.length === 0)
      return { kind: "problem", problem: "validate_config/ said valid: false but gave no errors to show." };
    const errors = data.errors.map((e) => (typeof e === "string" ? e : JSON.stringify(e)));
    return { kind: "invalid", errors };
  }
  return {
    kind: "problem",
    problem: `"valid" must be true or false, and validate_config/ sent ${JSON.stringify(data.valid) ?? "nothing"}.`,
  };
}

/**
 * The field an error text is about: the longest label it starts with, followed by ":".
 * @param {Control[]} controls
 * @param {string} text
 */
function fieldOf(controls, text) {
  /** @type {Control | undefined} */
  let best;
  for (const c of controls) {
    if (text.startsWith(`${c.field.label}:`) && (!best || c.field.label.length > best.field.label.length)) best = c;
  }
  return best;
}

/**
 * The answer valid: false, each error beside its field, the others in the alert.
 * @param {HTMLElement} result
 * @param {Control[]} controls
 * @param {string[]} errors
 */
function showErrors(result, controls, errors) {
  /** @type {Map<Control, string[]>} */
  const byField = new Map();
  /** @type {string[]} */
  const general = [];
  for (const text of errors) {
    const control = fieldOf(controls, text);
    if (control) byField.set(control, [...(byField.get(control) ?? []), text]);
    else general.push(text);
  }
  for (const [control, texts] of byField) control.setErrors(texts);
  result.className = "notice notice-error form-alert";
  const marked = byField.size;
  replace(
    result,
    h("strong", {}, "These settings were not accepted."),
    " ",
    marked ? `${marked === 1 ? "One field is" : `${marked} fields are`} marked below.` : "",
    general.length
      ? h(
          "ul",
          { class: "alert-list" },
          general.map((t) => h("li", {}, t)),
        )
      : null,
  );
  const first = controls.find((c) => byField.has(c));
  first?.inputs[0]?.focus();
}

/**
 * The answer valid: true, and the values now saved.
 * @param {HTMLElement} result
 * @param {Field[]} fields
 * @param {Record<string, string>} values
 * @param {boolean} stored whether the browser stored them
 */
function showSaved(result, fields, values, stored) {
  result.className = "notice notice-ok";
  const shown = fields.filter((f) => values[f.name] !== undefined);
  replace(
    result,
    h("strong", {}, "Accepted."),
    stored
      ? " Saved in this browser for the simulator: "
      : " Kept for the simulator until you leave this page (this browser would not store them): ",
    shown.length
      ? shown.map((f, i) => {
          const value = values[f.name] ?? "";
          return [i ? ", " : "", `${f.label} `, code(value === "" ? '""' : value)];
        })
      : "no values",
    ".",
  );
}
