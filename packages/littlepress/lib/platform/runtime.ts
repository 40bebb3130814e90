// What a platform function runs with (its handler gets it through the one
// adapter, platform-function.ts). The settings come from where the function runs: deployed, from
// Netlify (the site beside the function, the deploy's LITTLEPRESS_SEAL_KEY, the
// site's URL), read from the environment here and nowhere else; under the local
// server and the tests, from the `littlepress` settings of its context
// (lib/edge/site-folder.ts's LocalSite). A handler reads them from its runtime
// only: never process.env, never the context's `littlepress`.
//
// The runtime is built once per source of settings: once per function module
// deployed (the environment does not change under it), once per local server.
// What a request needs fresh is worked out when asked: the state store, since
// Netlify hands a function its Blobs context with each invocation (a store made
// before one fails: netlify/blobs#175), and the print-key list, which a rebuild
// under `npm start` may change.
import { siteFor, type LocalSite, type ServeContext } from "../edge/site-folder.ts";
import { printKeyOriginsOf } from "./printers/print-key-origins.ts";
import type { PrintKeyPolicy } from "./printers/print-key-client.ts";
import { SEAL_KEY_VARIABLE, stateSetup, type StateSetup } from "./stores/state-setup.ts";

export interface PlatformRuntime {
  /** The built site's folder. */
  readonly site: string;
  /** The state store and the sealing key, or why there are none (deployed without LITTLEPRESS_SEAL_KEY). */
  state(): StateSetup | { error: string };
  /**
   * The site's own address, which its runs ask (never a Host a client sent): the local server's, else the one
   * Netlify sets (URL); undefined when neither is known.
   */
  readonly origin: string | undefined;
  /** `origin`, else the address `req` reached the site at (a site that names neither, self-hosted). */
  originFor(req: Request): string;
  /**
   * Where a request's own publication is asked: the local server's address (whatever Host a client sent),
   * else where `req` reached the site, so that a deploy preview asks its own files, not the live site's.
   */
  askedAt(req: Request): string;
  /** Where print keys may be, and how they are asked: the local server's list (tests), else the built site's. */
  printKeys(): PrintKeyPolicy;
  /** The file store whose delivery histories may be shown (the desk under `npm start`); deployed, none. */
  readonly histories: string | undefined;
}

/** The runtimes built, by their source of settings: a local server's LocalSite, or the environment. */
const built = new WeakMap<object, PlatformRuntime>();

/** The runtime of a platform function, from its context (and, deployed, the environment): built once per source. */
export function platformRuntime(
  context: ServeContext | undefined,
  env: NodeJS.ProcessEnv = process.env,
): PlatformRuntime {
  const local = context?.littlepress;
  let runtime = built.get(local ?? env);
  if (!runtime) built.set(local ?? env, (runtime = runtimeOf(local, env)));
  return runtime;
}

function runtimeOf(local: LocalSite | undefined, env: NodeJS.ProcessEnv): PlatformRuntime {
  const site = siteFor(local && { littlepress: local });
  const sealKey = env[SEAL_KEY_VARIABLE];
  const deployedOrigin = env.URL;
  return {
    site,
    state: () => stateSetup({ folder: local?.state, keyFile: local?.keyFile, sealKey }),
    // The local server learns its address once it listens, after its settings were made: read when asked.
    get origin() {
      return local?.origin ?? deployedOrigin;
    },
    originFor(req) {
      return this.origin ?? new URL(req.url).origin;
    },
    askedAt: (req) => local?.origin ?? new URL(req.url).origin,
    printKeys: () => ({ allowed: local?.printKeys ?? printKeyOriginsOf(site) }),
    histories: local?.history ? local.state : undefined,
  };
}
