// GET /<slug>/deliveries/: each subscription's delivery history, for the
// desk (the time, the status, the ETag, printed or not). Only under `npm
// start`: deployed or from `npm run serve` it answers 404, since a public page
// must not list subscribers.
import { jsonResponse, type FunctionHandler } from "../../edge/http.ts";
import { routeSlug } from "../../edge/site-folder.ts";
import { platformFunction } from "../platform-function.ts";
import { fileStore } from "../stores/state-store.ts";
import { subscriptionHistories } from "../stores/subscriptions.ts";

export const deliveries: FunctionHandler = platformFunction(
  "deliveries",
  async (req, runtime, context) => {
    // Only the local server's settings name a store to read (never Blobs).
    const folder = runtime.histories;
    if (!folder) return jsonResponse({ error: "Delivery histories are shown on the desk of npm start only." }, 404);
    // Reading needs no sealing key: print keys are never opened here.
    const slug = routeSlug(req, context);
    return jsonResponse({ subscriptions: await subscriptionHistories(fileStore(folder), slug) });
  },
  () => jsonResponse({ error: "The histories could not be read." }, 500),
);
