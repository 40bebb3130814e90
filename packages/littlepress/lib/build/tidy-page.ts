// The tree of a tidy page, read without parse5: one whose markup means the same
// to any reader, as an edition rendered from Markdown is (every element closed
// where it was opened, no tag a browser would close or move for the author, no
// comment, script, table or foreign content, only a few named characters). For
// such a page, the tree HTML's parsing algorithm builds is the tree of its tags
// as written, and building that is a search for the next "<" rather than
// parse5's state machine stepping through each character of the text (most of
// an edition). Anything else is undefined, and parse5 reads it: see
// page-tree.ts's parsePage. test/unit/tidy-page.test.ts checks the two trees
// are the same, on the fixtures' pages and on generated markup.
import { defaultTreeAdapter as tree, html, type DefaultTreeAdapterTypes as T } from "parse5";

/** Elements whose start tag closes an open <p> (the parsing algorithm's "close a p element"). */
const CLOSE_P = new Set(
  (
    "address article aside blockquote details dialog div dl fieldset figcaption figure footer header hgroup " +
    "main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre hr"
  ).split(" "),
);
/** Phrasing elements parsed as written, including the formatting ones (kept in order by the nesting rule). */
const INLINE = new Set(
  (
    "a abbr b bdi bdo big cite code data del dfn em font i ins kbd mark q s samp small span strike strong sub sup " +
    "time tt u var"
  ).split(" "),
);
const LIST_ITEMS: Record<string, string[]> = { li: ["ul", "ol"], dt: ["dl"], dd: ["dl"] };
const VOID = new Set(["br", "hr", "img", "wbr"]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const BODY = new Set([...CLOSE_P, ...INLINE, ...Object.keys(LIST_ITEMS), ...VOID]);
/** The named characters read here; any other `&` leaves the page to parse5. */
const CHARACTERS: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  "#39": "'",
  nbsp: "\u00a0",
};

// Whitespace in a tag is HTML's (tab, line feed, form feed, carriage return, space), not JavaScript's \s: a
// no-break space there belongs to a name or a value.
const TAG = new RegExp(
  String.raw`<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[\t\n\f\r ]+[^\t\n\f\r "'>/=]+` +
    String.raw`(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|[^\t\n\f\r "'=<>\x60]+))?)*)[\t\n\f\r ]*(\/?)>`,
  "y",
);
const ATTRIBUTE = new RegExp(
  String.raw`([^\t\n\f\r "'>/=]+)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r "'=<>\x60]+)))?`,
  "g",
);
const DOCTYPE = /^[\t\n\f\r ]*<!doctype html>/i;
const WHITESPACE = /^[ \t\n\f]*$/;
/** Where the parser ends a <style>'s raw text, and the end tag read here there (an odd one is left to the parser). */
const STYLE_ENDS = /<\/style[\t\n\f\r />]/gi;
const STYLE_END = /<\/style[\t\n\f\r ]*>/iy;

/** Text with its few named characters read, or undefined for a character the page's parser would read otherwise. */
function characters(text: string): string | undefined {
  if (text.includes("\0") || text.includes("\r")) return undefined;
  if (!text.includes("&")) return text;
  let bad = false;
  const read = text.replace(/&([a-z]+|#39);?/g, (all, name: string) => {
    const c = CHARACTERS[name];
    if (c === undefined || !all.endsWith(";")) bad = true;
    return c ?? "";
  });
  return bad || /&(?![a-z]+;|#39;)/.test(text) ? undefined : read;
}

function attributes(source: string): T.Element["attrs"] | undefined {
  const attrs: T.Element["attrs"] = [];
  if (!source) return attrs; // most tags of an edition
  for (const m of source.matchAll(ATTRIBUTE)) {
    const name = m[1]!.toLowerCase();
    const value = characters(m[2] ?? m[3] ?? m[4] ?? "");
    if (value === undefined || attrs.some((a) => a.name === name)) return undefined;
    attrs.push({ name, value });
  }
  return attrs;
}

/** Where the parser puts text in each part of the page: whitespace before <head> is dropped. */
type Part = "before head" | "head" | "title" | "after head" | "body" | "after body";

/** The page's tree as parse5 builds it (without source locations), or undefined when it is not a tidy page. */
export function tidyPage(page: string): T.Document | undefined {
  const doctype = DOCTYPE.exec(page);
  if (!doctype) return undefined;
  const document = tree.createDocument();
  tree.setDocumentType(document, "html", "", "");
  tree.setDocumentMode(document, html.DOCUMENT_MODE.NO_QUIRKS);
  let part = "before head" as Part; // (moved on by openTag and closeTag)
  let root: T.Element | undefined;
  let head: T.Element | undefined;
  let body: T.Element | undefined;
  let title: T.Element | undefined;
  const open: T.Element[] = []; // the body's elements still open, innermost last
  const text = (raw: string): boolean => {
    if (!raw) return true;
    const value = characters(raw);
    if (value === undefined) return false;
    const blank = WHITESPACE.test(value);
    if (part === "before head") return blank;
    if (part === "head") return blank && (tree.insertText(head!, value), true);
    if (part === "title") return (tree.insertText(title!, value), true);
    if (part === "after head") return blank && (tree.insertText(root!, value), true);
    if (part === "after body" && !blank) return false;
    tree.insertText(open.at(-1) ?? body!, value);
    return true;
  };
  let at = doctype[0].length;
  while (at < page.length) {
    const lt = page.indexOf("<", at);
    if (!text(page.slice(at, lt < 0 ? page.length : lt))) return undefined;
    if (lt < 0) break;
    TAG.lastIndex = lt;
    const tag = TAG.exec(page);
    if (!tag) return undefined;
    at = TAG.lastIndex;
    const [, end, rawName, rawAttrs, selfClosing] = tag;
    const name = rawName!.toLowerCase();
    const attrs = end ? [] : attributes(rawAttrs!);
    if (attrs === undefined || (end && (rawAttrs || selfClosing))) return undefined;
    if (selfClosing && !VOID.has(name) && name !== "meta") return undefined;
    const step = end ? closeTag(name) : openTag(name, attrs);
    if (!step) return undefined;
    if (name === "style" && !end) {
      // Its style sheet is raw text, to the first </style (most of an edition's page: its layout's CSS).
      STYLE_ENDS.lastIndex = at;
      const ends = STYLE_ENDS.exec(page)?.index ?? -1;
      STYLE_END.lastIndex = ends;
      const sheet = page.slice(at, ends);
      if (ends < 0 || !STYLE_END.test(page) || /[\0\r]/.test(sheet)) return undefined;
      if (sheet) tree.insertText(head!.childNodes.at(-1) as T.Element, sheet);
      at = STYLE_END.lastIndex;
    }
  }
  return part === "body" || part === "after body" ? (open.length ? undefined : document) : undefined;

  function openTag(name: string, attrs: T.Element["attrs"]): boolean {
    const element = tree.createElement(name, html.NS.HTML, attrs);
    if (part === "before head" && name === "html" && !root) {
      tree.appendChild(document, (root = element));
      return true;
    }
    if (part === "before head" && name === "head" && root) {
      tree.appendChild(root, (head = element));
      part = "head";
      return true;
    }
    if (part === "head" && (name === "meta" || name === "title" || name === "style")) {
      tree.appendChild(head!, element);
      if (name === "title") [part, title] = ["title", element];
      return true;
    }
    if (part === "after head" && name === "body") {
      tree.appendChild(root!, (body = element));
      part = "body";
      return true;
    }
    if (part !== "body" || !BODY.has(name)) return false;
    const parent = open.at(-1);
    const inside = (tag: string) => open.some((e) => e.tagName === tag);
    if (CLOSE_P.has(name) && inside("p")) return false;
    if (HEADINGS.has(name) && parent && HEADINGS.has(parent.tagName)) return false;
    if (name === "a" && inside("a")) return false;
    if (name === "pre" && page[TAG.lastIndex] === "\n") return false; // the parser drops that newline
    const items = LIST_ITEMS[name];
    if (items && !items.includes(parent?.tagName ?? "")) return false;
    tree.appendChild(parent ?? body!, element);
    if (!VOID.has(name)) open.push(element);
    return true;
  }

  function closeTag(name: string): boolean {
    if (part === "title" && name === "title") return ((part = "head"), true);
    if (part === "head" && name === "head") return ((part = "after head"), true);
    if (part === "body" && name === "body") return !open.length && ((part = "after body"), true);
    if (part === "after body" && name === "html") return true;
    if (part !== "body" || open.at(-1)?.tagName !== name) return false;
    open.pop();
    return true;
  }
}
