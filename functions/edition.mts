// GET /<slug>/edition/ (and /<slug>/edition, and /edition/ for the root
// publication): the platform asks for today's edition. The query parameters
// pick it; the answer is 200, 204 or 410.
import type { Config } from "@netlify/functions";
import { decideEdition } from "../lib/edge/edition-route.ts";
import { editionEndpoint } from "../lib/edge/edition-endpoint.ts";
import { EDITION_METHODS, functionPaths } from "../lib/server/routes.ts";

// This function's routes, the only place they are written (lib/server/routes.ts).
export const config: Config = { path: ["/:slug/edition/", "/:slug/edition", "/edition/", "/edition"] };
// The methods it takes: the local server answers others 405 (lib/server/routes.ts).
export const methods = EDITION_METHODS;

export default editionEndpoint("edition", functionPaths(config), (pub, url) =>
  decideEdition(pub, url.searchParams, new Date()),
);
