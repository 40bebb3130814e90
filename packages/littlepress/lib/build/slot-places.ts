// Where a text setting's slots land as a browser reads the page: in text (and
// inside which element), in a comment, in an attribute's value (quoted or not)
// or loose in a tag. Read from parse5's tree (page-tree.ts), so that the slot
// checks see what Chromium sees. Two readings: the tree alone, which is quick
// but cannot tell an attribute's quotes, and the tree with source locations,
// which can, at about three times the cost.
import type { DefaultTreeAdapterTypes as T } from "parse5";
import { SLOT } from "../model/text-slots.ts";
import { isElement, isText, parsePage, walk, type PageElement } from "./page-tree.ts";

/** Where one slot is. `quoted` is undefined where the reading cannot tell. */
export type SlotPlace = { name: string } & (
  | { in: "text"; element: string }
  | { in: "comment" }
  | { in: "attribute"; tag: string; attribute: string; quoted?: boolean }
  | { in: "tag"; tag: string }
);

/** The slots of the settings `names` as found in the tree, each once; undefined where they cannot all be found. */
export function treePlaces(html: string, names: Set<string>, scripting: boolean): SlotPlace[] | undefined {
  const places: SlotPlace[] = [];
  const slots = (text: string) => [...text.matchAll(SLOT)].map((m) => m[1]!).filter((n) => names.has(n));
  walk(parsePage(html, { scripting }), (node, parent) => {
    if (isText(node)) for (const name of slots(node.value)) places.push({ name, in: "text", element: tagOf(parent) });
    else if (node.nodeName === "#comment")
      for (const name of slots((node as T.CommentNode).data)) places.push({ name, in: "comment" });
    else if (isElement(node)) {
      const tag = tagOf(node);
      for (const a of node.attrs) {
        const attribute = a.prefix ? `${a.prefix}:${a.name}` : a.name.toLowerCase();
        for (const name of slots(a.name)) places.push({ name, in: "tag", tag });
        for (const name of slots(a.value)) places.push({ name, in: "attribute", tag, attribute });
      }
    }
    return true;
  });
  // A slot the tree dropped (in an end tag), copied (a misnested <b>) or made (from &#x27e6;…) is not found once.
  return places.length === slots(html).length ? places : undefined;
}

/** The slots of the settings `names` by where they are in the source, read with source locations. */
export function exactPlaces(html: string, names: Set<string>, scripting: boolean): SlotPlace[] {
  const spans: Span[] = [];
  collect(parsePage(html, { locations: true, scripting }), html, spans);
  return [...html.matchAll(SLOT)].filter((m) => names.has(m[1]!)).map((m) => placeAt(spans, m[1]!, m.index, html));
}

/** A stretch of the source: text or a comment, or a tag with where its attributes' values start. */
type Span = { start: number; end: number } & (
  | { in: "text"; element: string }
  | { in: "comment" }
  | { in: "tag"; tag: string; attributes: { name: string; valueStart: number; end: number; quote: string }[] }
);

/** The name of an element, lower-cased (SVG's are camel-cased: foreignObject); "" for the document. */
const tagOf = (node: T.ParentNode) => (isElement(node) ? node.tagName.toLowerCase() : "");

function collect(root: T.ParentNode, html: string, spans: Span[]) {
  walk(root, (node, parent) => {
    const at = node.sourceCodeLocation;
    if (isText(node) && at)
      spans.push({ in: "text", element: tagOf(parent), start: at.startOffset, end: at.endOffset });
    else if (node.nodeName === "#comment" && at)
      spans.push({ in: "comment", start: at.startOffset, end: at.endOffset });
    else if (isElement(node)) tagSpans(node, html, spans);
    return true;
  });
}

/** An element's start and end tags (an element the parser made up, as <tbody>, has neither). */
function tagSpans(el: PageElement, html: string, spans: Span[]) {
  const tag = el.tagName.toLowerCase();
  const { startTag, endTag, attrs } = el.sourceCodeLocation ?? {};
  if (startTag) {
    const attributes = Object.values(attrs ?? {}).map((a) => sourceAttribute(html, a.startOffset, a.endOffset));
    spans.push({ in: "tag", tag, attributes, start: startTag.startOffset, end: startTag.endOffset });
  }
  if (endTag) spans.push({ in: "tag", tag, attributes: [], start: endTag.startOffset, end: endTag.endOffset });
}

/**
 * An attribute from its source, `name`, `name=value`, `name = "value"`: the
 * tokenizer's attribute name state (its first character may be "=") and the
 * value states after it.
 */
function sourceAttribute(html: string, start: number, end: number) {
  const m = /^(.[^\t\n\f\r />=]*)[\t\n\f\r ]*(?:=[\t\n\f\r ]*(["']?))?/s.exec(html.slice(start, end))!;
  const valueStart = m[2] === undefined ? end : start + m[0].length;
  return { name: m[1]!.toLowerCase(), valueStart, end, quote: m[2] ?? "" };
}

/**
 * The place of the slot of `name` at `at`. One in no span is where the browser
 * drops what is written (a second <body>'s attributes, a doctype): read as
 * loose in the tag before it.
 */
function placeAt(spans: Span[], name: string, at: number, html: string): SlotPlace {
  const span = spans.find((p) => p.start <= at && at < p.end);
  if (span?.in === "text") return { name, in: "text", element: span.element };
  if (span?.in === "comment") return { name, in: "comment" };
  const tag = span?.tag ?? /<\/?([a-z][^\t\n\f\r />]*)[^<]*$/i.exec(html.slice(0, at))?.[1]?.toLowerCase() ?? "!";
  const attribute = span?.attributes.find((a) => a.valueStart <= at && at < a.end);
  if (!attribute) return { name, in: "tag", tag };
  return { name, in: "attribute", tag, attribute: attribute.name, quoted: attribute.quote !== "" };
}
