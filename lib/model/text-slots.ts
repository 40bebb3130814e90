import { textFields, type ConfigField } from "./config-fields.ts";
import { filledEtag } from "./etag.ts";
import { scanHtml } from "./html-scan.ts";

// A text value cannot be listed, so editions are built with a marker where the
// template prints it, and the router swaps in the subscriber's value, escaped.
// The brackets are U+27E6/U+27E7: untouched by Markdown and by HTML escaping.
const OPEN = "\u27E6littlepress:";
const CLOSE = "\u27E7";
const SLOT = /\u27E6littlepress:([A-Za-z][A-Za-z0-9_]*)\u27E7/g;

/** What a template sees as `config.<name>` for a text field while the edition is built. */
export const slotToken = (name: string) => `${OPEN}${name}${CLOSE}`;

export const hasSlots = (html: string) => html.includes(OPEN);

/** The page with every slot marker taken out: each text value counted as empty (the build's length estimate). */
export const withoutSlots = (html: string) => (hasSlots(html) ? html.replace(SLOT, "") : html);

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

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

/** A text setting used where the build refuses it: which (`config.<name>`, or `config`), the problem, the fix. */
export interface SlotMisuse {
  field: string;
  problem: string;
  fix: string;
}

/**
 * The attributes a text setting may be printed in, quoted: plain text that
 * the browser shows or keeps, never follows, runs or styles with. Every other
 * attribute is refused (an allow-list: a URL, a script, CSS or a page of HTML
 * can hide in many attributes, and escaping keeps a value inside its quotes
 * but cannot stop it meaning something there).
 */
const TEXT_ATTRIBUTE = /^(?:title|alt|class|placeholder|aria-[a-z]+|data-[a-z0-9_.-]+)$/;
const TEXT_ATTRIBUTES = "title, alt, class, placeholder, aria-* or data-*";

/** Attributes that hold a URL, named as such in the problem (any other is refused all the same). */
const URL_ATTRIBUTES = new Set([
  ...["href", "src", "srcset", "action", "formaction", "xlink:href", "poster", "data", "background", "cite"],
  ...["longdesc", "ping", "manifest", "codebase", "archive", "classid", "icon", "lowsrc", "dynsrc", "usemap"],
  ...["profile", "itemtype", "itemid", "imagesrcset", "xml:base"],
]);

const PLACE_FIX =
  `print it in the page text, or in a quoted ${TEXT_ATTRIBUTES} attribute; ` +
  'a link, a script or a style cannot be made from a text setting (README: "Subscriber settings")';

const TEXT_SETTING_FIX =
  'print text settings as they are; conditions and filters are for select and radio (README: "Subscriber settings")';

/**
 * Finds text values a template did more with than print, or printed where
 * escaping does not make them safe: a filter or slice leaves a mangled
 * marker; inside <script> or <style>, loose in a tag or in an unquoted value,
 * and in an attribute that is not plain text (a URL, an event handler,
 * `style`, `srcdoc` …) a subscriber's value could be code. One problem per
 * setting and place.
 */
export function slotMisuse(html: string, fields: ConfigField[]): SlotMisuse[] {
  const problems: SlotMisuse[] = [];
  const textNames = new Set(textFields(fields).map((f) => f.name));
  const intact = html.replace(SLOT, (whole, name: string) => (textNames.has(name) ? "" : whole));
  if (/littlepress:/i.test(intact) || intact.includes("\u27E6") || intact.includes(CLOSE)) {
    problems.push({
      field: "config",
      problem:
        "a text setting was changed by a filter, a slice or a data file's function before it was printed; " +
        "text settings can only be printed as they are, with {{ config.<name> }}",
      fix: TEXT_SETTING_FIX,
    });
  }
  if (intact.length < html.length) problems.push(...misplacedSlots(html, textNames));
  return [...new Map(problems.map((p) => [`${p.field}\u0000${p.problem}`, p])).values()];
}

/**
 * Every slot of a text setting where it is not text in the page or a quoted
 * plain-text attribute. The page is read both as HTML and as SVG or MathML
 * content (html-scan.ts), and a slot must be safe both ways.
 */
function misplacedSlots(html: string, textNames: Set<string>): SlotMisuse[] {
  const slots = [...html.matchAll(SLOT)].filter((m) => textNames.has(m[1]!));
  const problems: SlotMisuse[] = [];
  for (const foreign of [false, true]) {
    const page = scanHtml(html, { foreign });
    for (const slot of slots) {
      const name = slot[1]!;
      const at = slot.index;
      const setting = `the text setting \`${name}\``;
      const field = `config.${name}`;
      const contents = containing(page.contents, at);
      if (contents && TEXT_CONTENTS.has(contents.element)) {
        problems.push({
          field,
          problem: `${setting} is printed inside <${contents.element}>, where it cannot be escaped safely`,
          fix: PLACE_FIX,
        });
        continue;
      }
      const tag = contents ? undefined : containing(page.tags, at);
      if (!tag) continue;
      const attribute = tag.attributes.find((a) => a.valueStart <= at && at < a.valueEnd);
      if (attribute && !TEXT_ATTRIBUTE.test(attribute.name)) {
        problems.push({
          field,
          problem: `${setting} is printed in ${refused(attribute.name, tag.name)}`,
          fix: PLACE_FIX,
        });
      } else if (!attribute || !attribute.quote) {
        problems.push({
          field,
          problem:
            `${setting} is printed inside a tag without quotes (<${tag.name}>), ` +
            "where a space in it would start another attribute",
          fix: `write it in a quoted ${TEXT_ATTRIBUTES} attribute, as in title="{{ ${field} }}", or in the page text`,
        });
      }
    }
  }
  return problems;
}

/** Contents where a slot is refused: a script or a style sheet. */
const TEXT_CONTENTS = new Set(["script", "style"]);

/** The attribute a slot was found in, and why it may not hold one. */
function refused(attribute: string, tag: string): string {
  const where = `the ${attribute} attribute of <${tag}>`;
  if (/^on/.test(attribute)) return `${where}, an event handler: a subscriber's value would run as JavaScript`;
  if (attribute === "srcdoc") return `${where}, which is a page of HTML: a subscriber's value would become markup`;
  if (attribute === "style") return `${where}, which is CSS: a subscriber's value could load a URL with url(…)`;
  if (URL_ATTRIBUTES.has(attribute))
    return `${where}, which holds a URL: a subscriber could type a javascript: URL, and escaping does not stop it`;
  return `${where}, which may not hold a text setting (only ${TEXT_ATTRIBUTES} attributes may)`;
}

/** The one of `spans` (in order, not overlapping) that holds position `at`. */
function containing<T extends { start: number; end: number }>(spans: T[], at: number): T | undefined {
  let [low, high] = [0, spans.length - 1];
  while (low <= high) {
    const mid = (low + high) >> 1;
    const span = spans[mid]!;
    if (at < span.start) high = mid - 1;
    else if (at >= span.end) low = mid + 1;
    else return span;
  }
  return undefined;
}
