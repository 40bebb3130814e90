// A publication's card and its subscriber form, built from meta.json's
// config.fields as the platform built it: text fields, selects and radios,
// each with the errors validate_config/ gave for it beside it, the others
// above the form after a generic alert (the spec's table).
import type { SpecField } from "../../../lib/model/config-fields.ts";
import { escapeHtml as e } from "../../../lib/model/html-escape.ts";
import type { SubscriptionRow } from "../home-jobs.ts";
import type { Preview } from "../previews.ts";
import type { PublicationCard } from "../publications.ts";
import { form, layout } from "./views.ts";

export interface FormState {
  values: Record<string, string>;
  /** Errors by field name ("hour", "zone" and the publication's fields). */
  byField: Map<string, string[]>;
  rest: string[];
}

const beside = (state: FormState, name: string) =>
  (state.byField.get(name) ?? [])
    .map((t) => `<span class="err field-error" data-field="${e(name)}">${e(t)}</span>`)
    .join(" ");

function fieldHtml(f: SpecField, state: FormState): string {
  const value = state.values[f.name] ?? "";
  const id = `setting-${f.name}`;
  if (f.type === "select" && f.options)
    return `<label>${e(f.label)} <select name="setting_${e(f.name)}" id="${e(id)}">${f.options
      .map(([label, v]) => `<option value="${e(v)}"${v === value ? " selected" : ""}>${e(label)}</option>`)
      .join("")}</select> ${beside(state, f.name)}</label>`;
  if (f.type === "radio" && f.options)
    return `<fieldset><legend>${e(f.label)}</legend>${f.options
      .map(
        ([label, v]) =>
          `<label><input type="radio" name="setting_${e(f.name)}" value="${e(v)}"` +
          `${v === value ? " checked" : ""}> ${e(label)}</label>`,
      )
      .join("")} ${beside(state, f.name)}</fieldset>`;
  const input = `<input name="setting_${e(f.name)}" id="${e(id)}" value="${e(value)}">`;
  return `<label>${e(f.label)} ${input} ${beside(state, f.name)}</label>`;
}

/** A preview's picture, as printed, or what it says instead. */
export const previewHtml = (preview: Preview) =>
  "png" in preview
    ? `<figure class="preview"><img class="print" src="data:image/png;base64,${preview.png.toString("base64")}"
 alt="${e(preview.said)}"><figcaption>${e(preview.said)}</figcaption></figure>`
    : `<p class="preview">${e(preview.said)}</p>`;

export function previewPage(printer: { id: string; name: string }, row: SubscriptionRow, preview: Preview): string {
  const back = `<p><a href="/printers/${e(printer.id)}">Back to ${e(printer.name)}</a></p>`;
  return layout(`${row.name}: the next edition`, `${previewHtml(preview)}${back}`);
}

export function subscribePage(
  csrf: string,
  printer: { id: string; name: string },
  card: PublicationCard,
  state: FormState,
  shown?: Preview,
): string {
  const alert =
    state.byField.size || state.rest.length ? `<p class="err" role="alert">Some settings need another look.</p>` : "";
  const rest = state.rest.map((t) => `<p class="err">${e(t)}</p>`).join("");
  const hour = Number(state.values.hour ?? 7);
  const hours = Array.from(
    { length: 24 },
    (_, h) => `<option value="${h}"${h === hour ? " selected" : ""}>${String(h).padStart(2, "0")}:00</option>`,
  );
  const inner = `<input type="hidden" name="url" value="${e(card.base.href)}">
${card.fields.map((f) => fieldHtml(f, state)).join("\n")}
<label>Delivery time <select name="hour">${hours.join("")}</select> ${beside(state, "hour")}</label>
<label>Time zone <input name="zone" value="${e(state.values.zone ?? "")}"> ${beside(state, "zone")}</label>
<button>Subscribe ${e(printer.name)}</button>`;
  const icon = card.icon ? `<img src="${card.icon}" alt="" width="55" height="55">` : "";
  return layout(
    card.name,
    `<section class="card publication">${icon}<p class="description">${card.description}</p>
<p><code>${e(card.base.href)}</code></p>${shown ? previewHtml(shown) : ""}</section>${alert}${rest}
${form(`/printers/${printer.id}/subscribe`, csrf, inner)}`,
  );
}
