// POST /<slug>/validate_config/: the platform sends what a subscriber typed
// into the settings form. Parse the body, check it against the fields, answer
// {"valid": true} or {"valid": false, "errors": [...]}.
import { readConfigRequest } from "../lib/serve/config-request.ts";
import { jsonResponse } from "../lib/serve/http.ts";
import { openPublication } from "../lib/serve/publication-store.ts";
import { slugFromPath } from "../lib/serve/site-folder.ts";

export default async (req: Request): Promise<Response> => {
  try {
    if (req.method !== "POST") return jsonResponse({ valid: false, errors: ["Send the settings with POST."] }, 405, { Allow: "POST" });
    const pub = await openPublication(slugFromPath(new URL(req.url).pathname, "validate_config"));
    if (!pub) return jsonResponse({ valid: false, errors: ["There is no publication at this address."] }, 404);
    const read = await readConfigRequest(req);
    if ("error" in read) return jsonResponse({ valid: false, errors: [read.error] }, read.status);
    return jsonResponse(pub.validate(read.config).result);
  } catch (error) {
    console.error(`validate_config: internal fault: ${String(error)}`);
    return jsonResponse({ valid: false, errors: ["The settings could not be checked just now. Please try again."] }, 500);
  }
};
