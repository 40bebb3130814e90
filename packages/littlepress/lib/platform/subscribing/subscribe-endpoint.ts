// GET/POST /<slug>/subscribe/: a publication's subscribe page. GET shows the
// form (or an unsubscribe link's confirmation); POST subscribes or
// unsubscribes (subscribe.ts). Reads LITTLEPRESS_SEAL_KEY (the key print keys
// are sealed under) and, on Netlify, keeps the subscriptions in Blobs.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import { printKeysFor } from "../printers/print-key-origins.ts";
import { routeSlug, siteFor } from "../../edge/site-folder.ts";
import { stateForFunction } from "../stores/state-setup.ts";
import { subscribeRequest } from "./subscribe.ts";

/** What the subscribe page takes; the local server answers others 405 with Allow. */
export const SUBSCRIBE_METHODS: readonly string[] = ["GET", "HEAD", "POST"];

export const subscribe: FunctionHandler = async (req, context) => {
  try {
    const url = new URL(req.url);
    const slug = routeSlug(req, context);
    const state = stateForFunction(context);
    if ("error" in state) {
      console.error(`subscribe: ${state.error}`);
      return jsonResponse({ error: "Subscribing is not set up on this site yet." }, 503);
    }
    // Netlify's own field (the local server fills it from the socket or its trusted proxy), never a header.
    const client = context?.ip ?? "unknown";
    const origin = context?.littlepressOrigin ?? url.origin;
    const site = siteFor(context);
    const printKeys = printKeysFor(context);
    const { maxSubscriptions } = siteIndexOf(site);
    const where = { origin, publicOrigin: url.origin, slug, client };
    return await subscribeRequest(req, { ...state, ...where, printKeys, maxSubscriptions });
  } catch (error) {
    // Never the request or its form: it may hold a print key.
    console.error(`subscribe: internal fault: ${error instanceof Error ? error.name : "error"}`);
    return jsonResponse({ error: "Something went wrong; please try again." }, 500);
  }
};
