// icon.png: a 55x55 PNG. The old platform's own sample icon was 55x54, so a
// pixel off is a warning; a missing icon is a warning for now too.
//
// It must also show something once printed. The judgement is on what prints,
// not on the file's greys: the icon laid on white paper (so a transparent
// ground is paper), turned grey and dithered to dots as the printer's software
// does (PIL's convert("1"), Floyd–Steinberg: lib/model/bilevel.ts). Only a print
// that is blank fails: almost no black dots, or almost nothing but black, with
// no mark among them. A grey drawing dithers to a visible pattern, so greys
// without black against white warn (it shows, but not crisply), never fail.
import { floydSteinberg } from "../../lib/model/bilevel.ts";
import { type CheckContext, under } from "./context.ts";
import { describeRequest, request } from "./http.ts";
import { type Grey, greyOnWhite, readPngSize } from "./png.ts";
import { type CheckResult, resultsFor, skip, type Status } from "./report.ts";

const SIDE = 55;
/**
 * A print with under this share of black dots (or of white ones) is blank,
 * unless they make a mark: 30 dots of 3025. The build refuses an author's
 * icon below the same share (MIN_ICON_INK, lib/build/icon.ts).
 */
const MIN_SHARE = 0.01;
/**
 * This many dots joined together (touching, diagonals too) are a mark that
 * shows: a hairline over a quarter of the icon long, or a 4x4 blot. Stray
 * pixels are lone dots, and a faint grey dithers to lone dots too.
 */
const MIN_MARK = 16;
/**
 * Below this spread between its darkest and lightest greys (past the few
 * pixels, fewer than a mark, at each end) an icon has no black against white:
 * it prints only as dither patterns, so it warns.
 */
const MIN_CONTRAST = 128;
/** Below this spread it is one grey all over: an even pattern of dots, no picture. */
const ONE_GREY = 16;

export interface IconVerdict {
  status: Exclude<Status, "skip">;
  detail: string;
}

/** Whether an icon (its greys on white paper) prints something, and what. */
export function judgeDrawing(icon: Grey): IconVerdict {
  const { width, height } = icon;
  const total = width * height;
  const dots = floydSteinberg(icon.data, width, height);
  const black = dots.reduce((n, d) => n + (d === 0 ? 1 : 0), 0);
  const percent = `${total ? ((black / total) * 100).toFixed(1) : "0.0"}% black dots once printed`;
  const fix = "draw it dark on a light or transparent ground";
  const few = (n: number, colour: string) =>
    `${n} ${colour} ${n === 1 ? "dot" : "dots"} of ${total}, scattered, none in a mark of ${MIN_MARK} together`;
  if (black < total * MIN_SHARE && largestMark(dots, width, height, 0) < MIN_MARK) {
    const what = black === 0 ? "prints blank: not one black dot" : `prints nearly blank: ${few(black, "black")}`;
    return { status: "fail", detail: `${what}; ${fix}` };
  }
  const white = total - black;
  if (white < total * MIN_SHARE && largestMark(dots, width, height, 255) < MIN_MARK) {
    const what = white === 0 ? "prints all black" : `prints nearly all black: ${few(white, "white")}`;
    return { status: "fail", detail: `${what}; ${fix}` };
  }
  const { darkest, lightest } = spread(icon.data, MIN_MARK - 1);
  const range = `its greys run only from ${darkest} to ${lightest} of 0-255`;
  if (lightest - darkest < ONE_GREY)
    return { status: "warn", detail: `nearly one grey all over (${range}): it prints as an even pattern (${percent})` };
  if (lightest - darkest < MIN_CONTRAST)
    return {
      status: "warn",
      detail:
        `grey on grey: ${range}, so it prints as dither patterns (${percent}): ` +
        "it shows, but black on white prints crisper",
    };
  return { status: "pass", detail: `a picture, ${percent}` };
}

/** The size of the largest group of touching dots (8 neighbours) of the given value, 0 or 255. */
function largestMark(dots: Uint8Array, width: number, height: number, value: number): number {
  const seen = new Uint8Array(dots.length);
  const stack: number[] = [];
  let largest = 0;
  for (let start = 0; start < dots.length; start++) {
    if (seen[start] || dots[start] !== value) continue;
    seen[start] = 1;
    stack.push(start);
    let size = 0;
    while (stack.length) {
      const i = stack.pop()!;
      size++;
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const j = ny * width + nx;
          if (!seen[j] && dots[j] === value) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    largest = Math.max(largest, size);
  }
  return largest;
}

/** The darkest and lightest grey, leaving out `stray` pixels at each end. */
function spread(grey: Uint8Array, stray: number): { darkest: number; lightest: number } {
  if (grey.length === 0) return { darkest: 255, lightest: 255 };
  const counts = new Array<number>(256).fill(0);
  for (const g of grey) counts[g]!++;
  const skip = Math.min(stray, Math.floor((grey.length - 1) / 2));
  const nth = (n: number) => {
    // The grey of the n-th darkest pixel (0-based).
    let seen = 0;
    for (let g = 0; g < 256; g++) if ((seen += counts[g]!) > n) return g;
    return 255;
  };
  return { darkest: nth(skip), lightest: nth(grey.length - 1 - skip) };
}

export async function checkIcon(ctx: CheckContext): Promise<CheckResult[]> {
  ctx.progress("icon.png ...");
  const exchange = await request(under(ctx, "icon.png"), { timeoutMs: ctx.timeoutMs, followSameOrigin: true });
  const result = resultsFor("meta.icon", describeRequest(exchange));
  const drawn = resultsFor("meta.icon-drawn", describeRequest(exchange));
  const noPicture = (r: CheckResult) => [r, skip("meta.icon-drawn", "no PNG to look at")];
  if (exchange.error) return noPicture(result("warn", `no icon: ${exchange.error}`));
  if (exchange.status !== 200)
    return noPicture(
      result("warn", `no icon (answered ${exchange.status}); the platform shows a 55x55 PNG next to the publication`),
    );
  const size = readPngSize(exchange.body);
  if ("error" in size) return noPicture(result("fail", `icon.png is ${size.error}`));
  const { width, height } = size;
  const sized =
    width === SIDE && height === SIDE
      ? result("pass", "55x55 PNG")
      : Math.abs(width - SIDE) <= 1 && Math.abs(height - SIDE) <= 1
        ? result("warn", `${width}x${height}, a pixel off 55x55`)
        : result("fail", `${width}x${height}; the platform expects 55x55`);
  const grey = await greyOnWhite(exchange.body);
  if ("error" in grey) return [sized, drawn("fail", `icon.png is a broken PNG: ${grey.error}`)];
  const { status, detail } = judgeDrawing(grey);
  return [sized, drawn(status, detail)];
}
