// GET /<slug>/sample/: the edition shown to people browsing publications
// before they subscribe (the author's pick, or the first), with default settings.
import type { Config } from "@netlify/functions";
import { decideSample } from "../lib/serve/edition-route.ts";
import { editionEndpoint } from "../lib/serve/edition-endpoint.ts";
import { EDITION_METHODS, functionPaths } from "../lib/serve/routes.ts";

// This function's routes, the only place they are written (lib/serve/routes.ts).
export const config: Config = { path: ["/:slug/sample/", "/:slug/sample", "/sample/", "/sample"] };
// The methods it takes: the local server answers others 405 (lib/serve/routes.ts).
export const methods = EDITION_METHODS;

export default editionEndpoint("sample", functionPaths(config), (pub, url) => decideSample(pub, url.searchParams));
