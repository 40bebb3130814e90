// GET/POST /<slug>/subscribe/: a publication's subscribe page. GET shows the
// form (or an unsubscribe link's confirmation); POST subscribes or
// unsubscribes (subscribe.ts). Its settings come from its runtime
// (../runtime.ts): the key print keys are sealed under (LITTLEPRESS_SEAL_KEY)
// and, on Netlify, the subscriptions kept in Blobs.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { openPublication } from "../../edge/publication-store.ts";
import { siteIndexOf } from "../../edge/site-index.ts";
import { routeSlug } from "../../edge/site-folder.ts";
import { platformFunction } from "../platform-function.ts";
import { subscribeRequest } from "./subscribe.ts";

/** What the subscribe page takes; the local server answers others 405 with Allow. */
export const SUBSCRIBE_METHODS: readonly string[] = ["GET", "HEAD", "POST"];

export const subscribe: FunctionHandler = platformFunction(
  "subscribe",
  async (req, runtime, context) => {
    const state = runtime.state();
    if ("error" in state) {
      console.error(`subscribe: ${state.error}`);
      return jsonResponse({ error: "Subscribing is not set up on this site yet." }, 503);
    }
    // Netlify's own field (the local server fills it from the socket or its trusted proxy), never a header.
    const client = context?.ip ?? "unknown";
    const { maxSubscriptions } = siteIndexOf(runtime.site);
    const where = {
      origin: runtime.askedAt(req),
      publicOrigin: new URL(req.url).origin,
      slug: routeSlug(req, context),
    };
    // Its built editions say when it is delivered; shards not in the bundle are fetched from the deploy.
    const publication = await openPublication(where.slug, runtime.site, where.origin);
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
