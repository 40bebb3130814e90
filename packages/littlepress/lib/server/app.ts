// The site as one Hono app: every route `npm start` and `npm run serve` answer,
// declared here in the order Netlify applies them. The functions' routes are
// their own `config.path` (functions/*.mts, where Netlify reads them), the
// redirects and headers netlify.toml's, the rest the built site's files.
import { Hono, type Context, type MiddlewareHandler } from "hono";
import proxyaddr from "proxy-addr";
import { faultWords } from "../edge/fault.ts";
import { CUT_SHORT, readLimited } from "../edge/request-limits.ts";
import type { ServeContext } from "../edge/site-folder.ts";
import type { SiteFunction } from "./functions.ts";
import { LIVE_EVENTS, liveEvents, wantsLiveScript, withLiveScript, type LiveChannel } from "./live-reload.ts";
import { fillTarget, type NetlifyConfig } from "./netlify-config.ts";
import { notFoundPage, staticFiles, type SiteEnv } from "./static-site.ts";

export interface SiteAppOptions {
  /** The built site's folder (absolute). */
  site: string;
  config: NetlifyConfig;
  functions: SiteFunction[];
  /** What each function is handed besides the request (the site it reads, the state folder...). */
  context: ServeContext;
  /** Which peers are proxies whose X-Forwarded-For names the client. */
  trust: (address: string, hop: number) => boolean;
  /** `npm start`: the build events, and the live script in pages a browser opens. */
  live?: LiveChannel;
  /** The Host headers answered, when only the server's own are (DNS rebinding; known once it listens). */
  ownHosts?: () => ReadonlySet<string>;
  /** Settles when the server stops: the live streams end. */
  stopped: Promise<void>;
}

const TEXT = "text/plain; charset=utf-8";
const STATIC_METHODS = "GET, HEAD";

export function siteApp(o: SiteAppOptions): Hono<SiteEnv> {
  const app = new Hono<SiteEnv>();
  if (o.ownHosts) app.use(ownHostsOnly(o.ownHosts));
  if (o.live) {
    const live = o.live;
    app.get(LIVE_EVENTS, (c) => liveEvents(live, c, o.stopped));
    app.use(liveScript);
  }
  const notFound = notFoundPage(o.site);
  for (const rule of o.config.redirects.filter((r) => r.force)) app.all(rule.from, redirect(rule, notFound));
  const functionContext = contextMaker(o);
  for (const fn of o.functions) {
    const { methods } = fn;
    const allow = methods?.join(", ");
    for (const path of fn.paths)
      app.all(path, (c) =>
        methods && !methods.includes(c.req.method)
          ? methodNotAllowed(c, allow!)
          : fn.background
            ? runInBackground(fn, c.req.raw, functionContext(c))
            : fn.handler(c.req.raw, functionContext(c)),
      );
  }
  app.on(["GET", "HEAD"], "*", staticFiles(o.site, o.config.headers, o.live));
  for (const rule of o.config.redirects.filter((r) => !r.force)) app.all(rule.from, redirect(rule, notFound));
  // What nothing above answered (Hono's not-found handler rather than a `*` route: a path that only
  // the site's files match is then dispatched to them alone, with no middleware chain around them).
  app.notFound((c) => (isRead(c) ? notFound(c) : methodNotAllowed(c, STATIC_METHODS)));
  app.onError((error, c) => {
    console.error(`serve: internal fault: ${faultWords(error)}`);
    return c.text("Internal error in the local server\n", 500, { Connection: "close" });
  });
  return app;
}

const isRead = (c: Context) => c.req.method === "GET" || c.req.method === "HEAD";

/**
 * What a function is handed with each request: the server's context (the site
 * it reads, the state folder...), the route's parameters, and the client's
 * address. Made per request as an instance of one class whose prototype is the
 * server's context: an object literal with a spread and a getter per request
 * halved the requests per second of the whole server.
 */
function contextMaker(o: SiteAppOptions): (c: Context<SiteEnv>) => ServeContext {
  class RequestContext {
    constructor(
      readonly params: Record<string, string>,
      private readonly incoming: SiteEnv["Bindings"]["incoming"],
    ) {}

    /**
     * The socket's peer, or X-Forwarded-For from a trusted proxy only (proxy-addr), never a header
     * alone; worked out only when a function asks (the subscribe page's rate limit), not per edition.
     */
    get ip(): string {
      return proxyaddr(this.incoming, o.trust);
    }
  }
  Object.setPrototypeOf(RequestContext.prototype, o.context); // read through, as it is when asked
  return (c) => new RequestContext(c.req.param(), c.env.incoming);
}

function methodNotAllowed(c: Context, allow: string) {
  const text = `${c.req.method} is not allowed here: this address takes ${allow}.\n`;
  return c.text(text, 405, { Allow: allow, "Content-Type": TEXT });
}

/**
 * The names this machine's loopback goes by, on any port: the server's own, or that of a proxy
 * in front of it on this machine, which forwards its client's Host (netlify dev, run at the
 * starter's root, proxies to npm start). A rebinding page's Host names its own domain.
 */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i;

/** A request under another host name than the server's own: refused before anything is read or shown. */
function ownHostsOnly(hosts: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const own = hosts();
    if (LOOPBACK_HOST.test(c.req.header("host") ?? "")) return next();
    const text = `This server answers only at ${[...own][0]}/ (and localhost): the Host header names another.\n`;
    return c.text(text, 421);
  };
}

/** A netlify.toml redirect: 404 (the site's not-found page) or a 3xx to its target, `:splat` and names filled. */
function redirect(
  rule: NetlifyConfig["redirects"][number],
  notFound: (c: Context) => Response,
): (c: Context<SiteEnv>) => Response {
  if (rule.status === 404) return notFound;
  if (rule.status < 300 || rule.status > 399)
    throw new Error(`netlify.toml: the local server cannot run a ${rule.status} redirect (from ${rule.from})`);
  return (c) => {
    const params: Record<string, string> = { ...c.req.param() };
    if (rule.from.endsWith("/*")) params.splat = c.req.path.slice(rule.from.length - 1);
    return c.redirect(fillTarget(rule.to, params), rule.status as 301);
  };
}

/**
 * `npm start`: a page a browser opens gets the live script (live-reload.ts).
 * A file with it is not the file: no validators, no ranges; any page, a new length.
 */
const liveScript: MiddlewareHandler<SiteEnv> = async (c, next) => {
  await next();
  if (!c.res.body || !wantsLiveScript(c.req.raw, c.res.headers.get("content-type"))) return;
  const html = withLiveScript(Buffer.from(await c.res.arrayBuffer()));
  const stale = c.get("file") === undefined ? ["Content-Length"] : ["Content-Length", ...FILE_VALIDATORS];
  // Hono keeps the headers of the answer it replaces: those that no longer hold go first.
  for (const name of stale) c.res.headers.delete(name);
  c.res = new Response(new Uint8Array(html), { status: c.res.status, headers: c.res.headers });
};

const FILE_VALIDATORS = ["ETag", "Last-Modified", "Accept-Ranges", "Content-Range"];

/**
 * Netlify's limit on a background function's request (its documented 256 KB
 * payload): the local server reads no further either, however the body is sent.
 */
export const BACKGROUND_BODY_BYTES = 256 * 1024;

/**
 * A background function as Netlify runs one: the caller gets 202 at once, the
 * function runs on (its request's body read first, while the request is
 * live, and no further than Netlify takes), and what it answers goes nowhere
 * but the log.
 */
async function runInBackground(fn: SiteFunction, req: Request, context: ServeContext): Promise<Response> {
  const sent = req.body !== null;
  const body = await readLimited(req, BACKGROUND_BODY_BYTES);
  if (body === undefined) {
    const text = `${fn.name} takes a body of ${BACKGROUND_BODY_BYTES / 1024} KiB at most, as Netlify does.\n`;
    return new Response(text, { status: 413, headers: { "Content-Type": TEXT } });
  }
  if (body === CUT_SHORT) return new Response(null, { status: 400 }); // the client hung up: nobody reads this
  const copy = new Request(req.url, { method: req.method, headers: req.headers, ...(sent && { body }) });
  void fn.handler(copy, context).catch((error: unknown) => {
    console.error(`${fn.name}: internal fault: ${faultWords(error)}`);
  });
  return new Response(null, { status: 202 });
}
