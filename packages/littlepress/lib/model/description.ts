// A publication's description, as the platform shows it (the subscribe page)
// and the build checks it. Read with parse5, the kit's one HTML parser (the
// WHATWG algorithm a browser follows: lib/build/page-tree.ts reads the
// editions with it too).
import { parseFragment, type DefaultTreeAdapterTypes as T } from "parse5";
import { escapeHtml } from "./html-escape.ts";

/** The only tags the platform shows in a publication's description. */
export const DESCRIPTION_TAGS = new Set(["strong", "em", "br", "a"]);

/** Tags in a description the platform would not show (for the build's print checks). */
export function disallowedTags(description: string): string[] {
  const found = new Set<string>();
  const visit = (node: T.ParentNode) => {
    for (const child of childrenOf(node)) {
      if (!("tagName" in child)) continue;
      const tag = child.tagName.toLowerCase();
      if (!DESCRIPTION_TAGS.has(tag)) found.add(tag);
      visit(child);
    }
  };
  visit(parseFragment(description));
  return [...found];
}

/**
 * The description as the platform would show it: the allowed tags kept (links
 * only to http, https and mailto), every other tag dropped with its text kept.
 */
export function renderDescription(description: string): string {
  return childrenOf(parseFragment(description)).map(renderNode).join("");
}

/** A node's children; a <template>'s are in its content. */
const childrenOf = (node: T.ParentNode): T.ChildNode[] => ("content" in node ? node.content : node).childNodes;

function renderNode(node: T.ChildNode): string {
  if (node.nodeName === "#text") return escapeHtml((node as T.TextNode).value);
  if (!("tagName" in node)) return ""; // a comment
  const tag = node.tagName.toLowerCase();
  const inner = childrenOf(node).map(renderNode).join("");
  if (tag === "br") return "<br>";
  if (tag === "strong" || tag === "em") return `<${tag}>${inner}</${tag}>`;
  if (tag === "a") {
    const href = node.attrs.find((a) => a.name === "href" && !a.prefix)?.value ?? "";
    return /^(https?:|mailto:)/i.test(href) ? `<a href="${escapeHtml(href)}">${inner}</a>` : inner;
  }
  return inner;
}
