// GET/POST /<slug>/subscribe/: a publication's subscribe page. GET shows the
// form (or an unsubscribe link's confirmation); POST subscribes or
// unsubscribes (lib/platform/subscribe.ts). Reads LITTLEPRESS_SEAL_KEY (the key
// print keys are sealed under) and, on Netlify, keeps the subscriptions in Blobs.
import type { Config } from "@netlify/functions";
import { jsonResponse } from "../lib/edge/http.ts";
import { functionPaths, slugOf } from "../lib/server/routes.ts";
import { printKeyOriginsOf, siteIndexOf } from "../lib/edge/publication-store.ts";
import { siteFor, type ServeContext } from "../lib/edge/site-folder.ts";
import { SEAL_KEY_VARIABLE, stateSetup } from "../lib/platform/state-setup.ts";
import { subscribeRequest } from "../lib/platform/subscribe.ts";

// This function's routes, the only place they are written (lib/server/routes.ts).
export const config: Config = { path: ["/:slug/subscribe/", "/:slug/subscribe", "/subscribe/", "/subscribe"] };
// The methods it takes: the local server answers others 405 (lib/server/routes.ts).
export const methods = ["GET", "HEAD", "POST"];

export default async (req: Request, context?: ServeContext): Promise<Response> => {
  try {
    const url = new URL(req.url);
    const slug = slugOf(functionPaths(config), url.pathname) ?? "";
    const state = stateSetup({
      folder: context?.littlepressState,
      keyFile: context?.littlepressKeyFile,
      sealKey: process.env[SEAL_KEY_VARIABLE],
    });
    if ("error" in state) {
      console.error(`subscribe: ${state.error}`);
      return jsonResponse({ error: "Subscribing is not set up on this site yet." }, 503);
    }
    // Netlify's own field (the local server fills it from the socket or its trusted proxy), never a header.
    const client = context?.ip ?? "unknown";
    const origin = context?.littlepressOrigin ?? url.origin;
    const site = siteFor(context);
    const printKeys = { allowed: context?.littlepressPrintKeys ?? printKeyOriginsOf(site) };
    const { maxSubscriptions } = siteIndexOf(site);
    const where = { origin, publicOrigin: url.origin, slug, client };
    return await subscribeRequest(req, { ...state, ...where, printKeys, maxSubscriptions });
  } catch (error) {
    // Never the request or its form: it may hold a print key.
    console.error(`subscribe: internal fault: ${error instanceof Error ? error.name : "error"}`);
    return jsonResponse({ error: "Something went wrong; please try again." }, 500);
  }
};
