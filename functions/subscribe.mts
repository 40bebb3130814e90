// GET/POST /<slug>/subscribe/: the subscribe page and its form.
// The handler is littlepress's; Netlify reads `config` from this file as
// written, so the routes are spelled out here.
import type { Config } from "@netlify/functions";
export { default, methods } from "littlepress/functions/subscribe";

export const config: Config = { path: ["/:slug/subscribe/", "/:slug/subscribe", "/subscribe/", "/subscribe"] };
