// Where things are in a page as a browser's HTML tokenizer reads it (WHATWG
// HTML, "Tokenization"): its tags, their attributes (name, value, quotes), and
// the elements whose contents are read as text rather than markup. Enough for
// the build to tell where a piece of the page lands (a text setting's slot, an
// event handler), not a parser: no tree, no character references.

/** One attribute of a tag. */
export interface ScannedAttribute {
  /** ASCII lower-cased, as the tokenizer makes it (`onclick`, `xlink:href`). */
  name: string;
  nameStart: number;
  nameEnd: number;
  /** `"` or `'` for a quoted value, "" for an unquoted one, undefined for an attribute without a value. */
  quote: '"' | "'" | "" | undefined;
  /** Where the value is, without its quotes (at nameEnd, empty, for an attribute without a value). */
  valueStart: number;
  valueEnd: number;
}

/** One tag, `<p class="x">` or `</p>`. */
export interface ScannedTag {
  /** ASCII lower-cased. */
  name: string;
  closing: boolean;
  /** From its `<` to after its `>` (to the page's end for a tag the page does not finish). */
  start: number;
  end: number;
  attributes: ScannedAttribute[];
}

/** The contents of an element that are read as text, not markup: `<script>`, `<style>`, `<title>` … */
export interface ScannedContents {
  element: string;
  start: number;
  end: number;
}

export interface ScannedPage {
  /** In the page's order. */
  tags: ScannedTag[];
  contents: ScannedContents[];
}

/** Elements whose contents are text in any case here (in SVG they are markup, but a scan cannot tell). */
const TEXT_ELEMENTS = new Set(["script", "style"]);
/** Elements whose contents are text in HTML, and markup inside <svg> or <math>. */
const HTML_TEXT_ELEMENTS = new Set(["title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript"]);

/**
 * The tags of a page and the contents read as text. A page means one thing
 * in HTML and another inside `<svg>` or `<math>` (foreign content), and a
 * scan does not follow the tree: `foreign` reads it all as foreign content,
 * where `<title>`, `<textarea>`, `<iframe>`, `<noscript>` … hold markup and
 * `<![CDATA[…]]>` is text. Where it matters, scan the page both ways.
 * `<script>` and `<style>` are read as text both ways.
 */
export function scanHtml(html: string, { foreign = false }: { foreign?: boolean } = {}): ScannedPage {
  const tags: ScannedTag[] = [];
  const contents: ScannedContents[] = [];
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    if (lt < 0) break;
    const next = html.charCodeAt(lt + 1);
    if (isLetter(next) || (next === SLASH && isLetter(html.charCodeAt(lt + 2)))) {
      const tag = readTag(html, lt);
      tags.push(tag);
      at = tag.end;
      if (tag.closing) continue;
      if (tag.name === "plaintext" && !foreign) {
        contents.push({ element: tag.name, start: at, end: html.length });
        break;
      }
      if (TEXT_ELEMENTS.has(tag.name) || (!foreign && HTML_TEXT_ELEMENTS.has(tag.name))) {
        const end = tag.name === "script" ? scriptEnd(html, at) : endTag(html, tag.name, at);
        contents.push({ element: tag.name, start: at, end });
        at = end;
      }
    } else if (next === BANG) {
      if (html.startsWith("--", lt + 2)) at = commentEnd(html, lt + 4);
      else if (foreign && html.startsWith("[CDATA[", lt + 2)) at = after(html, "]]>", lt + 9);
      else at = after(html, ">", lt + 2); // a doctype, or a bogus comment
    } else if (next === SLASH || next === QUESTION) {
      at = after(html, ">", lt + 2); // "</>" is dropped; "</3" and "<?xml" are bogus comments
    } else {
      at = lt + 1; // a "<" in the text
    }
  }
  return { tags, contents };
}

const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const GT = 0x3e;
const EQUALS = 0x3d;

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** Tab, line feed, form feed, carriage return (a line feed once the input is read) and space. */
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const lowerAscii = (text: string) => text.replace(/[A-Z]+/g, (c) => c.toLowerCase());

/** Where `text` ends after `from`, or the page's end. */
function after(html: string, text: string, from: number): number {
  const i = html.indexOf(text, from);
  return i < 0 ? html.length : i + text.length;
}

/** A comment's end, from just after its `<!--`: `-->` or `--!>`, and `<!-->` and `<!--->` end at once. */
function commentEnd(html: string, from: number): number {
  if (html.startsWith(">", from)) return from + 1;
  if (html.startsWith("->", from)) return from + 2;
  return Math.min(after(html, "-->", from), after(html, "--!>", from));
}

/** A tag from its `<`: the tokenizer's tag name, attribute name and attribute value states. */
function readTag(html: string, lt: number): ScannedTag {
  const closing = html.charCodeAt(lt + 1) === SLASH;
  const n = html.length;
  let i = lt + (closing ? 2 : 1);
  const nameStart = i;
  while (i < n && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== SLASH && html.charCodeAt(i) !== GT) i++;
  const tag: ScannedTag = { name: lowerAscii(html.slice(nameStart, i)), closing, start: lt, end: n, attributes: [] };
  while (i < n) {
    const c = html.charCodeAt(i);
    // A "/" not followed by ">" is read as if it were a space.
    if (isSpace(c) || c === SLASH) {
      i++;
      continue;
    }
    if (c === GT) {
      tag.end = i + 1;
      return tag;
    }
    // An attribute's name: its first character may be anything else, "=" too.
    const nameStart = i++;
    while (i < n) {
      const d = html.charCodeAt(i);
      if (isSpace(d) || d === SLASH || d === GT || d === EQUALS) break;
      i++;
    }
    const attribute: ScannedAttribute = {
      name: lowerAscii(html.slice(nameStart, i)),
      nameStart,
      nameEnd: i,
      quote: undefined,
      valueStart: i,
      valueEnd: i,
    };
    tag.attributes.push(attribute);
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (html.charCodeAt(i) !== EQUALS) continue;
    i++;
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    const quote = html[i];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, i + 1);
      Object.assign(attribute, { quote, valueStart: i + 1, valueEnd: close < 0 ? n : close });
      i = close < 0 ? n : close + 1;
    } else {
      // Unquoted: up to a space or ">" (a ">" right after "=" leaves the value empty).
      const start = i;
      while (i < n && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== GT) i++;
      Object.assign(attribute, { quote: "", valueStart: start, valueEnd: i });
    }
  }
  return tag;
}

const endTags = new Map<string, RegExp>();

/** Where the contents of a text element end: at its own end tag, `</name` followed by a space, "/" or ">". */
function endTag(html: string, name: string, from: number): number {
  const re = endTags.get(name) ?? endTags.set(name, new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, "gi")).get(name)!;
  re.lastIndex = from;
  return re.exec(html)?.index ?? html.length;
}

const SCRIPT_TOKENS = /<!(?=--)|-->|<\/script(?=[\t\n\f\r />])|<script(?=[\t\n\f\r />])/gi;

/**
 * Where a script's contents end: at `</script`, except inside `<!-- … -->`
 * after a `<script` there, where `</script` only closes that (the tokenizer's
 * script data escaped and double escaped states).
 */
function scriptEnd(html: string, from: number): number {
  let state: "data" | "escaped" | "double" = "data";
  SCRIPT_TOKENS.lastIndex = from;
  for (let m = SCRIPT_TOKENS.exec(html); m; m = SCRIPT_TOKENS.exec(html)) {
    const token = m[0].toLowerCase();
    if (token === "<!") {
      if (state === "data") state = "escaped";
    } else if (token === "-->") {
      state = "data";
    } else if (token === "<script") {
      if (state === "escaped") state = "double";
    } else if (state === "double") {
      state = "escaped";
    } else {
      return m.index;
    }
  }
  return html.length;
}
