// POST /<slug>/validate_config/: the settings a subscriber typed, checked
// against the publication's fields (lib/edge/validate-config.ts).
import type { Config } from "@netlify/functions";
export { validateConfig as default } from "../lib/edge/validate-config.ts";

export const config: Config = {
  path: ["/:slug/validate_config/", "/:slug/validate_config", "/validate_config/", "/validate_config"],
};
