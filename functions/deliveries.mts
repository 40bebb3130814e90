// GET /<slug>/deliveries/: the delivery histories the desk of `npm start` shows.
// The handler is littlepress's; Netlify reads `config` from this file as
// written, so the routes are spelled out here.
import type { Config } from "@netlify/functions";
export { default, methods } from "littlepress/functions/deliveries";

export const config: Config = { path: ["/:slug/deliveries/", "/:slug/deliveries", "/deliveries/", "/deliveries"] };
