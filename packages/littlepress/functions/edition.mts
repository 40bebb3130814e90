// GET /<slug>/edition/ (and /edition/ for the site's root publication): the
// platform asks for today's edition; 200, 204 or 410 (lib/edge/edition-endpoint.ts).
// Netlify reads `config` from this file as written, so the routes live here, once.
import type { Config } from "@netlify/functions";
export { edition as default } from "../lib/edge/edition-route.ts";
export { READ_METHODS as methods } from "../lib/edge/http.ts";

export const config: Config = { path: ["/:slug/edition/", "/:slug/edition", "/edition/", "/edition"] };
