// Where the build refuses a text setting: changed before it was printed, or
// printed where escaping does not make a subscriber's value safe.
import { textFields, type ConfigField } from "../model/config-fields.ts";
import { CLOSE, SLOT } from "../model/text-slots.ts";
import { exactPlaces, treePlaces, type SlotPlace } from "./slot-places.ts";

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
  'a link, a script or a style cannot be made from a text setting (docs/settings.md: "Text settings")';

const TEXT_SETTING_FIX =
  "print text settings as they are; conditions and filters are for select and radio " +
  '(docs/settings.md: "Text settings")';

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
 * plain-text attribute, as a browser reads the page (slot-places.ts): from the
 * tree alone where that tells, with source locations where it does not (a
 * slot in a plain-text attribute, whose quotes the tree does not keep). A page
 * with <noscript> is read with scripts and without (its contents are text one
 * way and markup the other), and a slot must be safe both ways.
 */
function misplacedSlots(html: string, textNames: Set<string>): SlotMisuse[] {
  const problems: SlotMisuse[] = [];
  for (const scripting of /<noscript/i.test(html) ? [true, false] : [true]) {
    let places = treePlaces(html, textNames, scripting);
    if (!places || places.some((p) => p.in === "attribute" && TEXT_ATTRIBUTE.test(p.attribute)))
      places = exactPlaces(html, textNames, scripting);
    for (const place of places) {
      const problem = misplaced(place);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

/** The problem with a slot where it is; undefined where it is safe. */
function misplaced(place: SlotPlace): SlotMisuse | undefined {
  const setting = `the text setting \`${place.name}\``;
  const field = `config.${place.name}`;
  if (place.in === "comment") return undefined;
  if (place.in === "text") {
    if (!TEXT_CONTENTS.has(place.element)) return undefined;
    const problem = `${setting} is printed inside <${place.element}>, where it cannot be escaped safely`;
    return { field, problem, fix: PLACE_FIX };
  }
  if (place.in === "attribute" && !TEXT_ATTRIBUTE.test(place.attribute))
    return { field, problem: `${setting} is printed in ${refused(place.attribute, place.tag)}`, fix: PLACE_FIX };
  if (place.in === "attribute" && place.quoted) return undefined;
  return {
    field,
    problem:
      `${setting} is printed inside a tag without quotes (<${place.tag}>), ` +
      "where a space in it would start another attribute",
    fix: `write it in a quoted ${TEXT_ATTRIBUTES} attribute, as in title="{{ ${field} }}", or in the page text`,
  };
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
