import { textFields, type ConfigField } from "./config-fields.ts";
import { filledEtag } from "./etag.ts";
import { escapeHtml } from "./html-escape.ts";

// A text value cannot be listed, so editions are built with a marker where the
// template prints it, and the router swaps in the subscriber's value, escaped.
// The brackets are U+27E6/U+27E7: untouched by Markdown and by HTML escaping.
const OPEN = "\u27E6littlepress:";
export const CLOSE = "\u27E7";
export const SLOT = /\u27E6littlepress:([A-Za-z][A-Za-z0-9_]*)\u27E7/g;

/** What a template sees as `config.<name>` for a text field while the edition is built. */
export const slotToken = (name: string) => `${OPEN}${name}${CLOSE}`;

export const hasSlots = (html: string) => html.includes(OPEN);

/** The page with every slot marker taken out: each text value counted as empty (the build's length estimate). */
export const withoutSlots = (html: string) => (hasSlots(html) ? html.replace(SLOT, "") : html);

/**
 * Fills every slot with its value, HTML-escaped (safe in text and in the
 * quoted attributes slotMisuse lets through). The marker's brackets are
 * escaped too, so a value can never pass for a slot.
 */
export function fillSlots(html: string, values: ReadonlyMap<string, string>): string {
  return html.replace(SLOT, (_, name: string) => slotText(values.get(name) ?? ""));
}

/** A text value as it goes into a slot: HTML-escaped, the slot brackets too. */
export const slotText = (value: string) =>
  escapeHtml(value).replace(/[\u27E6\u27E7]/g, (c) => `&#x${c.codePointAt(0)!.toString(16)};`);

/** A page cut at its slots: `pieces` has one more entry than `names`, the text before each slot and after the last. */
export interface CutPage {
  pieces: string[];
  names: string[];
}

/**
 * Cuts a page at its slots, for a server that keeps the fixed text encoded
 * and fills only the values per request: joining the pieces with each
 * name's slotText is fillSlots' page.
 */
export function cutAtSlots(html: string): CutPage {
  const pieces: string[] = [];
  const names: string[] = [];
  let at = 0;
  for (const m of html.matchAll(SLOT)) {
    pieces.push(html.slice(at, m.index));
    names.push(m[1]!);
    at = m.index + m[0].length;
  }
  pieces.push(html.slice(at));
  return { pieces, names };
}

/** A prebuilt copy of an edition as the router picked it: its HTML, its ETag, whether it has slots. */
export interface PickedCopy {
  key: string;
  html: string;
  etag: string;
  slots: boolean;
}

/**
 * The page one subscriber gets, and its ETag: the copy's slots filled with
 * their text values (every text field's, "" for one not given), the ETag
 * derived from the copy's and those values. A copy without slots is served as
 * it was built. The one place a 200 answer is finished.
 */
export function finishEdition(copy: PickedCopy, fields: readonly ConfigField[], values: ReadonlyMap<string, string>) {
  if (!copy.slots) return { html: copy.html, etag: copy.etag };
  const text = textValues(fields, values);
  return { html: fillSlots(copy.html, new Map(text)), etag: filledEtag(copy.key, copy.etag, text) };
}

/** finishEdition's ETag alone, for a server that fills the page itself (cutAtSlots). */
export function finishedEtag(copy: PickedCopy, fields: readonly ConfigField[], values: ReadonlyMap<string, string>) {
  return copy.slots ? filledEtag(copy.key, copy.etag, textValues(fields, values)) : copy.etag;
}

/** Every text field's value, "" for one not given, in field order. */
const textValues = (fields: readonly ConfigField[], values: ReadonlyMap<string, string>) =>
  textFields(fields).map((f): [string, string] => [f.name, values.get(f.name) ?? ""]);
