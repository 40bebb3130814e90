// GET /<slug>/edition/ (and /edition/ for the site's root publication): the
// platform asks for today's edition; 200, 204 or 410.
// The handler is littlepress's; Netlify reads `config` from this file as
// written, so the routes are spelled out here.
import type { Config } from "@netlify/functions";
export { default, methods } from "littlepress/functions/edition";

export const config: Config = { path: ["/:slug/edition/", "/:slug/edition", "/edition/", "/edition"] };
