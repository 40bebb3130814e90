import { parse } from "node-html-parser";
import { uniqueProblems, type ContentProblem } from "../model/content-error.ts";
import { disallowedTags } from "../model/description.ts";
import { scanHtml } from "../model/html-scan.ts";
import { PAPER_WIDTH_PX } from "../model/paper.ts";
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
    const markup = html.replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, "");
    // Attributes only (a viewport's content="width=384" is not one).
    if (/\s(?:src|srcset|poster|width|style)\s*=|<link\b|<script\b/i.test(markup))
      warnings.push(...markupWarnings(markup, file));
    // The whole page: a <style> may have an onload= too.
    if (/<script\b|[\s/"']on[a-z]+\s*=/i.test(html)) warnings.push(...scriptWarnings(html, file));
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

function markupWarnings(markup: string, file: string): ContentProblem[] {
  const root = parse(markup, { comment: false });
  const warnings: ContentProblem[] = [];
  const warn = (field: string, problem: string, fix: string) => warnings.push({ file, field, problem, fix });
  for (const el of root.querySelectorAll("[src], link[href], [srcset], [poster]")) {
    for (const attr of ["src", "href", "srcset", "poster"]) {
      const url = el.getAttribute(attr)?.trim();
      if (url && !ABSOLUTE.test(url)) {
        warn(
          `<${el.rawTagName} ${attr}>`,
          `"${url}" is a relative URL; the platform renders the page from another host and cannot load it`,
          'use an absolute URL, or put images next to the edition and set "url" in content/site.json',
        );
      }
    }
  }
  for (const el of root.querySelectorAll('link[rel~="stylesheet"], script[src]')) {
    const url = el.getAttribute("href") ?? el.getAttribute("src");
    warn(
      `<${el.rawTagName}>`,
      `links ${url} from elsewhere; the renderer may not load it`,
      "inline the CSS in the page (the layout's {% css %} bundle), and leave scripts out",
    );
  }
  for (const el of root.querySelectorAll("[width]")) {
    const width = Number(el.getAttribute("width"));
    if (width > PAPER_WIDTH_PX)
      warn(
        `<${el.rawTagName} width>`,
        `width="${width}" is wider than the ${PAPER_WIDTH_PX} px paper`,
        `use at most ${PAPER_WIDTH_PX}`,
      );
  }
  const inline = root
    .querySelectorAll("[style]")
    .map((e) => e.getAttribute("style") ?? "")
    .join(";");
  for (const w of cssWarnings(inline)) warnings.push({ file, ...w });
  return warnings;
}

const NO_SCRIPTS = "printers run no scripts; remove it";

/**
 * Inline scripts and event handlers (`onload=`, `onclick=` …): no printer runs
 * them. (A script with a src is markupWarnings'.) Found with the tokenizer's
 * own reading of tags (html-scan.ts), as HTML and as SVG content, so that
 * `<svg/onload=…>` and a handler after a quoted value are found too.
 */
function scriptWarnings(html: string, file: string): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  for (const foreign of [false, true]) {
    for (const tag of scanHtml(html, { foreign }).tags) {
      if (tag.closing) continue;
      if (tag.name === "script" && !tag.attributes.some((a) => a.name === "src"))
        warnings.push({ file, field: "<script>", problem: "the page has an inline <script>", fix: NO_SCRIPTS });
      for (const a of tag.attributes.filter((a) => /^on[a-z]/.test(a.name)))
        warnings.push({
          file,
          field: `<${tag.name} ${a.name}>`,
          problem: `${a.name}= on <${tag.name}> is an event handler, a script`,
          fix: NO_SCRIPTS,
        });
    }
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
