// GET /<slug>/sample/: the edition shown to people browsing publications
// before they subscribe (the author's pick, or the first), with default settings.
import type { Config } from "@netlify/functions";
import { decideSample } from "../lib/edge/edition-route.ts";
import { editionEndpoint } from "../lib/edge/edition-endpoint.ts";
import { EDITION_METHODS, functionPaths } from "../lib/server/routes.ts";

// This function's routes, the only place they are written (lib/server/routes.ts).
export const config: Config = { path: ["/:slug/sample/", "/:slug/sample", "/sample/", "/sample"] };
// The methods it takes: the local server answers others 405 (lib/server/routes.ts).
export const methods = EDITION_METHODS;

export default editionEndpoint("sample", functionPaths(config), (pub, url) => decideSample(pub, url.searchParams));
