// GET /<slug>/deliveries/: the delivery histories the desk of `npm start`
// shows (lib/platform/delivering/history-endpoint.ts); 404 anywhere else.
import type { Config } from "@netlify/functions";
export { deliveries as default } from "../lib/platform/delivering/history-endpoint.ts";
export { READ_METHODS as methods } from "../lib/edge/http.ts";

export const config: Config = { path: ["/:slug/deliveries/", "/:slug/deliveries", "/deliveries/", "/deliveries"] };
