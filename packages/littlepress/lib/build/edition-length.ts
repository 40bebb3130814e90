// How long an edition prints, estimated at build time. The printer's renderer
// (sirius) cuts every print at 10,000 px; `npm run verify` and `npm run preview`
// measure each edition exactly in sirius's browser, but the everyday commands (`npm run
// build`, `npm start`) have no browser. This is a layout measure instead:
// the page's blocks stacked at the paper's width, each block's text in lines
// of an average character width at its font size and line height, images at
// their width and height attributes (the build sets them from the files),
// fixed heights and margins from the page's CSS (length-css.ts), the page read
// as a browser reads it (page-tree.ts). It leans low (a wide average
// character, the whole paper's width for text, unknown sizes as nothing), so
// an edition it finds too long is too long; one near the limit is left to
// verify and preview.
import type { ContentProblem } from "../model/content-error.ts";
import { MAX_PRINT_HEIGHT_PX } from "../model/bilevel.ts";
import { PAPER_WIDTH_PX } from "../model/paper.ts";
import { withoutSlots } from "../model/text-slots.ts";
import { InlineRun, type Inherited } from "./inline-run.ts";
import { BASE_RULES, cascade, declarations, definedOnly, NORMAL_LINE, sheetRules } from "./length-css.ts";
import type { Length, Rule, Style } from "./length-css.ts";
import { attribute, elements, headStyles, isElement, isText, parsePage, textOf, walk } from "./page-tree.ts";
import type { PageElement, PageNode } from "./page-tree.ts";
import { workOut, type Remember } from "./render-memory.ts";

/** sirius's header line above every edition (18 px type) and the 18 px under it. */
const HEADER_PX = 20 + 18;

const BLOCKS = new Set(
  (
    "html body main article section aside header footer nav div p h1 h2 h3 h4 h5 h6 ul ol li dl dt dd " +
    "blockquote pre figure figcaption hr table thead tbody tfoot tr caption address details summary form fieldset"
  ).split(" "),
);

const px = (l: Length | undefined, fontPx: number) => (l === undefined ? 0 : "px" in l ? l.px : l.em * fontPx);

/** A block's height and the margins it shares with its neighbours (collapsed as CSS does between siblings). */
interface Box {
  height: number;
  marginTop: number;
  marginBottom: number;
}

/** An open element while the page is read: what its content inherits, and, for a block, its layout so far. */
interface Frame {
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

/** Measures the pages of one build; a style sheet shared by pages is read once. */
export class LengthEstimator {
  readonly #sheets = new Map<string, Rule[]>();
  #rules: Rule[] = BASE_RULES;
  #sheetsKey: string | undefined;
  readonly #matched = new Map<string, Style>();

  /** The estimated printed length of an edition's page, sirius's header and margin included, in px. */
  estimate(html: string): number {
    // A text setting's slot counts as an empty value: its length is the subscriber's.
    const plain = withoutSlots(html);
    // The layout's style sheets are read apart from the parse where that is safe: they are most of its time.
    const split = headStyles(plain);
    const page = parsePage(split?.rest ?? plain);
    const sheets = [
      ...(split?.sheets ?? []),
      ...elements(page)
        .filter((e) => e.tagName === "style")
        .map(textOf),
    ];
    this.#useSheets(sheets.length === 1 ? sheets[0]! : sheets.join("\u0000"), sheets);
    const root: Frame = { inherited: { fontPx: 16, line: { factor: NORMAL_LINE } } };
    root.block = layout({}, root.inherited, false);
    const stack: Frame[] = [root];
    walk(
      page,
      (node) => this.#enter(node, stack),
      (depth) => closeTo(stack, depth),
    );
    const box = finish(root.block);
    // Nothing collapses with the page's first and last margins: sirius's page has nothing around it.
    return Math.round(HEADER_PX + box.marginTop + box.height + box.marginBottom);
  }

  #useSheets(key: string, sheets: string[]) {
    if (key === this.#sheetsKey) return; // most pages share their layout's CSS with the page before
    this.#sheetsKey = key;
    let rules = this.#sheets.get(key);
    if (!rules) this.#sheets.set(key, (rules = sheetRules(sheets)));
    if (rules !== this.#rules) {
      this.#rules = rules;
      this.#matched.clear();
    }
  }

  /**
   * A node as the walk enters it: text goes into the block around it; an
   * element is opened, and the stack's depth before it returned, for its
   * content to be read and then closed down to that depth; undefined for what
   * is not shown (a comment, a doctype, display: none, a <template>'s content).
   */
  #enter(node: PageNode, stack: Frame[]): number | undefined {
    if (isText(node)) container(stack).run.text(node.value, stack.at(-1)!.inherited);
    if (!isElement(node) || node.tagName === "template") return undefined;
    const depth = stack.length;
    return this.#open(stack, node) ? depth : undefined;
  }

  /** The style of an element from the rules that match its tag and classes, then its style attribute. */
  #style(tag: string, el: PageElement): Style {
    const classAttr = attribute(el, "class") ?? "";
    const key = `${tag} ${classAttr}`;
    let style = this.#matched.get(key);
    if (!style) this.#matched.set(key, (style = cascade(this.#rules, tag, classAttr)));
    const inline = attribute(el, "style");
    return inline ? { ...style, ...definedOnly(declarations(inline)) } : style;
  }

  /** Opens an element; false when it is not shown (display: none, hidden), and neither is its content. */
  #open(stack: Frame[], el: PageElement): boolean {
    const tag = el.tagName.toLowerCase();
    const style = this.#style(tag, el);
    if (style.display === "none" || attribute(el, "hidden") !== undefined) return false;
    const inherited = inherit(style, stack.at(-1)!.inherited);
    const around = container(stack);
    if (tag === "br") {
      around.run.lineBreak();
      return true;
    }
    const block = style.display ? !style.display.startsWith("inline") : BLOCKS.has(tag);
    if (tag === "img" || block) flushRun(around);
    if (tag === "img") stackBox(around, image(el, style, inherited));
    if (tag === "img" || !block) {
      stack.push({ inherited });
      return true;
    }
    const pre = style.whiteSpace ? style.whiteSpace.startsWith("pre") : tag === "pre";
    stack.push({ inherited, block: layout(style, inherited, tag === "tr", pre) });
    return true;
  }
}

function layout(style: Style, own: Inherited, row: boolean, pre = false): BlockLayout {
  return { style, row, height: 0, run: new InlineRun(own, PAPER_WIDTH_PX, pre) };
}

/** The nearest block around the content being read. */
function container(stack: Frame[]): BlockLayout {
  for (let i = stack.length - 1; ; i--) if (stack[i]!.block) return stack[i]!.block!;
}

/** Closes the elements open above `depth`: the ones an element's content left open, and the element. */
function closeTo(stack: Frame[], depth: number) {
  while (stack.length > depth) close(stack);
}

function close(stack: Frame[]) {
  const frame = stack.pop()!;
  if (frame.block) stackBox(container(stack), finish(frame.block));
}

/** A finished block: its content, fixed height and padding, and margins (collapsed through it without padding). */
function finish(layout: BlockLayout): Box {
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
function image(el: PageElement, style: Style, own: Inherited): Box {
  const w = Number(attribute(el, "width")) || 0;
  const h = px(style.height, own.fontPx) || Number(attribute(el, "height")) || 0;
  const height = w > PAPER_WIDTH_PX ? (h * PAPER_WIDTH_PX) / w : h;
  return { height, marginTop: px(style.marginTop, own.fontPx), marginBottom: px(style.marginBottom, own.fontPx) };
}

function inherit(style: Style, parent: Inherited): Inherited {
  const fontPx = style.fontSize ? px(style.fontSize, parent.fontPx) : parent.fontPx;
  const lh = style.lineHeight;
  const line = !lh ? parent.line : "factor" in lh ? lh : { px: px(lh, fontPx) };
  return { fontPx, line };
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
      "npm run verify and npm run preview measure it exactly, rendered in PhantomJS as sirius renders it",
  }));
}
