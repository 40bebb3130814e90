// The print page editions are rendered in: `edition.njk` in the site's
// includes folder (the starter's layouts/edition.njk, with its print.css).
// A site without one (an Eleventy blog adding the plugin) gets the kit's own,
// as a virtual layout of Eleventy's, its CSS inlined: the blog's layouts are
// for the web, and its includes folder has no print.css.
import type { EleventyConfig } from "@11ty/eleventy";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { packageFile } from "./package-files.ts";

/** The layout every edition page names (in the site's includes folder, or the kit's default). */
export const PRINT_LAYOUT = "edition.njk";

/** The kit's own layouts: the print page and its CSS, and the desk (layouts/desk/). */
export const KIT_LAYOUTS = packageFile("layouts");

/**
 * Registers the kit's print page as `edition.njk` unless the site has its own, where Eleventy looks
 * layouts up: the layouts folder when the site names one (`dir.layouts`), else the includes folder.
 */
export function addPrintLayout(eleventyConfig: EleventyConfig): void {
  const { input, includes, layouts } = eleventyConfig.directories;
  const folder = layouts ?? includes;
  if (existsSync(path.join(folder, PRINT_LAYOUT))) return;
  eleventyConfig.addTemplate(virtualPath(input, folder, PRINT_LAYOUT), defaultPrintLayout(), {
    // An includes folder outside the input (`includes: "../_includes"`) would make it a page of its own too.
    permalink: false,
    eleventyExcludeFromCollections: true,
  });
}

/** The kit's layouts/edition.njk with layouts/print.css inlined (a site's includes folder has no print.css). */
export function defaultPrintLayout(): string {
  const file = path.join(KIT_LAYOUTS, PRINT_LAYOUT);
  const layout = readFileSync(file, "utf8");
  const css = readFileSync(path.join(KIT_LAYOUTS, "print.css"), "utf8");
  const include = '{% include "print.css" %}';
  if (!layout.includes(include)) throw new Error(`${file} no longer includes print.css`);
  return layout.replace(include, () => `{% raw %}${css}{% endraw %}`);
}

/**
 * Where Eleventy looks up a virtual layout: the layout's path in the layouts (or includes)
 * folder, relative to the input folder when inside it, else to the project
 * (Eleventy's ProjectDirectories.getLayoutPathRelativeToInputDirectory).
 */
export function virtualPath(input: string, folder: string, name: string): string {
  const full = path.posix.normalize(path.posix.join(folder, name));
  const inputDir = path.posix.normalize(input).replace(/\/?$/, "/");
  return inputDir !== "./" && full.startsWith(inputDir) ? full.slice(inputDir.length) : full;
}
