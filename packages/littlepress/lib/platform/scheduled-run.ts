// The scheduled delivery run (every 15 minutes): every subscription due now
// gets its day's edition, asked from this site's /edition/ as the platform
// asked, and what is to print goes to its print key. Deliveries happen on the
// hour, so a run at :00 delivers; the runs between retry offline printers.
// A run keeps within 25 seconds (a scheduled function gets 30): what it has
// no time to start is left to the next one, and the log says how many.
// After the deliveries it prints the deploy's push editions (push-run.ts).
// Reads LITTLEPRESS_SEAL_KEY (the key print keys are sealed under) and URL
// (the site's address, set by Netlify).
import { jsonResponse, type FunctionHandler } from "../edge/http.ts";
import { printKeyOriginsOf } from "./print-key-origins.ts";
import { siteFor } from "../edge/site-folder.ts";
import { DELIVERY_TIMEOUT_MS, runDeliveries, RUN_BUDGET_MS } from "./delivery-run.ts";
import { scheduledPushes } from "./push-run.ts";
import { endNoticesOf } from "./end-notices.ts";
import { stateForFunction } from "./state-setup.ts";

export const deliver: FunctionHandler = async (req, context) => {
  const started = performance.now();
  try {
    const state = stateForFunction(context);
    if ("error" in state) {
      console.error(`deliver: ${state.error}`);
      return jsonResponse({ error: state.error }, 503);
    }
    const origin = context?.littlepressOrigin ?? process.env.URL ?? new URL(req.url).origin;
    const printKeys = { allowed: context?.littlepressPrintKeys ?? printKeyOriginsOf(siteFor(context)) };
    const endNotice = endNoticesOf(siteFor(context));
    const report = await runDeliveries({ ...state, origin, printKeys, endNotice, at: new Date() });
    // Then the push editions of this deploy (push-run.ts), in what is left of the run's time.
    const pushBy = started + RUN_BUDGET_MS - DELIVERY_TIMEOUT_MS;
    await scheduledPushes({ ...state, site: siteFor(context), printKeys, at: new Date() }, pushBy);
    for (const l of report.lines)
      console.log(
        `deliver: ${l.slug || "/"} ${l.subscription} ${l.date} #${l.deliveryCount}: ${l.outcome} (${l.detail})`,
      );
    for (const l of report.notices)
      console.log(`deliver: ${l.slug || "/"} ${l.subscription} end slip: ${l.outcome} (${l.detail})`);
    const { left, unchecked, pruned } = report;
    console.log(
      `deliver: ${report.lines.length} of ${report.subscriptions} subscriptions delivered at ${report.at}` +
        (left ? `; ${left} due left for the next run (the time was up)` : "") +
        (unchecked ? `; ${unchecked} subscriptions not read (the time was up)` : "") +
        (report.paused.length ? `; ${report.paused.length} paused (their print keys kept failing)` : "") +
        (pruned ? `; ${pruned} old entries pruned` : ""),
    );
    return jsonResponse({
      at: report.at,
      subscriptions: report.subscriptions,
      delivered: report.lines.length,
      left,
      unchecked,
      paused: report.paused.length,
      pruned,
    });
  } catch (error) {
    console.error(`deliver: internal fault: ${String(error)}`);
    return jsonResponse({ error: "the run failed; the next one resumes it" }, 500);
  }
};
