// POST /<slug>/validate_config/: the platform sends what a subscriber typed
// into the settings form. Parse the body, check it against the fields, answer
// {"valid": true} or {"valid": false, "errors": [...]}.
import type { Config } from "@netlify/functions";
import { readConfigRequest } from "../lib/edge/config-request.ts";
import { jsonResponse } from "../lib/edge/http.ts";
import { openPublication } from "../lib/edge/publication-store.ts";
import { functionPaths, slugOf } from "../lib/server/routes.ts";
import { siteFor, type ServeContext } from "../lib/edge/site-folder.ts";

// This function's routes, the only place they are written (lib/server/routes.ts).
export const config: Config = {
  path: ["/:slug/validate_config/", "/:slug/validate_config", "/validate_config/", "/validate_config"],
};

export default async (req: Request, context?: ServeContext): Promise<Response> => {
  try {
    if (req.method !== "POST") {
      return jsonResponse({ valid: false, errors: ["Send the settings with POST."] }, 405, { Allow: "POST" });
    }
    const slug = slugOf(functionPaths(config), new URL(req.url).pathname);
    const pub = slug === undefined ? undefined : await openPublication(slug, siteFor(context));
    if (!pub) return jsonResponse({ valid: false, errors: ["There is no publication at this address."] }, 404);
    const read = await readConfigRequest(req);
    if ("error" in read) return jsonResponse({ valid: false, errors: [read.error] }, read.status);
    return jsonResponse(pub.validate(read.config).result);
  } catch (error) {
    console.error(`validate_config: internal fault: ${String(error)}`);
    const errors = ["The settings could not be checked just now. Please try again."];
    return jsonResponse({ valid: false, errors }, 500);
  }
};
