// The scheduled delivery run (every 15 minutes). On Netlify it delivers
// nothing itself: it finds who is due (the schedule index, and the batches
// kept from earlier runs) and hands them, in signed batches, to the
// background function deliver-background (batches.ts), which has 15
// minutes a batch where this function has 30 seconds. Hand-overs are POSTs
// that Netlify answers 202 at once.
// After the plan it prints the deploy's push editions (push-run.ts), in the
// time the run has left.
// Reads LITTLEPRESS_SEAL_KEY (the key print keys are sealed under, and batches
// signed with) and URL (the site's address, set by Netlify).
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { handOverByPost } from "./hand-over.ts";
import { planRun } from "./plan.ts";
import { stateForFunction } from "../stores/state-setup.ts";
import { printKeysFor } from "../printers/print-key-origins.ts";
import { siteAddress, siteFor } from "../../edge/site-folder.ts";
import { DELIVERY_TIMEOUT_MS, RUN_BUDGET_MS } from "../../model/run-budget.ts";
import { scheduledPushes } from "../pushing/push-run.ts";

export const deliver: FunctionHandler = async (req, context) => {
  const started = performance.now();
  try {
    const state = stateForFunction(context);
    if ("error" in state) {
      console.error(`deliver: ${state.error}`);
      return jsonResponse({ error: state.error }, 503);
    }
    const origin = siteAddress(context) ?? new URL(req.url).origin;
    const hand = handOverByPost(origin, state.sealKey);
    const at = new Date();
    const plan = await planRun({ store: state.store, at, hand });
    console.log(
      `deliver: at ${plan.at}: ${plan.dueSlots} of ${plan.slots} delivery slots due; ` +
        `${plan.subscriptions} subscriptions handed over in ${plan.batches} batches` +
        (plan.sweep ? " (the daily sweep: every subscription)" : "") +
        (plan.again ? `; ${plan.again} kept batches handed over again` : "") +
        (plan.dropped ? `; ${plan.dropped} batches dropped as over a day old` : "") +
        (plan.failed ? `; ${plan.failed} hand-overs failed (kept for the next run)` : "") +
        (plan.strays ? `; ${plan.strays} index keys without a subscription deleted` : ""),
    );
    // Then the push editions of this deploy, in what is left of the run's time.
    const printKeys = printKeysFor(context);
    const pushBy = started + RUN_BUDGET_MS - DELIVERY_TIMEOUT_MS;
    await scheduledPushes({ ...state, site: siteFor(context), origin, printKeys, at: new Date() }, pushBy);
    return jsonResponse(plan);
  } catch (error) {
    console.error(`deliver: internal fault: ${String(error)}`);
    return jsonResponse({ error: "the run failed; the next one resumes it" }, 500);
  }
};
