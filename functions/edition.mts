// GET /<slug>/edition/ (and /<slug>/edition, and /edition/ for the root
// publication): the platform asks for today's edition. The query parameters
// pick it; the answer is 200, 204 or 410.
import { decideEdition } from "../lib/serve/edition-route.ts";
import { editionEndpoint } from "../lib/serve/edition-endpoint.ts";

export default editionEndpoint("edition", (pub, url) => decideEdition(pub, url.searchParams, new Date()));
