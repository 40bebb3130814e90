// GET /<slug>/edition/ (and /<slug>/edition): the platform asks for today's
// edition. Parse the URL, decide from the manifest, answer 200, 204 or 410.
import { decideEdition } from "../lib/edition-route.ts";
import { editionResponse, noEdition } from "../lib/http.ts";
import { openPublication } from "../lib/publication-store.ts";
import { slugFromPath } from "../lib/site-paths.ts";

export default async (req: Request): Promise<Response> => {
  try {
    const url = new URL(req.url);
    const pub = await openPublication(slugFromPath(url.pathname, "edition"));
    if (!pub) return noEdition(204, "no publication at this address");
    const decision = decideEdition(pub, url.searchParams, new Date());
    return await editionResponse(pub, decision, req.method);
  } catch (error) {
    // The spec allows only 200, 204 and 410: a fault is "nothing to print", logged without a stack.
    console.error(`edition: internal fault: ${String(error)}`);
    return noEdition(204, "internal fault");
  }
};
