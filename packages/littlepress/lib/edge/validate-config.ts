// POST /<slug>/validate_config/: the platform sends what a subscriber typed
// into the settings form. Parse the body, check it against the fields, answer
// {"valid": true} or {"valid": false, "errors": [...]}.
import { readConfigRequest } from "./config-request.ts";
import { withFaultBoundary } from "./fault.ts";
import { jsonResponse, type FunctionHandler } from "./http.ts";
import { openPublication } from "./publication-store.ts";
import { routeSlug, siteFor } from "./site-folder.ts";

export const validateConfig: FunctionHandler = withFaultBoundary(
  "validate_config",
  async (req, context) => {
    if (req.method !== "POST") {
      return jsonResponse({ valid: false, errors: ["Send the settings with POST."] }, 405, { Allow: "POST" });
    }
    const pub = await openPublication(routeSlug(req, context), siteFor(context));
    if (!pub) return jsonResponse({ valid: false, errors: ["There is no publication at this address."] }, 404);
    const read = await readConfigRequest(req);
    if ("error" in read) return jsonResponse({ valid: false, errors: [read.error] }, read.status);
    return jsonResponse(pub.validate(read.config).result);
  },
  () => jsonResponse({ valid: false, errors: ["The settings could not be checked just now. Please try again."] }, 500),
);
