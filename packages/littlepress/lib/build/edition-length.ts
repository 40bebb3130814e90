// How long an edition prints, estimated at build time. The printer's renderer
// (sirius) cuts every print at 10,000 px; `npm run verify` and `npm run preview`
// measure each edition exactly in Chromium, but the everyday commands (`npm run
// build`, `npm start`) have no browser. This is a layout measure instead:
// the page's blocks stacked at the paper's width, each block's text in lines
// of an average character width at its font size and line height, images at
// their width and height attributes (the build sets them from the files),
// fixed heights and margins from the page's CSS. It leans low (a wide average
// character, the whole paper's width for text, unknown sizes as nothing), so
// an edition it finds too long is too long; one near the limit is left to
// verify and preview.
import type { ContentProblem } from "../model/content-error.ts";
import { MAX_PRINT_HEIGHT_PX } from "../model/bilevel.ts";
import { PAPER_WIDTH_PX } from "../model/paper.ts";
import { withoutSlots } from "../model/text-slots.ts";
import { workOut, type Remember } from "./render-memory.ts";

/** A character's average width, in ems: Latin text in the kit's serif is wider (about 0.5). */
export const AVERAGE_CHAR_EM = 0.45;
/**
 * A full-width character (CJK, kana, hangul): one em in a font that has it,
 * counted as 0.7 (a renderer without such a font draws narrower boxes).
 */
const WIDE_CHAR_EM = 0.7;
const WIDE_CHAR = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/gu;
/** A quick test before counting them: most text has none. */
const MAYBE_WIDE = /[\u1100-\uffff]/;
/** Line height "normal" (about 1.15 for the usual fonts). */
const NORMAL_LINE = 1.1;
/** sirius's header line above every edition (18 px type) and the 18 px under it. */
const HEADER_PX = 20 + 18;

/**
 * The style sirius's page gives an edition (scripts/preview/sirius-page.ts),
 * as far as lengths go, and Chromium's own defaults where sirius sets none. An
 * edition's CSS comes after it and wins.
 */
const BASE_CSS = `
body { margin: 0 8px; margin-top: 1px; margin-bottom: 80px; font-size: 30px; }
h1 { font-size: 2em; margin: 0.67em 0 20px; } h2 { font-size: 1.5em; margin: 0.83em 0 20px; }
h3 { font-size: 1.17em; margin: 1em 0 20px; } h4 { margin: 1.33em 0 20px; }
h5 { font-size: 0.83em; margin: 1.67em 0 20px; } h6 { font-size: 0.67em; margin: 2.33em 0 20px; }
p, ul, ol, dl, pre, blockquote, figure { margin: 1em 0; }
li { margin-bottom: 0.5em; }
small, sub, sup { font-size: 0.83em; }
hr { margin: 0.5em 0; height: 2px; }
head, style, script, template, title, meta, link, noscript { display: none; }`;

const BLOCKS = new Set(
  (
    "html body main article section aside header footer nav div p h1 h2 h3 h4 h5 h6 ul ol li dl dt dd " +
    "blockquote pre figure figcaption hr table thead tbody tfoot tr caption address details summary form fieldset"
  ).split(" "),
);

type Length = { px: number } | { em: number };
type LineHeight = { factor: number } | Length;

/** What the measure reads of an element's style. */
interface Style {
  display?: string;
  fontSize?: Length;
  lineHeight?: LineHeight;
  marginTop?: Length;
  marginBottom?: Length;
  paddingTop?: Length;
  paddingBottom?: Length;
  height?: Length;
  minHeight?: Length;
  whiteSpace?: string;
}

interface Rule {
  tag?: string;
  classes: string[];
  specificity: number;
  order: number;
  style: Style;
}

/** One length, in px or em; undefined for what the measure cannot use (auto, calc(), vh …). */
function length(text: string | undefined, percentOf?: number): Length | undefined {
  const m = /^(-?\d*\.?\d+)(px|pt|em|rem|%)?$/i.exec(text?.trim() ?? "");
  if (!m) return undefined;
  const n = Number(m[1]);
  switch (m[2]?.toLowerCase()) {
    case "px":
      return { px: n };
    case "pt":
      return { px: (n * 4) / 3 };
    case "em":
      return { em: n };
    case "rem":
      return { px: n * 16 };
    case "%":
      return percentOf === undefined ? { em: n / 100 } : { px: (n / 100) * percentOf };
    default:
      return n === 0 ? { px: 0 } : undefined;
  }
}

function lineHeight(text: string): LineHeight | undefined {
  const t = text.trim();
  if (/^-?\d*\.?\d+$/.test(t)) return { factor: Number(t) };
  if (t.endsWith("%")) return { factor: Number(t.slice(0, -1)) / 100 };
  return length(t);
}

/** The top and bottom of a margin or padding shorthand (one to four values). */
function verticalBox(text: string): [Length | undefined, Length | undefined] {
  const values = text.trim().split(/\s+/);
  return [length(values[0], PAPER_WIDTH_PX), length(values[2] ?? values[0], PAPER_WIDTH_PX)];
}

/** The declarations of one rule or style attribute that the measure reads. */
function declarations(text: string): Style {
  const style: Style = {};
  for (const declaration of text.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!important/i, "")
      .trim();
    switch (name) {
      case "display":
        style.display = value.toLowerCase();
        break;
      case "white-space":
        style.whiteSpace = value.toLowerCase();
        break;
      case "font-size":
        style.fontSize = length(value) ?? style.fontSize;
        break;
      case "line-height":
        style.lineHeight = lineHeight(value) ?? style.lineHeight;
        break;
      case "font": {
        // font: [style weight …] size[/line-height] family
        const m = /(?:^|\s)(\d*\.?\d+(?:px|pt|em|rem|%))(?:\s*\/\s*(\S+))?\s/i.exec(` ${value} `);
        if (m) {
          style.fontSize = length(m[1]);
          style.lineHeight = m[2] ? lineHeight(m[2]) : { factor: NORMAL_LINE };
        }
        break;
      }
      case "margin":
        [style.marginTop, style.marginBottom] = verticalBox(value);
        break;
      case "margin-top":
        style.marginTop = length(value, PAPER_WIDTH_PX);
        break;
      case "margin-bottom":
        style.marginBottom = length(value, PAPER_WIDTH_PX);
        break;
      case "padding":
        [style.paddingTop, style.paddingBottom] = verticalBox(value);
        break;
      case "padding-top":
        style.paddingTop = length(value, PAPER_WIDTH_PX);
        break;
      case "padding-bottom":
        style.paddingBottom = length(value, PAPER_WIDTH_PX);
        break;
      case "height":
        style.height = length(value);
        break;
      case "min-height":
        style.minHeight = length(value);
        break;
    }
  }
  return style;
}

/**
 * The rules of a style sheet whose selectors are simple (`p`, `.note`,
 * `p.note`); others, and everything inside @media and other at-rules, are
 * left out (the estimate leans low).
 */
function parseRules(css: string, first: number): Rule[] {
  const rules: Rule[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf("{", at);
    if (open < 0) break;
    let depth = 1;
    let close = open + 1;
    for (; close < text.length && depth; close++) {
      if (text[close] === "{") depth++;
      else if (text[close] === "}") depth--;
    }
    const prelude = text
      .slice(at, open)
      .replace(/@[^;{]*;/g, "")
      .trim();
    at = close;
    if (prelude.startsWith("@")) continue;
    const style = declarations(text.slice(open + 1, close - 1));
    for (const selector of prelude.split(",")) {
      const m = /^([a-z][a-z0-9]*)?((?:\.[\w-]+)*)$/i.exec(selector.trim());
      if (!m || (!m[1] && !m[2])) continue;
      const classes = m[2] ? m[2].slice(1).split(".") : [];
      rules.push({
        ...(m[1] && { tag: m[1].toLowerCase() }),
        classes,
        specificity: classes.length * 10 + (m[1] ? 1 : 0),
        order: first + rules.length,
        style,
      });
    }
  }
  return rules;
}

const BASE_RULES = parseRules(BASE_CSS, 0);

/** An element's font size and line height, as its children inherit them. */
interface Inherited {
  fontPx: number;
  line: { factor: number } | { px: number };
}

const px = (l: Length | undefined, fontPx: number) => (l === undefined ? 0 : "px" in l ? l.px : l.em * fontPx);

/** A block's height and the margins it shares with its neighbours (collapsed as CSS does between siblings). */
interface Box {
  height: number;
  marginTop: number;
  marginBottom: number;
}

/** An open element while the page is read: what its content inherits, and, for a block, its layout so far. */
interface Frame {
  tag: string;
  inherited: Inherited;
  block?: BlockLayout;
}

/** A block being laid out: its children stacked, inline content gathered into lines. */
interface BlockLayout {
  style: Style;
  /** A table row: its cells side by side (as tall as the tallest), not stacked. */
  row: boolean;
  height: number;
  firstMargin?: number;
  previous?: Box;
  run: InlineRun;
}

/** Elements without an end tag. */
const VOID = new Set("area base br col embed hr img input link meta source track wbr".split(" "));
const TOKEN = /<!--[\s\S]*?-->|<[!?][^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)|</g;
const ATTRIBUTE = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!text.trim()) return found;
  for (const m of text.matchAll(ATTRIBUTE)) found.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  return found;
}

/** Measures the pages of one build; a style sheet shared by pages is read once. */
export class LengthEstimator {
  readonly #sheets = new Map<string, Rule[]>();
  #rules: Rule[] = BASE_RULES;
  #sheetsKey: string | undefined;
  readonly #matched = new Map<string, Style>();

  /** The estimated printed length of an edition's page, sirius's header and margin included, in px. */
  estimate(html: string): number {
    const sheets = [...html.matchAll(STYLE_BLOCK)].map((m) => m[1]!);
    this.#useSheets(sheets.length === 1 ? sheets[0]! : sheets.join("\u0000"), sheets);
    const markup = withoutSlots(html.replace(HIDDEN_BLOCK, ""));
    const root: Frame = { tag: "", inherited: { fontPx: 16, line: { factor: NORMAL_LINE } } };
    root.block = this.#layout({}, root.inherited, false);
    const stack: Frame[] = [root];
    let hidden = 0; // depth inside an element that is not shown
    for (const m of markup.matchAll(TOKEN)) {
      const [token, close, name, attrs = "", text] = m;
      if (!name) {
        // Text (a lone "<" is text too); comments and <!doctype> are not.
        if (!hidden && !/^<[!?]/.test(token)) this.#text(stack, text ?? token);
        continue;
      }
      const tag = name.toLowerCase();
      const empty = VOID.has(tag) || attrs.trimEnd().endsWith("/");
      if (hidden) {
        if (close) hidden--;
        else if (!empty) hidden++;
        continue;
      }
      if (close) {
        // An end tag closes its element and any left open inside it; one that closes nothing is ignored.
        const at = stack.findLastIndex((f) => f.tag === tag);
        if (at > 0) while (stack.length > at) this.#close(stack);
        continue;
      }
      const shown = this.#open(stack, tag, attributes(attrs));
      if (!shown) hidden = empty ? 0 : 1;
      else if (empty && stack.at(-1)!.tag === tag && stack.length > 1) this.#close(stack);
    }
    while (stack.length > 1) this.#close(stack);
    const box = this.#finish(root.block);
    // Nothing collapses with the page's first and last margins: sirius's page has nothing around it.
    return Math.round(HEADER_PX + box.marginTop + box.height + box.marginBottom);
  }

  #useSheets(key: string, sheets: string[]) {
    if (key === this.#sheetsKey) return; // most pages share their layout's CSS with the page before
    this.#sheetsKey = key;
    let rules = this.#sheets.get(key);
    if (!rules) {
      rules = [...BASE_RULES, ...sheets.flatMap((css, i) => parseRules(css, (i + 1) * 100_000))];
      this.#sheets.set(key, rules);
    }
    if (rules !== this.#rules) {
      this.#rules = rules;
      this.#matched.clear();
    }
  }

  /** The style of an element from the rules that match its tag and classes, then its style attribute. */
  #style(tag: string, attrs: Map<string, string>): Style {
    const classAttr = attrs.get("class") ?? "";
    const key = `${tag} ${classAttr}`;
    let style = this.#matched.get(key);
    if (!style) {
      const classes = new Set(classAttr.split(/\s+/).filter(Boolean));
      const matching = this.#rules
        .filter((r) => (!r.tag || r.tag === tag) && r.classes.every((c) => classes.has(c)))
        .sort((a, b) => a.specificity - b.specificity || a.order - b.order);
      style = Object.assign({}, ...matching.map((r) => definedOnly(r.style))) as Style;
      this.#matched.set(key, style);
    }
    const inline = attrs.get("style");
    return inline ? { ...style, ...definedOnly(declarations(inline)) } : style;
  }

  #layout(style: Style, own: Inherited, row: boolean, pre = false): BlockLayout {
    return { style, row, height: 0, run: new InlineRun(own, PAPER_WIDTH_PX, pre) };
  }

  /** The nearest block around the content being read. */
  #container(stack: Frame[]): BlockLayout {
    for (let i = stack.length - 1; ; i--) if (stack[i]!.block) return stack[i]!.block!;
  }

  #text(stack: Frame[], text: string) {
    const counted = text.includes("&") ? text.replace(/&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi, "_") : text;
    this.#container(stack).run.text(counted, stack.at(-1)!.inherited);
  }

  /** Opens an element; false when it is not shown (display: none, hidden), and neither is its content. */
  #open(stack: Frame[], tag: string, attrs: Map<string, string>): boolean {
    const style = this.#style(tag, attrs);
    if (style.display === "none" || attrs.has("hidden")) return false;
    const inherited = inherit(style, stack.at(-1)!.inherited);
    const container = this.#container(stack);
    if (tag === "br") {
      container.run.lineBreak();
      return true;
    }
    const block = style.display ? !style.display.startsWith("inline") : BLOCKS.has(tag);
    if (tag === "img" || block) flushRun(container);
    if (tag === "img") stackBox(container, image(attrs, style, inherited));
    if (tag === "img" || !block) {
      stack.push({ tag, inherited });
      return true;
    }
    const pre = style.whiteSpace ? style.whiteSpace.startsWith("pre") : tag === "pre";
    stack.push({ tag, inherited, block: this.#layout(style, inherited, tag === "tr", pre) });
    return true;
  }

  #close(stack: Frame[]) {
    const frame = stack.pop()!;
    if (frame.block) stackBox(this.#container(stack), this.#finish(frame.block));
  }

  /** A finished block: its content, fixed height and padding, and margins (collapsed through it without padding). */
  #finish(layout: BlockLayout): Box {
    flushRun(layout);
    const { style } = layout;
    const fontPx = layout.run.block.fontPx;
    const padding = px(style.paddingTop, fontPx) + px(style.paddingBottom, fontPx);
    const fixed = Math.max(px(style.height, fontPx), px(style.minHeight, fontPx));
    const first = layout.firstMargin ?? 0;
    const last = layout.previous?.marginBottom ?? 0;
    let height = Math.max(layout.height, fixed) + padding;
    let marginTop = px(style.marginTop, fontPx);
    let marginBottom = px(style.marginBottom, fontPx);
    if (padding === 0 && fixed === 0) {
      marginTop = Math.max(marginTop, first);
      marginBottom = Math.max(marginBottom, last);
    } else height += first + last;
    return { height, marginTop, marginBottom };
  }
}

/** Adds a child's box to a block: below the previous one, margins collapsed; beside it in a table row. */
function stackBox(layout: BlockLayout, box: Box) {
  if (layout.row) {
    layout.height = Math.max(layout.height, box.height);
    return;
  }
  if (layout.previous) layout.height += Math.max(layout.previous.marginBottom, box.marginTop);
  else layout.firstMargin = box.marginTop;
  layout.height += box.height;
  layout.previous = box;
}

/** The inline content gathered so far, as lines: a box of its own between the blocks around it. */
function flushRun(layout: BlockLayout) {
  const lines = layout.run.take();
  if (lines) stackBox(layout, { height: lines, marginTop: 0, marginBottom: 0 });
}

/** An image at its width and height attributes (or CSS px), scaled down to fit; unknown sizes count nothing. */
function image(attrs: Map<string, string>, style: Style, own: Inherited): Box {
  const w = Number(attrs.get("width")) || 0;
  const h = px(style.height, own.fontPx) || Number(attrs.get("height")) || 0;
  const height = w > PAPER_WIDTH_PX ? (h * PAPER_WIDTH_PX) / w : h;
  return { height, marginTop: px(style.marginTop, own.fontPx), marginBottom: px(style.marginBottom, own.fontPx) };
}

const STYLE_BLOCK = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
const HIDDEN_BLOCK = /<(style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

function definedOnly(style: Style): Style {
  return Object.fromEntries(Object.entries(style).filter(([, v]) => v !== undefined));
}

function inherit(style: Style, parent: Inherited): Inherited {
  const fontPx = style.fontSize ? px(style.fontSize, parent.fontPx) : parent.fontPx;
  const lh = style.lineHeight;
  const line = !lh ? parent.line : "factor" in lh ? lh : { px: px(lh, fontPx) };
  return { fontPx, line };
}

const linePx = (i: Inherited) => ("factor" in i.line ? i.line.factor * i.fontPx : i.line.px);

/** Inline content between blocks: text widths added up, broken into lines of the block's width. */
class InlineRun {
  #width = 0;
  #lines = 0;
  #lineHeight = 0;
  #content = false;

  constructor(
    readonly block: Inherited,
    private readonly available: number,
    private readonly pre: boolean,
  ) {}

  text(raw: string, style: Inherited) {
    if (this.pre) {
      raw.split("\n").forEach((line, i) => {
        if (i > 0) this.lineBreak();
        this.#add(line.length, line, style);
      });
      return;
    }
    // Characters once white space is collapsed, as the browser shows them (none leading a run).
    let chars = 0;
    let space = !this.#content;
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12) {
        if (!space) chars++;
        space = true;
      } else {
        chars++;
        space = false;
      }
    }
    this.#add(chars, raw, style);
  }

  #add(chars: number, text: string, style: Inherited) {
    if (!chars) return;
    const wide = MAYBE_WIDE.test(text) ? (text.match(WIDE_CHAR)?.length ?? 0) : 0;
    this.#width += ((chars - wide) * AVERAGE_CHAR_EM + wide * WIDE_CHAR_EM) * style.fontPx;
    this.#lineHeight = Math.max(this.#lineHeight, linePx(style));
    this.#content = true;
  }

  lineBreak() {
    this.#lines +=
      Math.max(1, Math.ceil(this.#width / this.available - 1e-9)) * (this.#lineHeight || linePx(this.block));
    this.#width = 0;
    this.#content = true;
  }

  /** The height of the lines so far, and a fresh start. */
  take(): number {
    const trailing = this.#width > 0 ? Math.ceil(this.#width / this.available - 1e-9) * this.#lineHeight : 0;
    const height = this.#lines + trailing;
    this.#width = 0;
    this.#lines = 0;
    this.#lineHeight = 0;
    this.#content = false;
    return height;
  }
}

/**
 * The warning for editions whose estimated length is over the printer's cut,
 * once per file: its longest page (one option of a select setting may make
 * one copy longer than the others), named by its settings.
 */
export function lengthWarnings(
  pages: { source: string; html: string; variant?: { id: string } }[],
  remember: Remember = workOut,
): ContentProblem[] {
  const estimator = new LengthEstimator();
  const longest = new Map<string, { height: number; variant: string }>();
  for (const page of pages) {
    const height = remember(page.html, "estimated height", () => estimator.estimate(page.html));
    if (height > MAX_PRINT_HEIGHT_PX && height > (longest.get(page.source)?.height ?? 0))
      longest.set(page.source, { height, variant: page.variant?.id ?? "" });
  }
  const thousands = (n: number) => n.toLocaleString("en-US");
  return [...longest].map(([file, { height, variant }]) => ({
    file,
    field: "length",
    problem:
      `the edition${variant ? ` (with ${variant.replaceAll("&", ", ")})` : ""} is about ` +
      `${thousands(Math.round(height / 100) * 100)} px long on paper, and the printer cuts every print at ` +
      `${thousands(MAX_PRINT_HEIGHT_PX)} px: the rest is never printed ` +
      `(a layout estimate from its text, images and CSS at ${PAPER_WIDTH_PX} px wide, which errs short)`,
    fix:
      "split it into several editions (the platform advises about 800 px each); " +
      "npm run verify and npm run preview measure it exactly, rendered in Chromium as the printer renders it",
  }));
}
