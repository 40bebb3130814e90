// The handlers behind /edition/ and /sample/ (edition-route.ts, sample-route.ts):
// find the publication from the route's `:slug`, let the route's rule pick,
// answer 200, 204 or 410.
import type { EditionDecision } from "./edition-copy.ts";
import { editionAnswer, noEditionAnswer, toResponse } from "./edition-answer.ts";
import { withFaultBoundary } from "./fault.ts";
import type { FunctionHandler } from "./http.ts";
import { openPublication, type PublishedPublication } from "./publication-store.ts";
import { editionRequestProblem } from "./request-limits.ts";
import { routeSlug, siteFor } from "./site-folder.ts";

/**
 * A handler for an endpoint that answers with an edition. Whatever goes wrong,
 * the answer stays within 200, 204 and 410: a fault is "nothing to print",
 * logged without a stack trace (fault.ts).
 */
export function editionEndpoint(
  endpoint: string,
  decide: (pub: PublishedPublication, url: URL) => Promise<EditionDecision>,
): FunctionHandler {
  const handler: FunctionHandler = async (req, context) => {
    const url = new URL(req.url);
    const tooMuch = editionRequestProblem(url);
    if (tooMuch) return toResponse(noEditionAnswer(204, tooMuch));
    const pub = await openPublication(routeSlug(req, context), siteFor(context), url.origin);
    if (!pub) return toResponse(noEditionAnswer(204, "no publication at this address"));
    return toResponse(editionAnswer(pub, await decide(pub, url), req.method));
  };
  return withFaultBoundary(endpoint, handler, () => toResponse(noEditionAnswer(204, "internal fault")));
}
