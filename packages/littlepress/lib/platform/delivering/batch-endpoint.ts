// POST /.netlify/functions/deliver-background: one batch of a delivery run
// (batches.ts), handed over by the scheduled run. A Netlify Background
// Function: Netlify answers the caller 202 at once and runs this for up to 15
// minutes; when it throws, Netlify invokes it again (a minute on, then two).
// Only a body signed with the site's key is run (an HMAC under a key derived
// from LITTLEPRESS_SEAL_KEY); the body names a kept batch and an instant, no
// URL. Reads LITTLEPRESS_SEAL_KEY and URL, as the scheduled run does.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { CUT_SHORT, readLimited } from "../../edge/request-limits.ts";
import { BACKGROUND_BUDGET_MS } from "../../model/run-budget.ts";
import { runBatch } from "./batches.ts";
import { openBatchCall, SIGNATURE_HEADER } from "./hand-over.ts";
import { endNoticesOf } from "./end-notices.ts";
import { platformRuntime } from "../runtime.ts";

/** A batch call's body is a few dozen bytes: anything much larger is not one. */
const MAX_BODY_BYTES = 1024;

/**
 * No answering error boundary here, on purpose: a batch that throws is invoked again by Netlify (a minute
 * on, then two), and its answer reaches no one; the local server logs the fault (lib/server/app.ts).
 */
export const deliverBackground: FunctionHandler = async (req, context) => {
  if (req.method !== "POST") return jsonResponse({ error: "POST a signed batch" }, 405, { Allow: "POST" });
  const runtime = platformRuntime(context);
  const state = runtime.state();
  if ("error" in state) {
    console.error(`deliver-background: ${state.error}`);
    return jsonResponse({ error: state.error }, 503);
  }
  const body = await readLimited(req, MAX_BODY_BYTES);
  const call =
    body === undefined || body === CUT_SHORT
      ? { refused: body === undefined ? "too large" : "cut short" }
      : openBatchCall(Buffer.from(body).toString("utf8"), req.headers.get(SIGNATURE_HEADER), state.sealKey, new Date());
  if ("refused" in call) {
    // Said in the log only: a background function's answer reaches no one.
    console.error(`deliver-background: refused a call (${call.refused})`);
    return jsonResponse({ error: "refused" }, 403);
  }
  const origin = runtime.originFor(req);
  const printKeys = runtime.printKeys();
  const endNotice = endNoticesOf(runtime.site);
  // A batch has a background function's 15 minutes, less a minute to keep what is left for a later run.
  const outcome = await runBatch(
    { ...state, origin, printKeys, endNotice, at: new Date(call.at), budgetMs: BACKGROUND_BUDGET_MS },
    call.batch,
  );
  const { report } = outcome;
  const name = (l: { slug: string; subscription: string }) => `deliver-background: ${l.slug || "/"} ${l.subscription}`;
  for (const l of report.lines) console.log(`${name(l)} ${l.date} #${l.deliveryCount}: ${l.outcome} (${l.detail})`);
  for (const l of report.notices) console.log(`${name(l)} end slip: ${l.outcome} (${l.detail})`);
  const done = outcome.gone ? "done already" : `${report.lines.length} of ${report.subscriptions} delivered`;
  console.log(
    `deliver-background: ${call.batch}: ${done}` + (outcome.again ? `; ${outcome.again} kept to try again` : ""),
  );
  return jsonResponse({ batch: call.batch, delivered: report.lines.length, again: outcome.again });
};
