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
import { siteIndexOf } from "./site-index.ts";

/**
 * For a site built with only the default address (nothing gave one: `npm run build` locally, `netlify serve`
 * offline), what links its pages' images at the address the request reached instead: they pointed at
 * http://127.0.0.1:8080 wherever the site was served. Undefined when nothing is to change, as for a page that
 * names no such address: that page keeps its encoded bytes from one request to the next (edition-answer.ts).
 */
function imagesAt(site: string, origin: string, d: EditionDecision): ((html: string) => string) | undefined {
  if (d.status !== 200) return undefined;
  const { url, urlAssumed } = siteIndexOf(site);
  if (!urlAssumed || !url || url === origin || !d.html.includes(`${url}/`)) return undefined;
  return (html) => html.replaceAll(`${url}/`, `${origin}/`);
}

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
    const site = siteFor(context);
    const pub = await openPublication(routeSlug(req, context), site, url.origin);
    if (!pub) return toResponse(noEditionAnswer(204, "no publication at this address"));
    const decision = await decide(pub, url);
    return toResponse(editionAnswer(pub, decision, req.method, imagesAt(site, url.origin, decision)));
  };
  return withFaultBoundary(endpoint, handler, () => toResponse(noEditionAnswer(204, "internal fault")));
}
