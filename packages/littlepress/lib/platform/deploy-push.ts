// POST /.netlify/functions/deploy-succeeded-background: the push run of a
// deploy, at once. Netlify runs a function of this name (its documented event
// trigger, `-background`: 15 minutes) once a deploy is live; a build hook
// starts a deploy, so news published through a hook prints within minutes
// instead of with the next scheduled run (up to 15 minutes later).
//
// It is the scheduled run's push run (push-run.ts), no more: the same store and
// key (stateForFunction), the same print-key services (the built site's list),
// the same built site, the same claims. So whoever calls it, and however often,
// it prints only what the next scheduled run would print anyway, once per
// edition and subscriber. Netlify POSTs the deploy's details: they are not
// read (nothing is taken from a body anyone can send, least of all a URL).
// Reads LITTLEPRESS_SEAL_KEY and URL, as the scheduled run does.
import { jsonResponse, type FunctionHandler } from "../edge/http.ts";
import { siteAddress, siteFor } from "../edge/site-folder.ts";
import { BACKGROUND_BUDGET_MS, DELIVERY_TIMEOUT_MS } from "../model/run-budget.ts";
import { printKeysFor } from "./print-key-origins.ts";
import { scheduledPushes, type PushReport } from "./push-run.ts";
import { stateForFunction } from "./state-setup.ts";

/** The function's name, which is what makes Netlify run it on a deploy (functions/deploy-succeeded-background.mts). */
const NAME = "deploy-succeeded-background";

export const deployPush: FunctionHandler = async (req, context) => {
  if (req.method !== "POST")
    return jsonResponse({ error: "POST starts the deploy's push run" }, 405, { Allow: "POST" });
  const started = performance.now();
  try {
    // The body is Netlify's account of the deploy: nothing here needs it, so none of it is read.
    await req.body?.cancel().catch(() => undefined);
    // Netlify runs this for deploy previews and branch deploys too, each on its own files but with the
    // site's one store: only the published deploy's pushes are the scheduled run's, so only those print. A
    // production deploy prints even if not yet marked published: the event may come before it is.
    const deploy = context?.deploy;
    if (deploy?.published === false && deploy.context !== "production") {
      const which = deploy.context ? ` (${deploy.context})` : "";
      console.log(`${NAME}: this deploy${which} is not the published one: nothing to push`);
      return jsonResponse({ pushed: false, reason: "not the published deploy" });
    }
    const state = stateForFunction(context);
    if ("error" in state) {
      console.error(`${NAME}: ${state.error}`);
      return jsonResponse({ error: state.error }, 503);
    }
    const site = siteFor(context);
    const printKeys = printKeysFor(context);
    // A copy is one POST: none starts later than one request's timeout before the budget's end.
    const startBy = started + BACKGROUND_BUDGET_MS - DELIVERY_TIMEOUT_MS;
    // Where shards published as static files are fetched from (a large site): the site's own address, as
    // Netlify sets it (never the request's: nothing here comes from whoever calls).
    const origin = siteAddress(context);
    const report = await scheduledPushes({ ...state, site, origin, printKeys, at: new Date() }, startBy);
    if (!report) return jsonResponse({ error: "the push run failed; the scheduled run resumes it" }, 500);
    console.log(`${NAME}: ${summary(report)}`);
    return jsonResponse({
      pushes: report.pushes.length,
      copies: report.lines.length,
      printed: printed(report),
      left: report.left,
    });
  } catch (error) {
    console.error(`${NAME}: internal fault: ${String(error)}`);
    return jsonResponse({ error: "the push run failed; the scheduled run resumes it" }, 500);
  }
};

const printed = (report: PushReport) => report.lines.filter((l) => l.outcome === "printed").length;

/** One line for the log: what the run found and did. */
function summary(report: PushReport): string {
  const { pushes, lines, left } = report;
  if (!pushes.length) return "the site has no push editions";
  const done = pushes.filter((p) => p.done).length;
  return (
    `${pushes.length} push editions (${done} with every copy settled): ` +
    `${lines.length} copies worked on, ${printed(report)} printed` +
    (left ? `; ${left} left for the scheduled run (the time was up)` : "")
  );
}
