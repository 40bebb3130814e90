import type { EditionDecision } from "./edition-route.ts";
import { editionAnswer, noEditionAnswer, toResponse, type EditionAnswer } from "./http.ts";
import { openPublication, type PublishedPublication } from "./publication-store.ts";
import { editionRequestProblem } from "./request-limits.ts";
import { compileRoutes } from "../server/routes.ts";
import { siteFor, type ServeContext } from "./site-folder.ts";

/**
 * An edition function's handler: what Netlify calls, a web Request in and a
 * Response out, and `answer`, the very same decision on a parsed URL without
 * the web objects, which the local server calls on its own fast path
 * (lib/server/server.ts). The Response is `answer`'s result, converted.
 */
export interface EditionHandler {
  (req: Request, context?: ServeContext): Promise<Response>;
  answer(url: URL, method: string, context?: ServeContext): Promise<EditionAnswer>;
}

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
): EditionHandler {
  const route = compileRoutes(paths); // once, not per request
  const answer = async (url: URL, method: string, context?: ServeContext): Promise<EditionAnswer> => {
    try {
      const tooMuch = editionRequestProblem(url);
      if (tooMuch) return noEditionAnswer(204, tooMuch);
      const params = route(url.pathname);
      const pub = params ? await openPublication(params.slug ?? "", siteFor(context), url.origin) : undefined;
      if (!pub) return noEditionAnswer(204, "no publication at this address");
      return editionAnswer(pub, await decide(pub, url), method);
    } catch (error) {
      console.error(`${endpoint}: internal fault: ${String(error)}`);
      return noEditionAnswer(204, "internal fault");
    }
  };
  const handler = async (req: Request, context?: ServeContext) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return toResponse(noEditionAnswer(204, "the request's address cannot be read"));
    }
    return toResponse(await answer(url, req.method, context));
  };
  return Object.assign(handler, { answer });
}
