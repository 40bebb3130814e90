// POST /.netlify/functions/deploy-succeeded-background: the push run of a
// deploy, at once. Netlify runs a function of this name (its documented event
// trigger, `-background`: 15 minutes) once a deploy is live; a build hook
// starts a deploy, so news published through a hook prints within minutes
// instead of with the next scheduled run (up to 15 minutes later).
//
// It is the scheduled run's push run (push-run.ts), no more: the same store and
// key (runtime.ts), the same print-key services (the built site's list),
// the same built site, the same claims. So whoever calls it, and however often,
// it prints only what the next scheduled run would print anyway, once per
// edition and subscriber. Netlify POSTs the deploy's details: they are not
// read (nothing is taken from a body anyone can send, least of all a URL).
// It pushes only when Netlify's context says this is the live production deploy
// (context "production", published true); a deploy preview, a branch deploy, an
// old deploy reached by its permalink, a production deploy not yet marked
// published, or no word at all: nothing, and a log line saying why. Netlify does
// not document whether the event comes before publishing: if it does, those
// pushes wait for the scheduled run (within 15 minutes).
// Its runtime (../runtime.ts) reads LITTLEPRESS_SEAL_KEY and URL, as the scheduled run's does.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { BACKGROUND_BUDGET_MS } from "../../model/run-budget.ts";
import { platformFunction } from "../platform-function.ts";
import { scheduledPushes, type PushReport } from "./push-run.ts";

/** The function's name, which is what makes Netlify run it on a deploy (functions/deploy-succeeded-background.mts). */
const NAME = "deploy-succeeded-background";

export const deployPush: FunctionHandler = platformFunction(
  NAME,
  async (req, runtime, context) => {
    if (req.method !== "POST")
      return jsonResponse({ error: "POST starts the deploy's push run" }, 405, { Allow: "POST" });
    const started = performance.now();
    // The body is Netlify's account of the deploy: nothing here needs it, so none of it is read (nor a failure
    // to drop it: the request is over either way).
    await req.body?.cancel().catch(() => undefined);
    // Netlify runs this for deploy previews, branch deploys and (by its permalink) old deploys too, each on its
    // own files but with the site's one store: only the live production deploy's pushes are the scheduled
    // run's, so only a deploy known to be that one prints. Anything else, or nothing said, prints nothing;
    // a production deploy not yet marked published leaves its pushes to the scheduled run (within 15 minutes).
    const refused = notLive(context?.deploy);
    if (refused) {
      console.log(`${NAME}: ${refused}: nothing to push (the scheduled run prints what the live deploy has)`);
      return jsonResponse({ pushed: false, reason: refused });
    }
    const state = runtime.state();
    if ("error" in state) {
      console.error(`${NAME}: ${state.error}`);
      return jsonResponse({ error: state.error }, 503);
    }
    // A copy is one POST, bounded by the budget's end (push-run.ts starts none too close to it).
    const endBy = started + BACKGROUND_BUDGET_MS;
    // Where shards published as static files are fetched from (a large site): the site's own address, as
    // Netlify sets it (never the request's: nothing here comes from whoever calls).
    const { site, origin } = runtime;
    const report = await scheduledPushes(
      { ...state, site, origin, printKeys: runtime.printKeys(), at: new Date() },
      endBy,
    );
    if (!report) return failed();
    console.log(`${NAME}: ${summary(report)}`);
    return jsonResponse({
      pushes: report.pushes.length,
      copies: report.lines.length,
      printed: printed(report),
      left: report.left,
    });
  },
  () => failed(),
);

const failed = () => jsonResponse({ error: "the push run failed; the scheduled run resumes it" }, 500);

/** Why a deploy is not known to be the live production deploy; undefined when it is. */
function notLive(deploy: { context?: string; published?: boolean } | undefined): string | undefined {
  if (!deploy) return "no deploy information";
  if (deploy.context !== "production")
    return deploy.context === undefined
      ? "the deploy has no context"
      : `the deploy is a ${JSON.stringify(deploy.context)} one, not production`;
  if (deploy.published === undefined) return "the production deploy does not say whether it is published";
  if (deploy.published !== true) return "the production deploy is not the published one";
  return undefined;
}

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
