// icon.png: a 55x55 PNG. The old platform's own sample icon was 55x54, so a
// pixel off is a warning; a missing icon is a warning for now too. It must
// also show something: a picture nearly all white or all black is blank, and
// one all in middling greys (no black against white) shows as a grey smudge
// on a list the platform drew in black and white.
import { type CheckContext, under } from "./context.ts";
import { describeRequest, request } from "./http.ts";
import { readPngSize, readTones } from "./png.ts";
import { type CheckResult, resultsFor, skip } from "./report.ts";

const SIDE = 55;
/** Stray pixels: this share at each end of the greys (30 of 3025) does not count, so a few dots are still blank. */
const BLANK = 0.01;
/**
 * Its darkest and lightest greys (past the BLANK share of stray pixels at each
 * end) must be at least this far apart: half the range. Dark grey on white
 * passes; mid-grey on white, or grey on grey, does not.
 */
const MIN_CONTRAST = 128;

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
  const tones = await readTones(exchange.body, BLANK);
  if ("error" in tones) return [sized, drawn("fail", `icon.png is a broken PNG: ${tones.error}`)];
  const percent = `${(tones.dark * 100).toFixed(1)}% dark`;
  if (tones.lightest - tones.darkest >= MIN_CONTRAST) return [sized, drawn("pass", `a picture, ${percent}`)];
  const blank = (shade: string) => drawn("fail", `nearly all ${shade} (${percent}); the icon shows nothing`);
  if (tones.darkest >= 255 - MIN_CONTRAST / 4) return [sized, blank("white")];
  if (tones.lightest < MIN_CONTRAST / 4) return [sized, blank("black")];
  const range = `its tones run only from ${tones.darkest} to ${tones.lightest} of 0-255 (${percent})`;
  return [sized, drawn("fail", `grey on grey: ${range}; it shows as a grey smudge: draw it in black on white`)];
}
