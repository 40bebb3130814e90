// Images in editions: resized to fit the paper, made greyscale, written next to
// the publication, and linked by absolute URL (the platform renders pages from
// another host). @11ty/eleventy-img does the image work.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type Image from "@11ty/eleventy-img";
import type { Sharp } from "sharp";
import { ContentError, type ContentProblem } from "../model/content-error.ts";
import { escapeHtml } from "../model/html-escape.ts";
import { PAPER_WIDTH_PX } from "../model/paper.ts";
import { hasSlots } from "../model/text-slots.ts";
import { attribute, elements, parsePage, type PageElement } from "./page-tree.ts";

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** eleventy-img's attribute for an <img> its HTML transform leaves alone (and removes). */
const IGNORED_BY_ELEVENTY_IMG = "eleventy:ignore";

export interface ImageTarget {
  /** The edition's Markdown file: relative image paths start from its folder. */
  source: string;
  /** The publication's folder: paths starting with / start there. */
  publicationDir: string;
  slug: string;
  /** The site's address, without a trailing slash. */
  siteUrl: string;
  /** The build's output folder. */
  output: string;
  /**
   * Images already processed in this build, by output folder and file. eleventy-img's own caches
   * live as long as the process and remember folders of an earlier build that
   * `npm start` has since replaced, so each build keeps its own.
   */
  done: Map<string, Promise<ImageStats>>;
}

type ImageStats = Record<string, { url: string; width: number; height: number }[]>;

/** Replaces every local <img> of an edition with its processed copy, at an absolute URL. */
export async function processImages(html: string, target: ImageTarget): Promise<string> {
  if (!html.includes("<img")) return html;
  // Loaded on the first image only: most editions have none, and it takes a tenth of a second.
  const { default: make } = await import("@11ty/eleventy-img");
  return rewriteImages(html, async (img) => {
    // Marked for the site's image transform to pass over (skipImageTransform), if no such transform removed it.
    const unmark = { [IGNORED_BY_ELEVENTY_IMG]: null };
    const src = attribute(img, "src");
    // A src with a text setting in it is no file: the build refuses it (slotMisuse) and says why.
    if (src === undefined || REMOTE.test(src) || hasSlots(src)) return unmark;
    const png = await processedImage(make, src, target);
    return { ...unmark, src: png.url, width: String(png.width), height: String(png.height) };
  });
}

/** The paper's copy of one image of an edition (made once a build), or the author's problem of a file unread. */
async function processedImage(make: ImageFunction, src: string, target: ImageTarget) {
  const file = src.startsWith("/")
    ? path.join(target.publicationDir, src)
    : path.resolve(path.dirname(target.source), src);
  const outputDir = path.join(target.output, target.slug, "img");
  try {
    const id = `${outputDir}\u0000${file}`;
    let pending = target.done.get(id);
    if (!pending) {
      await mkdir(outputDir, { recursive: true });
      pending = make(file, {
        widths: [PAPER_WIDTH_PX], // never wider than the paper; smaller images keep their size
        formats: ["png"],
        outputDir,
        urlPath: `${target.siteUrl}/${target.slug}/img/`,
        useCache: false,
        transform: (sharp: Sharp) => sharp.flatten({ background: "#ffffff" }).greyscale().toColourspace("b-w"),
      });
      target.done.set(id, pending);
    }
    const stats = await pending;
    // Without its cache, eleventy-img answers a missing file with no image rather than an error.
    if (!stats?.png?.[0]) throw new Error(existsSync(file) ? "no image came out of it" : `${file} does not exist`);
    return stats.png[0];
  } catch (e) {
    throw new ContentError([
      {
        file: target.source,
        field: `<img src="${src}">`,
        problem: `the image cannot be read: ${(e as Error).message.split("\n")[0]}`,
        fix:
          "put the image file next to the edition (a post's, next to the post) " +
          "(or give a path from the publication's folder starting with /)",
      },
    ]);
  }
}

type ImageFunction = typeof Image;

/** Attributes to set on an <img> (by name), or to remove (null). */
type ImageEdits = Record<string, string | null>;

/**
 * The page with each <img>'s attributes changed as `edit` says, in its start
 * tag as written: the tree (page-tree.ts, with source locations) finds the
 * images as a browser does, and everything else stays byte for byte.
 */
async function rewriteImages(html: string, edit: (img: PageElement) => ImageEdits | Promise<ImageEdits>) {
  const splices: Splice[] = [];
  for (const img of elements(parsePage(html, { locations: true }))) {
    if (img.tagName !== "img" || !img.sourceCodeLocation?.startTag) continue;
    splices.push(...tagSplices(html, img, await edit(img)));
  }
  let out = "";
  let at = 0;
  for (const splice of splices.sort((a, b) => a.start - b.start)) {
    out += html.slice(at, splice.start) + splice.text;
    at = splice.end;
  }
  return out + html.slice(at);
}

/** Text to put in place of the source from `start` to `end`. */
type Splice = { start: number; end: number; text: string };

/** An attribute replaced where it is, removed with the space before it, or added after the tag's last one. */
function tagSplices(html: string, img: PageElement, edits: ImageEdits): Splice[] {
  const { startTag, attrs = {} } = img.sourceCodeLocation!;
  const lastEnd = Math.max(startTag!.startOffset + "<img".length, ...Object.values(attrs).map((a) => a.endOffset));
  const splices: Splice[] = [];
  let added = "";
  for (const [name, value] of Object.entries(edits)) {
    const at = attrs[name];
    const written = value === null ? "" : `${name}="${escapeHtml(value)}"`;
    if (!at) added += written && ` ${written}`;
    else if (written) splices.push({ start: at.startOffset, end: at.endOffset, text: written });
    else splices.push({ start: html.slice(0, at.startOffset).trimEnd().length, end: at.endOffset, text: "" });
  }
  if (added) splices.push({ start: lastEnd, end: lastEnd, text: added });
  return splices;
}

/** Where one edition page's images are looked for, and the site address they are linked at. */
export interface PageImages {
  source: string;
  publicationDir: string;
  slug: string;
  url: { url: string; assumed: boolean };
}

/**
 * The editions' image transform: processImages on each edition page (`target`
 * is undefined for any other page), with this build's own record of the
 * images done; `assumedUrl` is the address images were linked to when it was
 * only assumed (assumedUrlWarnings).
 */
export function imageTransform(output: string, target: (url: string) => PageImages | undefined) {
  let assumedUrl: string | undefined;
  const done: ImageTarget["done"] = new Map();
  const transform = async (html: string, url: string): Promise<string> => {
    const page = target(url);
    if (!page) return html;
    const { source, publicationDir, slug } = page;
    const out = await processImages(html, { source, publicationDir, slug, siteUrl: page.url.url, output, done });
    if (page.url.assumed && out.includes(`${page.url.url}/`)) assumedUrl = page.url.url;
    return out;
  };
  return { transform, assumedUrl: () => assumedUrl };
}

/** The site's address for absolute URLs, and whether it is only assumed (a local build with no setting). */
export function siteUrl(settings: { publication?: string; site?: string }): { url: string; assumed: boolean } {
  const url = settings.publication ?? settings.site;
  if (url) return { url: url.replace(/\/+$/, ""), assumed: false };
  return { url: "http://127.0.0.1:8080", assumed: true };
}

/**
 * The warning that image URLs point at this machine, when that matters: in a
 * build to deploy (`npm run build`, on CI or not), where the printers'
 * renderer, on another host, would find no images. A build for a local server
 * (npm start, verify, the preview) is given that server's address and says
 * nothing.
 */
export function assumedUrlWarnings(assumedUrl: string | undefined, siteJson: string, deploy: boolean) {
  if (!assumedUrl || !deploy) return [] as ContentProblem[];
  const problem =
    `not set, so this build's images point at ${assumedUrl}, which only this machine can reach: ` +
    "a printer's renderer elsewhere (and npm run serve on another address) finds nothing there";
  // A blog's publications are set in its Eleventy config (siteJson names it), where each may have its own url.
  const where =
    path.basename(siteJson) === "site.json" ? "content/site.json" : `each of the plugin's posts in ${siteJson}`;
  const fix =
    `add "url": "https://<your site>" (the address printers reach the site at) to ${where}, ` +
    "or set URL for the build (Netlify's own builds set it); npm start builds for its own address";
  return [{ file: siteJson, field: "url", problem, fix } satisfies ContentProblem];
}

/** What the plugin needs of Eleventy's HTML transformer (eleventyConfig.htmlTransformer): its posthtml steps. */
interface HtmlTransformer {
  plugins: Record<string, { fn: unknown }[] | undefined>;
  addPosthtmlPlugin(
    extensions: string,
    plugin: (context: { page?: { url?: string } }) => (tree: PosthtmlTree) => PosthtmlTree,
    options: { priority: number; enabled: () => boolean },
  ): void;
}
interface PosthtmlTree {
  match(expression: { tag: string }, callback: (node: { attrs?: Record<string, string> }) => object): void;
}

/**
 * Keeps the site's own HTML image transform (eleventy-img's
 * eleventyImageTransformPlugin, as eleventy-base-blog adds it) off the edition
 * pages, whose images littlepress processes itself for the printer
 * (processImages: fitted to the paper, greyscale, at absolute URLs). That
 * transform would look for an edition's images beside the editions' own
 * template rather than the post, and make them <picture>s of AVIF and WebP at
 * URLs relative to the page. Each <img> of an edition page is marked
 * `eleventy:ignore` by a step that runs just before eleventy-img's (which
 * honours the mark and removes it); the step runs only when the site has such
 * steps of its own, so a site without them never parses its pages for it.
 * The desk's pages are passed over too: their icons are built files, not the input's.
 */
export function skipImageTransform(eleventyConfig: object, isKits: (url: string) => boolean): void {
  const transformer = (eleventyConfig as { htmlTransformer?: HtmlTransformer }).htmlTransformer;
  if (!transformer?.addPosthtmlPlugin) return;
  const mark = (context: { page?: { url?: string } }) => (tree: PosthtmlTree) => {
    if (!isKits(context.page?.url ?? "")) return tree;
    tree.match({ tag: "img" }, (node) => {
      node.attrs = { ...node.attrs, [IGNORED_BY_ELEVENTY_IMG]: "" };
      return node;
    });
    return tree;
  };
  const others = () => (transformer.plugins.html ?? []).some((p) => p.fn !== mark);
  // eleventy-img's step has priority -1; higher runs first.
  transformer.addPosthtmlPlugin("html", mark, { priority: 1, enabled: others });
}

/**
 * An edition of several posts is one page whose images are looked for from
 * its first post's folder (ImageTarget.source): a relative image of another
 * post, in a folder of its own, is rewritten to the same file from there.
 */
export async function rebaseImages(html: string, from: string, to: string): Promise<string> {
  const fromDir = path.dirname(from);
  const toDir = path.dirname(to);
  if (fromDir === toDir || !html.includes("<img")) return html;
  return rewriteImages(html, (img): ImageEdits => {
    const src = attribute(img, "src");
    if (src === undefined || REMOTE.test(src) || src.startsWith("/") || hasSlots(src)) return {};
    return { src: path.relative(toDir, path.resolve(fromDir, src)).split(path.sep).join("/") };
  });
}
