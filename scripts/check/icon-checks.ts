// icon.png: a 55x55 PNG. The old platform's own sample icon was 55x54, so a
// pixel off is a warning; a missing icon is a warning for now too. It must
// also show something: a picture nearly all white or all black is blank.
import { type CheckContext, under } from "./context.ts";
import { describeRequest, request } from "./http.ts";
import { darkShare, readPngSize } from "./png.ts";
import { type CheckResult, resultsFor, skip } from "./report.ts";

const SIDE = 55;
/** Below this share of dark pixels (or above 1 minus it) the icon is blank: under 30 of 3025 pixels. */
const BLANK = 0.01;

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
  const share = await darkShare(exchange.body);
  if (typeof share !== "number") return [sized, drawn("fail", `icon.png is a broken PNG: ${share.error}`)];
  const percent = `${(share * 100).toFixed(1)}% dark`;
  if (share < BLANK) return [sized, drawn("fail", `nearly all white (${percent}); the icon shows nothing`)];
  if (share > 1 - BLANK) return [sized, drawn("fail", `nearly all black (${percent}); the icon shows nothing`)];
  return [sized, drawn("pass", `a picture, ${percent}`)];
}
