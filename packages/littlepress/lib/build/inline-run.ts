// A block's inline content in lines, as the length estimate counts it
// (edition-length.ts): text in characters of an average width at their font
// size, broken into lines of the block's width, each line as tall as its
// tallest text. No font is measured: the widths lean wide so lines lean few.

/** A character's average width, in ems: Latin text in the kit's serif is wider (about 0.5). */
export const AVERAGE_CHAR_EM = 0.45;
/**
 * A full-width character (CJK, kana, hangul): one em in a font that has it,
 * but sirius's browser has only DejaVu, which has none of them, and draws
 * them as nothing (verify names them). Counted as a hair's width, so that
 * the measure errs short of what sirius prints and a paragraph of them still
 * keeps its one empty line.
 */
const WIDE_CHAR_EM = 0.02;
const WIDE_CHAR = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/gu;
/** A quick test before counting them: most text has none. */
const MAYBE_WIDE = /[\u1100-\uffff]/;
/** An element's font size and line height, as its children inherit them. */
export interface Inherited {
  fontPx: number;
  line: { factor: number } | { px: number };
}

/** A line's height: QtWebKit, sirius's browser, lays lines out in whole pixels, rounded down (22 px x 1.35: 29). */
export const linePx = (i: Inherited) => Math.floor("factor" in i.line ? i.line.factor * i.fontPx : i.line.px);

/** Inline content between blocks: text widths added up, broken into lines of the block's width. */
export class InlineRun {
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
