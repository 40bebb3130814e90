// The edition pages of a build, rendered: from Eleventy's results, or, under
// `npm start`, from the memory of an earlier build for a page whose inputs
// are unchanged (render-memory.ts).
import type { EditionPage } from "./edition-pages.ts";
import type { RenderedEdition } from "./pack.ts";
import type { RenderMemory } from "./render-memory.ts";
import type { EditionSource, PublicationSource } from "./site.ts";

/** What Eleventy hands the eleventy.after event for each page it wrote. */
export interface RenderResult {
  url: string;
  content: string;
}

/**
 * Every edition page, rendered: from Eleventy's results, or from the memory of
 * an earlier build for a page not rendered again. By publication, in the
 * pages' order (variant by variant, editions in key order), whatever order
 * Eleventy rendered them in. The memory is brought up to date.
 */
export function renderedEditions(
  pages: Map<string, EditionPage>,
  results: RenderResult[],
  memory?: RenderMemory,
): Map<string, RenderedEdition[]> {
  const fresh = new Map(results.map((r) => [r.url, r.content]));
  const byPublication = new Map<string, RenderedEdition[]>();
  for (const [url, page] of pages) {
    const html = fresh.get(url) ?? memory?.pages.get(url)?.html;
    if (html === undefined) continue;
    if (memory && fresh.has(url)) memory.pages.set(url, { inputs: pageInputs(page), html });
    const list = byPublication.get(page.pub.slug) ?? byPublication.set(page.pub.slug, []).get(page.pub.slug)!;
    list.push({ source: page.source.file, key: page.key, variant: page.variant, html });
  }
  if (memory) for (const url of memory.pages.keys()) if (!pages.has(url)) memory.pages.delete(url);
  return byPublication;
}

/** The pages whose inputs differ from those the memory rendered them from (all of them, with an empty memory). */
export function changedPages(pages: Map<string, EditionPage>, memory: RenderMemory): Map<string, EditionPage> {
  return new Map([...pages].filter(([url, page]) => !sameInputs(memory.pages.get(url)?.inputs, pageInputs(page))));
}

/** Part by part: an unchanged edition's part is the very string, compared at once, never joined to the rest. */
const sameInputs = (a: readonly string[] | undefined, b: readonly string[]) =>
  a !== undefined && a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * All a page is rendered from, besides the layouts and the site's data: the
 * edition's source, the variant, and its publication's settings (what the
 * templates see is made from these alone).
 */
function pageInputs(page: EditionPage): string[] {
  let settings = publicationInputs.get(page.pub);
  if (settings === undefined) {
    const { editions, ...rest } = page.pub;
    publicationInputs.set(page.pub, (settings = JSON.stringify([rest, editions.by])));
  }
  let edition = editionInputs.get(page.source);
  if (edition === undefined) editionInputs.set(page.source, (edition = JSON.stringify(page.source)));
  let variant = variantInputs.get(page.variant);
  if (variant === undefined) variantInputs.set(page.variant, (variant = JSON.stringify(page.variant)));
  return [settings, edition, variant];
}

/** A variant's part, written once a build for all its pages. */
const variantInputs = new WeakMap<EditionPage["variant"], string>();
/** A publication's part of its pages' inputs, written once a build, not once a page. */
const publicationInputs = new WeakMap<PublicationSource, string>();
/**
 * An edition's part, written once for each of its pages and, under `npm start`, once for as
 * long as its file is unchanged (the memory keeps the edition a file gave: site.ts's `read`).
 */
const editionInputs = new WeakMap<EditionSource, string>();
