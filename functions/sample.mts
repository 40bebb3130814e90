// GET /<slug>/sample/: the edition shown to people browsing publications.
// The handler is littlepress's; Netlify reads `config` from this file as
// written, so the routes are spelled out here.
import type { Config } from "@netlify/functions";
export { default, methods } from "littlepress/functions/sample";

export const config: Config = { path: ["/:slug/sample/", "/:slug/sample", "/sample/", "/sample"] };
