// icon.png: a 55x55 PNG. The old platform's own sample icon was 55x54, so a
// pixel off is a warning; a missing icon is a warning for now too.
import { type CheckContext, under } from "./context.ts";
import { describeRequest, request } from "./http.ts";
import { readPngSize } from "./png.ts";
import { type CheckResult, resultsFor } from "./report.ts";

const SIDE = 55;

export async function checkIcon(ctx: CheckContext): Promise<CheckResult> {
  ctx.progress("icon.png ...");
  const exchange = await request(under(ctx, "icon.png"), { timeoutMs: ctx.timeoutMs, followSameOrigin: true });
  const result = resultsFor("meta.icon", describeRequest(exchange));
  if (exchange.error) return result("warn", `no icon: ${exchange.error}`);
  if (exchange.status !== 200)
    return result(
      "warn",
      `no icon (answered ${exchange.status}); the platform shows a 55x55 PNG next to the publication`,
    );
  const size = readPngSize(exchange.body);
  if ("error" in size) return result("fail", `icon.png is ${size.error}`);
  const { width, height } = size;
  if (width === SIDE && height === SIDE) return result("pass", "55x55 PNG");
  if (Math.abs(width - SIDE) <= 1 && Math.abs(height - SIDE) <= 1)
    return result("warn", `${width}x${height}, a pixel off 55x55`);
  return result("fail", `${width}x${height}; the platform expects 55x55`);
}
