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
import { withFaultBoundary } from "../../edge/fault.ts";
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { RUN_BUDGET_MS } from "../../model/run-budget.ts";
import { scheduledPushes } from "../pushing/push-run.ts";
import { platformRuntime } from "../runtime.ts";
import { handOverByPost } from "./hand-over.ts";
import { planRun, type PlanReport } from "./plan.ts";

export const deliver: FunctionHandler = withFaultBoundary(
  "deliver",
  async (req, context) => {
    const started = performance.now();
    const runtime = platformRuntime(context);
    const state = runtime.state();
    if ("error" in state) {
      console.error(`deliver: ${state.error}`);
      return jsonResponse({ error: state.error }, 503);
    }
    const origin = runtime.originFor(req);
    const plan = await planRun({ store: state.store, at: new Date(), hand: handOverByPost(origin, state.sealKey) });
    console.log(`deliver: ${planSummary(plan)}`);
    // Then the push editions of this deploy, in what is left of the run's time.
    const pushBy = started + RUN_BUDGET_MS;
    const { site } = runtime;
    await scheduledPushes({ ...state, site, origin, printKeys: runtime.printKeys(), at: new Date() }, pushBy);
    return jsonResponse(plan);
  },
  () => jsonResponse({ error: "the run failed; the next one resumes it" }, 500),
);

/** The plan in one line for the log. */
function planSummary(plan: PlanReport): string {
  return (
    `at ${plan.at}: ${plan.dueSlots} of ${plan.slots} delivery slots due; ` +
    `${plan.subscriptions} subscriptions handed over in ${plan.batches} batches` +
    (plan.sweep ? " (the daily sweep: every subscription)" : "") +
    (plan.again ? `; ${plan.again} kept batches handed over again` : "") +
    (plan.dropped ? `; ${plan.dropped} batches dropped as over a day old` : "") +
    (plan.failed ? `; ${plan.failed} hand-overs failed (kept for the next run)` : "") +
    (plan.strays ? `; ${plan.strays} index keys without a subscription deleted` : "")
  );
}
