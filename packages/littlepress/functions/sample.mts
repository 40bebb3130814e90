// GET /<slug>/sample/: the edition shown to people browsing publications
// before they subscribe (lib/edge/edition-endpoint.ts).
import type { Config } from "@netlify/functions";
export { sample as default } from "../lib/edge/sample-route.ts";
export { READ_METHODS as methods } from "../lib/edge/http.ts";

export const config: Config = { path: ["/:slug/sample/", "/:slug/sample", "/sample/", "/sample"] };
