import { uniqueProblems, type ContentProblem } from "../model/content-error.ts";
import { disallowedTags } from "../model/description.ts";
import { PAPER_WIDTH_PX } from "../model/paper.ts";
import { attribute, elements, parsePage, type PageElement } from "./page-tree.ts";
import { workOut, type Remember } from "./render-memory.ts";

/** Text smaller than this is hard to read on thermal paper. */
export const MIN_FONT_PX = 20;

/**
 * An edition's HTML past this many bytes is warned about. One edition is a few
 * KiB (the layout's CSS and a screen or two of text); the platform advises
 * about 800 px of paper, and every delivery sends the whole page again.
 */
export const EDITION_BUDGET_BYTES = 64 * 1024;

const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

/**
 * What in an edition's HTML will not print well, as warnings for the author.
 * `file` is the edition's source, named in each warning.
 */
export function printWarnings(html: string, file: string): ContentProblem[] {
  return new PrintChecker().check(html, file);
}

/**
 * Print checks for a whole build. Editions share their layout's CSS, so each
 * distinct <style> block is checked once, and only markup that could hold a
 * problem (URLs, widths, inline styles, scripts, event handlers) is parsed:
 * tens of thousands of editions check in moments.
 */
export class PrintChecker {
  readonly #cssWarnings = new Map<string, { field: string; problem: string; fix: string }[]>();
  /** Files already warned about for their size: once each, not once per settings variant. */
  readonly #oversized = new Set<string>();

  /** The page's warnings, each naming `file`; `remember` keeps what the HTML alone decides (npm start). */
  check(html: string, file: string, remember: Remember = workOut): ContentProblem[] {
    const warnings: ContentProblem[] = [];
    const size = Buffer.byteLength(html);
    if (size > EDITION_BUDGET_BYTES && !this.#oversized.has(file)) {
      this.#oversized.add(file);
      warnings.push(sizeWarning(size, file));
    }
    const found = remember(html, "print warnings", () => this.#markupChecks(html));
    return uniqueProblems([...warnings, ...found.map((w) => ({ ...w, file }))]);
  }

  /** The warnings its markup, styles and scripts give, with no file named yet. */
  #markupChecks(html: string): ContentProblem[] {
    const file = "";
    const warnings: ContentProblem[] = [];
    for (const block of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) {
      const css = block[1]!;
      if (!this.#cssWarnings.has(css)) this.#cssWarnings.set(css, cssWarnings(css));
      for (const w of this.#cssWarnings.get(css)!) warnings.push({ file, ...w });
    }
    // A quick look before parsing: only markup that could hold a problem is read (as a browser does).
    const markup = html.replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, "");
    // Attributes only (a viewport's content="width=384" is not one). The whole page for
    // scripts: a <style> may have an onload= too.
    const urls = /\s(?:src|srcset|poster|width|style)\s*=|<link\b|<script\b/i.test(markup);
    if (urls || /<script\b|[\s/"']on[a-z]+\s*=/i.test(html)) {
      const page = elements(parsePage(html));
      if (urls) warnings.push(...markupWarnings(page, file));
      warnings.push(...scriptWarnings(page, file));
    }
    return warnings;
  }
}

function sizeWarning(size: number, file: string): ContentProblem {
  const kib = (n: number) => `${Math.ceil(n / 1024)} KiB`;
  return {
    file,
    field: "size",
    problem:
      `the edition's page is ${kib(size)}, over the ${kib(EDITION_BUDGET_BYTES)} budget: ` +
      "every delivery sends it whole",
    fix:
      "make the edition shorter (the platform advises about 800 px of paper), or split it over several editions; " +
      "link images rather than inlining them",
  };
}

/** Relative URLs, linked style sheets and scripts, widths wider than the paper, small or wide inline styles. */
function markupWarnings(page: PageElement[], file: string): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  const warn = (field: string, problem: string, fix: string) => warnings.push({ file, field, problem, fix });
  const has = (el: PageElement, name: string) => attribute(el, name) !== undefined;
  for (const el of page.filter((e) => has(e, "src") || has(e, "srcset") || has(e, "poster") || isLink(e, "href"))) {
    for (const attr of ["src", "href", "srcset", "poster"]) {
      const url = attribute(el, attr)?.trim();
      if (url && !ABSOLUTE.test(url)) {
        warn(
          `<${el.tagName} ${attr}>`,
          `"${url}" is a relative URL; the platform renders the page from another host and cannot load it`,
          'use an absolute URL, or put images next to the edition and set "url" in content/site.json',
        );
      }
    }
  }
  for (const el of page.filter((e) => isLink(e, "rel", "stylesheet") || (e.tagName === "script" && has(e, "src")))) {
    const url = attribute(el, "href") ?? attribute(el, "src");
    warn(
      `<${el.tagName}>`,
      `links ${url} from elsewhere; the renderer may not load it`,
      "inline the CSS in the page (the layout's {% css %} bundle), and leave scripts out",
    );
  }
  for (const el of page) {
    const width = Number(attribute(el, "width"));
    if (width > PAPER_WIDTH_PX)
      warn(
        `<${el.tagName} width>`,
        `width="${width}" is wider than the ${PAPER_WIDTH_PX} px paper`,
        `use at most ${PAPER_WIDTH_PX}`,
      );
  }
  const inline = page.flatMap((e) => attribute(e, "style") ?? []).join(";");
  for (const w of cssWarnings(inline)) warnings.push({ file, ...w });
  return warnings;
}

/** A <link> with the attribute `name`, holding the word `word` if given (rel="preload stylesheet"). */
function isLink(el: PageElement, name: string, word?: string): boolean {
  const value = el.tagName === "link" ? attribute(el, name) : undefined;
  return value !== undefined && (!word || value.split(/[\t\n\f\r ]+/).includes(word));
}

const NO_SCRIPTS = "printers run no scripts; remove it";

/**
 * Inline scripts and event handlers (`onload=`, `onclick=` …): no printer runs
 * them. (A script with a src is markupWarnings'.) Read as a browser reads the
 * page (page-tree.ts), so that `<svg/onload=…>`, a handler after a quoted
 * value and a <script> inside <svg> are found too.
 */
function scriptWarnings(page: PageElement[], file: string): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  for (const el of page) {
    const tag = el.tagName;
    if (tag === "script" && attribute(el, "src") === undefined)
      warnings.push({ file, field: "<script>", problem: "the page has an inline <script>", fix: NO_SCRIPTS });
    for (const { name } of el.attrs.filter((a) => /^on[a-z]/.test(a.name) && !a.prefix))
      warnings.push({
        file,
        field: `<${tag} ${name}>`,
        problem: `${name}= on <${tag}> is an event handler, a script`,
        fix: NO_SCRIPTS,
      });
  }
  return warnings;
}

function cssWarnings(text: string): { field: string; problem: string; fix: string }[] {
  const css = text.replace(/@media[^{]*\{/g, "{"); // a media query's (min-width: …) is a condition, not a width
  const warnings: { field: string; problem: string; fix: string }[] = [];
  for (const m of css.matchAll(/(?<![-\w])(min-width|width)\s*:\s*(\d+(?:\.\d+)?)px/gi)) {
    if (Number(m[2]) > PAPER_WIDTH_PX)
      warnings.push({
        field: "CSS",
        problem: `${m[1]}: ${m[2]}px is wider than the ${PAPER_WIDTH_PX} px paper`,
        fix: `use at most ${PAPER_WIDTH_PX}px, or 100%`,
      });
  }
  for (const m of css.matchAll(/font-size\s*:\s*(\d+(?:\.\d+)?)(px|pt)/gi)) {
    const px = Number(m[1]) * (m[2]!.toLowerCase() === "pt" ? 4 / 3 : 1);
    if (px < MIN_FONT_PX)
      warnings.push({
        field: "CSS",
        problem: `font-size: ${m[1]}${m[2]} is smaller than ${MIN_FONT_PX} px`,
        fix: `use ${MIN_FONT_PX}px or more: smaller text blurs on thermal paper`,
      });
  }
  return warnings;
}

/** A description with tags the platform does not show. */
export function descriptionWarnings(description: string, file: string): ContentProblem[] {
  const tags = disallowedTags(description);
  if (!tags.length) return [];
  return [
    {
      file,
      field: "description",
      problem: `uses ${tags.map((t) => `<${t}>`).join(", ")}; the platform shows only <strong>, <em>, <br> and <a>`,
      fix: "remove those tags (their text is kept on the desk)",
    },
  ];
}
