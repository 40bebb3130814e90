// POST /<slug>/validate_config/: the settings a subscriber typed, checked.
// The handler is littlepress's; Netlify reads `config` from this file as
// written, so the routes are spelled out here.
import type { Config } from "@netlify/functions";
export { default } from "littlepress/functions/validate_config";

export const config: Config = {
  path: ["/:slug/validate_config/", "/:slug/validate_config", "/validate_config/", "/validate_config"],
};
