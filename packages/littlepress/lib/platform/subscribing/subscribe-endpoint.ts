// GET/POST /<slug>/subscribe/: a publication's subscribe page. GET shows the
// form (or an unsubscribe link's confirmation); POST subscribes or
// unsubscribes (subscribe.ts). Reads LITTLEPRESS_SEAL_KEY (the key print keys
// are sealed under) and, on Netlify, keeps the subscriptions in Blobs.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { openPublication } from "../../edge/publication-store.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import { withFaultBoundary } from "../../edge/fault.ts";
import { routeSlug } from "../../edge/site-folder.ts";
import { platformRuntime } from "../runtime.ts";
import { subscribeRequest } from "./subscribe.ts";

/** What the subscribe page takes; the local server answers others 405 with Allow. */
export const SUBSCRIBE_METHODS: readonly string[] = ["GET", "HEAD", "POST"];

export const subscribe: FunctionHandler = withFaultBoundary(
  "subscribe",
  async (req, context) => {
    const url = new URL(req.url);
    const runtime = platformRuntime(context);
    const state = runtime.state();
    if ("error" in state) {
      console.error(`subscribe: ${state.error}`);
      return jsonResponse({ error: "Subscribing is not set up on this site yet." }, 503);
    }
    // Netlify's own field (the local server fills it from the socket or its trusted proxy), never a header.
    const client = context?.ip ?? "unknown";
    const { maxSubscriptions } = siteIndexOf(runtime.site);
    // The publication is asked where the request reached it (on Netlify, the deploy it is on), or under the
    // local server at its own address, whatever Host a client sent.
    const origin = context?.littlepress?.origin ?? url.origin;
    const where = { origin, publicOrigin: url.origin, slug: routeSlug(req, context) };
    // Its built editions say when it is delivered; shards not in the bundle are fetched from the deploy.
    const publication = await openPublication(where.slug, runtime.site, origin);
    return await subscribeRequest(req, {
      ...state,
      ...where,
      client,
      printKeys: runtime.printKeys(),
      maxSubscriptions,
      ...(publication && { publication }),
    });
  },
  () => jsonResponse({ error: "Something went wrong; please try again." }, 500),
);
