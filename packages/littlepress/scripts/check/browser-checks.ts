// edition/ as a person (or the platform's own validator) opens it: with no
// parameters at all, and without the trailing slash.
import { type CheckContext, under } from "./context.ts";
import { describeRequest, type Exchange, request } from "./http.ts";
import { type CheckResult, resultsFor } from "./report.ts";

export interface BrowserOutcome {
  checks: CheckResult[];
  /** The bare answer, which must keep the per-answer rules too. */
  bare: Exchange;
}

export async function checkBrowserViews(ctx: CheckContext): Promise<BrowserOutcome> {
  ctx.progress("edition/ with no parameters ...");
  const bare = await request(under(ctx, "edition/"), { timeoutMs: ctx.timeoutMs });
  const noSlash = await request(under(ctx, "edition"), { timeoutMs: ctx.timeoutMs, followSameOrigin: true });
  return { checks: [bareView(bare), noSlashView(noSlash)], bare };
}

function bareView(a: Exchange): CheckResult {
  const r = resultsFor("edition.bare", describeRequest(a));
  if (a.error) return r("fail", `no answer: ${a.error}`);
  if (a.status !== 200)
    return r(
      "fail",
      `answered ${a.status}; a browser (and the platform's validator) needs a 200 with a sensible default edition`,
    );
  if (!a.headers.get("etag")) return r("fail", "200 without an ETag");
  if (a.body.length === 0) return r("fail", "200 with an empty body");
  return r("pass", `200, ETag ${a.headers.get("etag")}, ${a.body.length} bytes`);
}

/**
 * A warning at worst, never a failure: the spec names the endpoint `/edition/`
 * and the platform always sent the slash, so a 404 to `/edition` breaks no
 * delivery. The platform notes advise accepting both, for people typing the
 * URL and proxies that trim it; that advice is what the warning carries.
 */
function noSlashView(a: Exchange): CheckResult {
  const r = resultsFor("edition.no-slash", describeRequest(a));
  if (a.error) return r("warn", `no answer: ${a.error}`);
  const via = a.redirects.length ? ` after ${a.redirects.join(", ")}` : "";
  if (a.status === 200) return r("pass", `200${via}`);
  return r("warn", `answered ${a.status}${via}; accept /edition as well as /edition/`);
}
