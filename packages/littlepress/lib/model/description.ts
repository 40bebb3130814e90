import { NodeType, parse, type HTMLElement, type Node } from "node-html-parser";
import { escapeHtml } from "./html-escape.ts";

/** The only tags the platform shows in a publication's description. */
export const DESCRIPTION_TAGS = new Set(["strong", "em", "br", "a"]);

/** Tags in a description the platform would not show (for the build's print checks). */
export function disallowedTags(description: string): string[] {
  const found = new Set<string>();
  for (const el of parse(description).querySelectorAll("*")) {
    const tag = el.rawTagName?.toLowerCase();
    if (tag && !DESCRIPTION_TAGS.has(tag)) found.add(tag);
  }
  return [...found];
}

/**
 * The description as the platform would show it: the allowed tags kept (links
 * only to http, https and mailto), every other tag dropped with its text kept.
 */
export function renderDescription(description: string): string {
  return parse(description).childNodes.map(renderNode).join("");
}

function renderNode(node: Node): string {
  if (node.nodeType === NodeType.TEXT_NODE) return escapeHtml(node.text);
  if (node.nodeType !== NodeType.ELEMENT_NODE) return "";
  const el = node as HTMLElement;
  const tag = el.rawTagName?.toLowerCase() ?? "";
  const inner = el.childNodes.map(renderNode).join("");
  if (tag === "br") return "<br>";
  if (tag === "strong" || tag === "em") return `<${tag}>${inner}</${tag}>`;
  if (tag === "a") {
    const href = el.getAttribute("href") ?? "";
    return /^(https?:|mailto:)/i.test(href) ? `<a href="${escapeHtml(href)}">${inner}</a>` : inner;
  }
  return inner;
}
