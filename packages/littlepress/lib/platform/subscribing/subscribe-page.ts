// The subscribe page of a publication, as HTML: the form the platform built
// from meta.json (print key, time zone, delivery hour, the publication's own
// settings), the platform's alert and error texts, and the pages after
// subscribing and unsubscribing. Everything shown from outside is escaped;
// the print key is never written back into a page.
import type { SpecField } from "../../model/config-fields.ts";
import { pad } from "../../model/dates.ts";
import { renderDescription } from "../../model/description.ts";
import { printerName } from "../../model/printer-name.ts";
import { escapeHtml } from "../../model/html-escape.ts";

/**
 * A setting as the page shows it: meta.json's field, and the default the built publication gives
 * a select or radio (meta.json carries none, as the spec has none), which the page preselects.
 */
export type PageField = SpecField & { default?: string };

/** What the page needs of meta.json. */
export interface PageMeta {
  name: string;
  description: string;
  fields: PageField[];
  /** When it is delivered ("every day", "on Mondays"; lib/model/schedule.ts), from its built editions. */
  schedule: string;
}

/** What the subscriber typed, to fill the form again after a refusal (never the print key). */
export interface FormValues {
  zone: string;
  hour: string;
  settings: Record<string, string>;
}

export const SETTING_PREFIX = "config.";

const shell = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body { font: 17px/1.5 system-ui, sans-serif; max-width: 36em; margin: 2em auto; padding: 0 1em; color: #111; }
label { display: block; font-weight: 600; margin-top: 1em; }
input, select { font: inherit; width: 100%; box-sizing: border-box; padding: .3em; }
input[type=radio] { width: auto; }
.hint { color: #555; font-size: .9em; margin: .2em 0 0; }
.alert { border: 2px solid #b00; padding: .5em 1em; }
.alert li { color: #b00; }
.done { border: 2px solid #070; padding: .5em 1em; }
button { font: inherit; margin-top: 1.5em; padding: .4em 1.2em; }
code { word-break: break-all; }
</style>
</head>
<body>
${body}
</body>
</html>
`;

/** The form, empty or filled again with `values` and the platform's alert and `errors`. */
export function subscribeForm(meta: PageMeta, values?: FormValues, errors: string[] = []): string {
  const v: FormValues = values ?? { zone: "", hour: "6", settings: {} };
  const alert = errors.length
    ? `<div class="alert" role="alert"><p><strong>Some of your answers need changing:</strong></p><ul>${errors
        .map((e) => `<li>${escapeHtml(e)}</li>`)
        .join("")}</ul></div>`
    : "";
  const hours = Array.from(
    { length: 24 },
    (_, h) => `<option value="${h}"${String(h) === v.hour ? " selected" : ""}>${pad(h)}:00</option>`,
  ).join("");
  // A subscriber who leaves a choice as it is gets its default, as an edition request without the value does.
  const settings = meta.fields.map((f) => settingInput(f, v.settings[f.name] ?? chosen(f))).join("\n");
  return shell(
    `Subscribe to ${meta.name}`,
    `<h1>Subscribe to ${escapeHtml(meta.name)}</h1>
<p>${renderDescription(meta.description)}</p>
${alert}
<form method="post">
<input type="hidden" name="action" value="subscribe">
<label for="print_key">Your printer's print key URL</label>
<input id="print_key" name="print_key" type="text" inputmode="url" autocomplete="off" spellcheck="false" required
 placeholder="https://device.li/…">
<p class="hint">From your printer's page on its sirius server. It is kept encrypted and never shown again.</p>
<label for="zone">Time zone</label>
<input id="zone" name="zone" type="text" value="${escapeHtml(v.zone)}" placeholder="Europe/London" required>
<label for="hour">Delivery time</label>
<select id="hour" name="hour">${hours}</select>
<p class="hint">${escapeHtml(meta.name)} is delivered ${escapeHtml(meta.schedule)}, at this hour.</p>
${settings}
<button type="submit">Subscribe</button>
</form>
<script>
// The printer's zone is most likely this browser's.
const zone = document.getElementById("zone");
if (!zone.value) zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
</script>`,
  );
}

/** The option a choice shows before the subscriber picks one: its default when it is one of the options. */
function chosen(f: PageField): string {
  const values = (f.options ?? []).map(([, value]) => value);
  return f.default !== undefined && values.includes(f.default) ? f.default : (values[0] ?? "");
}

function settingInput(f: PageField, value: string): string {
  const name = escapeHtml(SETTING_PREFIX + f.name);
  const id = `setting-${escapeHtml(f.name)}`;
  const label = escapeHtml(f.label);
  const options = f.options ?? [];
  if (f.type === "radio") {
    const radios = options
      .map(
        ([text, v], i) =>
          `<label><input type="radio" name="${name}" value="${escapeHtml(v)}"${
            v === value || (!value && i === 0) ? " checked" : ""
          }> ${escapeHtml(text)}</label>`,
      )
      .join("");
    return `<fieldset><legend>${label}</legend>${radios}</fieldset>`;
  }
  if (options.length) {
    const choices = options
      .map(
        ([text, v]) => `<option value="${escapeHtml(v)}"${v === value ? " selected" : ""}>${escapeHtml(text)}</option>`,
      )
      .join("");
    return `<label for="${id}">${label}</label><select id="${id}" name="${name}">${choices}</select>`;
  }
  const input = `<input id="${id}" name="${name}" type="text" value="${escapeHtml(value)}">`;
  return `<label for="${id}">${label}</label>${input}`;
}

/**
 * After subscribing: the private link, shown once. A printer offline just now
 * is said so, with what happens then: a subscriber who sees nothing print
 * would otherwise think the subscription had failed.
 */
export function subscribedPage(
  meta: PageMeta,
  printer: { name: string; offline: boolean },
  link: string,
  when: string,
): string {
  const name = escapeHtml(printerName(printer.name));
  const offline = printer.offline
    ? `\n<p>${name} is offline just now: it will print ${escapeHtml(meta.name)} once it is back online.</p>`
    : "";
  return shell(
    `Subscribed to ${meta.name}`,
    `<h1>Subscribed to ${escapeHtml(meta.name)}</h1>
<div class="done" role="status">
<p>${name} will print ${escapeHtml(meta.name)} ${escapeHtml(when)}.</p>${offline}
</div>
<p>Keep this private link: it is the only way to unsubscribe, and it is not shown again.</p>
<p><code>${escapeHtml(link)}</code></p>`,
  );
}

/** The confirmation step of an unsubscribe link (a GET never unsubscribes: link previews follow links). */
export function unsubscribeForm(meta: PageMeta, id: string, token: string): string {
  return shell(
    `Unsubscribe from ${meta.name}`,
    `<h1>Unsubscribe from ${escapeHtml(meta.name)}?</h1>
<form method="post">
<input type="hidden" name="action" value="unsubscribe">
<input type="hidden" name="id" value="${escapeHtml(id)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

/** A page with one message: unsubscribed, a dead link, a refusal. */
export function messagePage(title: string, message: string): string {
  return shell(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
