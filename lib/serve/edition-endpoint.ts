import type { EditionDecision } from "./edition-route.ts";
import { editionResponse, noEdition } from "./http.ts";
import { openPublication, type PublishedPublication } from "./publication-store.ts";
import { editionRequestProblem } from "./request-limits.ts";
import { slugOf } from "./routes.ts";
import { siteFor, type ServeContext } from "./site-folder.ts";

/**
 * A handler for an endpoint that answers with an edition (/edition/, /sample/):
 * find the publication from the URL (the `:slug` of the function's `paths`),
 * let `decide` pick, answer 200, 204 or 410. Whatever goes wrong, the answer
 * stays within those three: a fault is "nothing to print", logged without a
 * stack trace.
 */
export function editionEndpoint(
  endpoint: string,
  paths: readonly string[],
  decide: (pub: PublishedPublication, url: URL) => Promise<EditionDecision>,
) {
  return async (req: Request, context?: ServeContext): Promise<Response> => {
    try {
      const url = new URL(req.url);
      const tooMuch = editionRequestProblem(url);
      if (tooMuch) return noEdition(204, tooMuch);
      const slug = slugOf(paths, url.pathname);
      const pub = slug === undefined ? undefined : await openPublication(slug, siteFor(context), url.origin);
      if (!pub) return noEdition(204, "no publication at this address");
      return editionResponse(pub, await decide(pub, url), req.method);
    } catch (error) {
      console.error(`${endpoint}: internal fault: ${String(error)}`);
      return noEdition(204, "internal fault");
    }
  };
}
