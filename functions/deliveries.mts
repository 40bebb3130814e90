// GET /<slug>/deliveries/: each subscription's delivery history, for the
// desk (the time, the status, the ETag, printed or not). Only under `npm
// start`: deployed or from `npm run serve` it answers 404, since a public page
// must not list subscribers.
import type { Config } from "@netlify/functions";
import { jsonResponse } from "../lib/edge/http.ts";
import { functionPaths, slugOf } from "../lib/server/routes.ts";
import type { ServeContext } from "../lib/edge/site-folder.ts";
import { fileStore } from "../lib/platform/state-store.ts";
import { subscriptionHistories } from "../lib/platform/subscriptions.ts";

// This function's routes, the only place they are written (lib/server/routes.ts).
export const config: Config = { path: ["/:slug/deliveries/", "/:slug/deliveries", "/deliveries/", "/deliveries"] };
// The methods it takes: the local server answers others 405 (lib/server/routes.ts).
export const methods = ["GET", "HEAD"];

export default async (req: Request, context?: ServeContext): Promise<Response> => {
  try {
    const folder = context?.littlepressState;
    if (!folder || !context?.littlepressHistory)
      return jsonResponse({ error: "Delivery histories are shown on the desk of npm start only." }, 404);
    // Reading needs no sealing key: print keys are never opened here.
    const slug = slugOf(functionPaths(config), new URL(req.url).pathname) ?? "";
    return jsonResponse({ subscriptions: await subscriptionHistories(fileStore(folder), slug) });
  } catch (error) {
    console.error(`deliveries: internal fault: ${String(error)}`);
    return jsonResponse({ error: "The histories could not be read." }, 500);
  }
};
