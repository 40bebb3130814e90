// The little CSS the length estimate reads (edition-length.ts): the rules of
// an edition's style sheets whose selectors are simple, the declarations that
// change a length (font size, line height, margins, padding, heights), and the
// cascade among them. Everything else is left out: the estimate leans low.
import { PAPER_WIDTH_PX } from "../model/paper.ts";

/** Line height "normal" (about 1.15 for the usual fonts). */
export const NORMAL_LINE = 1.1;

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

export type Length = { px: number } | { em: number };
export type LineHeight = { factor: number } | Length;

/** What the measure reads of an element's style. */
export interface Style {
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

export interface Rule {
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

/** How each property the measure reads sets the style; a value it cannot use leaves the style as it was, or unset. */
const PROPERTIES = new Map<string, (style: Style, value: string) => void>([
  ["display", (s, v) => (s.display = v.toLowerCase())],
  ["white-space", (s, v) => (s.whiteSpace = v.toLowerCase())],
  ["font-size", (s, v) => (s.fontSize = length(v) ?? s.fontSize)],
  ["line-height", (s, v) => (s.lineHeight = lineHeight(v) ?? s.lineHeight)],
  ["font", font],
  ["margin", (s, v) => ([s.marginTop, s.marginBottom] = verticalBox(v))],
  ["margin-top", (s, v) => (s.marginTop = length(v, PAPER_WIDTH_PX))],
  ["margin-bottom", (s, v) => (s.marginBottom = length(v, PAPER_WIDTH_PX))],
  ["padding", (s, v) => ([s.paddingTop, s.paddingBottom] = verticalBox(v))],
  ["padding-top", (s, v) => (s.paddingTop = length(v, PAPER_WIDTH_PX))],
  ["padding-bottom", (s, v) => (s.paddingBottom = length(v, PAPER_WIDTH_PX))],
  ["height", (s, v) => (s.height = length(v))],
  ["min-height", (s, v) => (s.minHeight = length(v))],
]);

/** The font shorthand: [style weight …] size[/line-height] family. */
function font(style: Style, value: string) {
  const m = /(?:^|\s)(\d*\.?\d+(?:px|pt|em|rem|%))(?:\s*\/\s*(\S+))?\s/i.exec(` ${value} `);
  if (!m) return;
  style.fontSize = length(m[1]);
  style.lineHeight = m[2] ? lineHeight(m[2]) : { factor: NORMAL_LINE };
}

/** The declarations of one rule or style attribute that the measure reads. */
export function declarations(text: string): Style {
  const style: Style = {};
  for (const declaration of text.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!important/i, "")
      .trim();
    PROPERTIES.get(name)?.(style, value);
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

export function definedOnly(style: Style): Style {
  return Object.fromEntries(Object.entries(style).filter(([, v]) => v !== undefined));
}

export const BASE_RULES = parseRules(BASE_CSS, 0);

/** The rules of an edition's style sheets after the base ones, in order: later sheets win ties. */
export const sheetRules = (sheets: string[]): Rule[] => [
  ...BASE_RULES,
  ...sheets.flatMap((css, i) => parseRules(css, (i + 1) * 100_000)),
];

/** The style the rules give an element of this tag and class attribute, most specific and latest last. */
export function cascade(rules: Rule[], tag: string, classAttr: string): Style {
  const classes = new Set(classAttr.split(/\s+/).filter(Boolean));
  const matching = rules
    .filter((r) => (!r.tag || r.tag === tag) && r.classes.every((c) => classes.has(c)))
    .sort((a, b) => a.specificity - b.specificity || a.order - b.order);
  return Object.assign({}, ...matching.map((r) => definedOnly(r.style))) as Style;
}
