// GET/POST /<slug>/subscribe/: the subscribe page and its form (lib/platform/subscribing/subscribe-endpoint.ts).
import type { Config } from "@netlify/functions";
export { subscribe as default, SUBSCRIBE_METHODS as methods } from "../lib/platform/subscribing/subscribe-endpoint.ts";

export const config: Config = { path: ["/:slug/subscribe/", "/:slug/subscribe", "/subscribe/", "/subscribe"] };
