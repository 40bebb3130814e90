// What a platform function runs with, worked out once per request from where
// it runs: deployed, from Netlify (the site beside the function, Blobs, the
// deploy's LITTLEPRESS_SEAL_KEY, the site's URL); under the local server and
// the tests, from the `littlepress` settings of its context (lib/edge/site-folder.ts).
import { siteFor, type ServeContext } from "../edge/site-folder.ts";
import { printKeyOriginsOf } from "./printers/print-key-origins.ts";
import type { PrintKeyPolicy } from "./printers/print-key-client.ts";
import { SEAL_KEY_VARIABLE, stateSetup, type StateSetup } from "./stores/state-setup.ts";

export interface PlatformRuntime {
  /** The built site's folder. */
  site: string;
  /**
   * The state store and the sealing key, or why there are none (deployed
   * without LITTLEPRESS_SEAL_KEY): worked out when first asked, once.
   */
  state(): StateSetup | { error: string };
  /**
   * The site's own address, which its runs ask (never a Host a client sent): the local server's, else the one
   * Netlify sets (URL); undefined when neither is known.
   */
  origin: string | undefined;
  /** `origin`, else the address `req` reached the site at (a site that names neither, self-hosted). */
  originFor(req: Request): string;
  /** Where print keys may be, and how they are asked: the local server's list (tests), else the built site's. */
  printKeys(): PrintKeyPolicy;
}

/** The runtime of one request to a platform function, from its context (and, deployed, the environment). */
export function platformRuntime(context: ServeContext | undefined, env = process.env): PlatformRuntime {
  const local = context?.littlepress;
  const site = siteFor(context);
  let state: StateSetup | { error: string } | undefined;
  const origin = local?.origin ?? env.URL;
  return {
    site,
    state: () =>
      (state ??= stateSetup({ folder: local?.state, keyFile: local?.keyFile, sealKey: env[SEAL_KEY_VARIABLE] })),
    origin,
    originFor: (req) => origin ?? new URL(req.url).origin,
    printKeys: () => ({ allowed: local?.printKeys ?? printKeyOriginsOf(site) }),
  };
}
