// An edition's page as a browser reads it: parse5, which follows the WHATWG
// HTML parsing algorithm, so that the build's checks see the tags, scripts and
// handlers that Chromium will (node-html-parser missed `<svg/onload=…>`, a
// script's `<!-- <script>` escapes, `<title>` text and more; a hand-written
// reader of "tidy" pages saved a little time and was a second parser to keep
// true). The kit's one HTML parser: the print checks, the slot checks, the
// length estimate, the images (edition-images.ts) and the description
// (lib/model/description.ts) all read with it.
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";

export type PageNode = T.ChildNode;
export type PageElement = T.Element;

/**
 * The page's tree. `locations` adds where each tag, attribute and text is in
 * the source (it costs about twice the time: the slot checks and the images need it).
 * `scripting: false` reads `<noscript>` as a browser without scripts does: as markup.
 */
export function parsePage(html: string, { locations = false, scripting = true } = {}): T.Document {
  return parse(html, { sourceCodeLocationInfo: locations, scriptingEnabled: scripting });
}

export const isElement = (node: PageNode | T.ParentNode): node is PageElement => "tagName" in node;
export const isText = (node: PageNode): node is T.TextNode => node.nodeName === "#text";

/** An attribute's value, or undefined. Names as the parser gives them: lower-cased. */
export function attribute(el: PageElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name && !a.prefix)?.value;
}

/** A node's children; a <template>'s are in its content. */
export function childrenOf(node: T.ParentNode): PageNode[] {
  return "content" in node ? node.content.childNodes : node.childNodes;
}

/**
 * Visits every node under `root` in the page's order (inside <template> too).
 * `enter` returns a value to go into an element's children, and `leave` gets
 * it back after them. Without recursion: a page may nest thousands deep (a
 * browser's DOM is as deep as the tags go; Chromium's alone stops at 512).
 */
export function walk<V>(
  root: T.ParentNode,
  enter: (node: PageNode, parent: T.ParentNode) => V | undefined,
  leave?: (value: V) => void,
): void {
  const stack: { parent: T.ParentNode; children: PageNode[]; next: number; value?: V }[] = [
    { parent: root, children: childrenOf(root), next: 0 },
  ];
  while (stack.length) {
    const top = stack.at(-1)!;
    const node = top.children[top.next++];
    if (!node) {
      stack.pop();
      if (stack.length) leave?.(top.value!);
      continue;
    }
    const value = enter(node, top.parent);
    if (value !== undefined && isElement(node))
      stack.push({ parent: node, children: childrenOf(node), next: 0, value });
  }
}

/** Every element under `node`, in the page's order (inside <template> too). */
export function elements(node: T.ParentNode): PageElement[] {
  const found: PageElement[] = [];
  walk(node, (child) => {
    if (isElement(child)) found.push(child);
    return true;
  });
  return found;
}

/** The text inside an element, as written (a <style>'s style sheet, a <script>'s code). */
export const textOf = (el: PageElement): string =>
  childrenOf(el)
    .map((n) => (isText(n) ? n.value : ""))
    .join("");

/** What in a page's head could hide a `<style>` from a plain search, or make one that is not a style element. */
const HEAD_HAZARDS =
  /<!--|<!\[|<(?:script|template|svg|math|noscript|textarea|xmp|iframe|noembed|noframes|plaintext)[\s/>]/i;
const STYLE_START = /<style(?=[\s/>])[^>"']*>/gi;
const STYLE_END = /<\/style[\s/>]/i;
const TITLE = /<title(?=[\s/>])[^>]*>([^]*?)<\/title[\s/>]/gi;

/**
 * The page without the `<style>` elements of its head, and their style sheets,
 * in order; undefined when the head holds anything that makes a plain search
 * unsafe (a comment, a script, a `<title>` with markup in its text …): then
 * the page is parsed whole. The layout's CSS is most of an edition page's
 * bytes, the same on every page, and most of its parse: the length estimate
 * reads it from here and parses the rest.
 */
export function headStyles(html: string): { rest: string; sheets: string[] } | undefined {
  const bodyAt = html.search(/<body[\s/>]/i);
  if (bodyAt < 0) return undefined;
  const head = html.slice(0, bodyAt);
  if (HEAD_HAZARDS.test(head)) return undefined;
  for (const title of head.matchAll(TITLE)) if (title[1]!.includes("<")) return undefined;
  // Every style start tag must be one the search reads (no quotes in it), or the sheets' order would change.
  if (head.match(STYLE_START)?.length !== head.match(/<style[\s/>]/gi)?.length) return undefined;
  const sheets: string[] = [];
  let rest = "";
  let from = 0;
  for (const start of head.matchAll(STYLE_START)) {
    if (start.index < from) return undefined;
    const textAt = start.index + start[0].length;
    const end = STYLE_END.exec(head.slice(textAt));
    if (!end) return undefined;
    sheets.push(head.slice(textAt, textAt + end.index));
    const close = head.indexOf(">", textAt + end.index);
    if (close < 0) return undefined;
    rest += head.slice(from, start.index);
    from = close + 1;
  }
  return { rest: rest + html.slice(from), sheets };
}
