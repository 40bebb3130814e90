// The server behind `npm start` and `npm run serve`: serves the built site and
// runs the functions through the very handlers Netlify runs, routed as Netlify
// routes them: each function's own `config.path`, then netlify.toml's
// redirects and headers. Binds 127.0.0.1 unless told otherwise; fit to run
// behind a reverse proxy (README: "Self-hosting"). The functions' data is not
// in the site it serves (lib/model/site-paths.ts), so no URL reaches it.
//
// HTTP as a production server does it: only the methods a resource takes
// (405 with Allow otherwise), 400 for a Host or URL that cannot be read, a
// body that is not read (too large, wrong method) drained within a bound or
// the connection closed, a client that hangs up is not a fault, static files
// with ETag, Last-Modified, 304 and single byte ranges, and a shutdown that
// finishes the requests in flight.
import { createReadStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer, ServerResponse, type IncomingMessage, type Server } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import proxyaddr from "proxy-addr";
import { pathToFileURL } from "node:url";
import { LIVE_EVENTS, liveEvents, wantsLiveScript, withLiveScript, type LiveChannel } from "./live-reload.ts";
import { fillTarget, readNetlifyConfig, type NetlifyConfig } from "./netlify-config.ts";
import type { EditionHandler } from "../edge/edition-endpoint.ts";
import {
  compileRoutes,
  functionPaths,
  type FunctionConfig,
  type FunctionMethods,
  type RouteMatcher,
} from "./routes.ts";
import type { PrintKeyOrigin } from "../model/print-key.ts";
import type { ServeContext } from "../edge/site-folder.ts";
import { forgetSite } from "../edge/publication-store.ts";
import { SiteFiles, type SiteFile } from "./static-files.ts";
import { LOCAL_STATE } from "../platform/state-setup.ts";

type Handler = (req: Request, context: ServeContext) => Promise<Response> | Response;

/** A function of the project: its handler and the paths it declares (none: only /.netlify/functions/<name>). */
interface LocalFunction {
  name: string;
  paths: string[];
  /** Its paths, compiled once. */
  match: RouteMatcher;
  /** The methods it takes, when its module says (`methods`); others get 405 here. */
  methods?: FunctionMethods;
  handler: Handler;
  /**
   * The same decision as `handler` without a web Request and Response, when
   * the function offers one (an edition endpoint's `answer`): the fast path.
   */
  answer?: EditionHandler["answer"];
}

/**
 * Loads every function in the functions folder, as Netlify finds them: one
 * per .mts file (or per .mjs file, in a folder of compiled functions).
 */
async function loadFunctions(dir: string, extension: ".mts" | ".mjs"): Promise<Map<string, LocalFunction>> {
  const names = (await readdir(dir)).filter((f) => f.endsWith(extension)).map((f) => f.slice(0, -extension.length));
  const loaded = await Promise.all(
    names.sort().map(async (name) => {
      const module = (await import(pathToFileURL(path.join(dir, `${name}${extension}`)).href)) as {
        default: Handler & Partial<Pick<EditionHandler, "answer">>;
        config?: FunctionConfig;
        methods?: FunctionMethods;
      };
      // A scheduled function runs on its schedule only (on Netlify it has no URL): no route reaches it here.
      if (module.config?.schedule) return undefined;
      const paths = functionPaths(module.config);
      const { default: handler, methods } = module;
      return { name, paths, match: compileRoutes(paths), methods, handler, answer: handler.answer };
    }),
  );
  return new Map(loaded.filter((f) => f !== undefined).map((f) => [f.name, f]));
}

const HTML = "text/html; charset=utf-8";
const TYPES: Record<string, string> = {
  ".html": HTML,
  ".json": "application/json",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
};

export interface LocalServer {
  url: string;
  server: Server;
  /** Stops at once: every connection is cut (tests). */
  close(): Promise<void>;
  /**
   * Stops gracefully (SIGTERM, Ctrl+C): accepts nothing new, ends the live
   * streams, finishes the requests in flight, and cuts what is left after `graceMs`.
   */
  shutdown(graceMs?: number): Promise<void>;
}

/** Starts the server; `port: 0` picks a free port (tests). */
export interface ServerOptions {
  port?: number;
  /** The address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every interface, behind a proxy). */
  host?: string;
  /** The project: netlify.toml and functions/ are read from here. */
  root?: string;
  /** The built site (default: netlify.toml's publish folder); the functions' data is beside it (siteDataDir). */
  siteDir?: string;
  /**
   * The site the functions read their data from (default: `siteDir`). A test
   * gives them a copy that holds only what Netlify bundles with them.
   */
  functionSite?: string;
  /** The subscriptions' file store (default: <root>/.littlepress/state). */
  stateDir?: string;
  /** The print-key services the functions may send to (default: the built site's list, content/site.json). */
  printKeyOrigins?: readonly PrintKeyOrigin[];
  /**
   * The reverse proxies whose X-Forwarded-For is believed (addresses, CIDR
   * ranges, or proxy-addr's names such as "loopback"); default none: the
   * client is the socket's peer. `npm run serve -- --trust-proxy loopback`.
   */
  trustProxy?: string[];
  /**
   * Answer only requests whose Host names this server itself (127.0.0.1,
   * localhost, [::1] with its port), so that a web page cannot reach it under
   * another name (DNS rebinding). Default: under `npm start` (live).
   */
  ownHostsOnly?: boolean;
  /**
   * The file of the local sealing key for stateDir, when LITTLEPRESS_SEAL_KEY
   * is not set (default: state-setup.ts's localKeyFile, in the user's config
   * folder); tests give one in a temporary folder.
   */
  keyFile?: string;
  /**
   * Serve each publication's delivery history at /<slug>/deliveries/ (default:
   * under `npm start` only; never from `npm run serve`, which may face the internet).
   */
  history?: boolean;
  /** `npm start`: pages opened in a browser reload after each build (lib/server/live-reload.ts). */
  live?: LiveChannel;
  /**
   * A folder of the functions already compiled, one .mjs per function, to
   * load instead of the project's .mts files (lib/server/compiled-server.ts).
   */
  compiledFunctions?: string;
  /**
   * Listen only once this has settled (`npm start`: its first build), so that
   * nothing is answered from a site not yet built. A rejection is thrown.
   */
  listenAfter?: Promise<unknown>;
}

/** A request body the server does not read (refused, wrong method) is drained up to this many bytes... */
export const DRAIN_BYTES = 1024 * 1024;
/** ...for at most this long; past either the answer says `Connection: close` and the connection ends. */
export const DRAIN_MS = 2_000;
/** How long a graceful shutdown waits for the requests in flight. */
export const SHUTDOWN_GRACE_MS = 5_000;

export async function startServer(options: ServerOptions = {}): Promise<LocalServer> {
  const { port = 8080, host = "127.0.0.1", root = process.cwd(), siteDir, functionSite, live, stateDir } = options;
  const { keyFile } = options;
  const { history = live !== undefined, ownHostsOnly = live !== undefined } = options;
  const config = readNetlifyConfig(path.join(root, "netlify.toml"));
  const site = path.resolve(root, siteDir ?? config.publish);
  const { compiledFunctions } = options;
  const functions = compiledFunctions
    ? await loadFunctions(compiledFunctions, ".mjs")
    : await loadFunctions(path.join(root, config.functions), ".mts");
  const functionData = path.resolve(root, functionSite ?? site);
  const context: ServeContext = {
    littlepressSite: functionData,
    littlepressState: path.resolve(root, stateDir ?? LOCAL_STATE),
    ...(keyFile !== undefined && { littlepressKeyFile: path.resolve(root, keyFile) }),
    littlepressHistory: history,
    ...(options.printKeyOrigins ? { littlepressPrintKeys: options.printKeyOrigins } : {}),
  };
  const files = new SiteFiles(site);
  const served: Served = {
    config,
    context,
    functions,
    live: live !== undefined,
    files,
    routes: new Map(),
    trust: proxyaddr.compile(options.trustProxy ?? []),
    hosts: undefined,
  };
  // After each build: its files and its publications' indexes, not the ones kept.
  live?.subscribe(() => {
    files.forget();
    forgetSite(functionData);
  });
  const streams = new Set<ServerResponse>();
  const responses = responseClass();
  const server = createServer({ ServerResponse: responses }, (req, res) => {
    if (served.hosts && !served.hosts.has((req.headers.host ?? "").toLowerCase())) {
      notOwnHost(req, res, url)?.catch((error: unknown) => fault(error, req, res));
      return;
    }
    if (live && req.url === LIVE_EVENTS && (req.method === "GET" || req.method === "HEAD")) {
      streams.add(res);
      res.once("close", () => streams.delete(res));
      return liveEvents(live, req, res);
    }
    // The one error boundary: most answers are written before answer() returns, others settle later.
    try {
      answer(served, req, res)?.catch((error: unknown) => fault(error, req, res));
    } catch (error) {
      fault(error, req, res);
    }
  });
  await options.listenAfter;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address : { address: host, port };
  const url = `http://${bound.address.includes(":") ? `[${bound.address}]` : bound.address}:${bound.port}`;
  // The functions that ask the site over HTTP (subscribe, deliver) ask it here, never at a Host a client sent.
  context.littlepressOrigin = url;
  if (ownHostsOnly) served.hosts = new Set(["127.0.0.1", "localhost", "[::1]"].map((h) => `${h}:${bound.port}`));
  const stopped = new Promise<void>((resolve) => server.once("close", () => resolve()));
  let closing = false;
  const shutdown = (graceMs = SHUTDOWN_GRACE_MS) => {
    if (!closing) {
      closing = true;
      closeOnAnswer(responses);
      for (const res of streams) res.end();
      server.close();
      server.closeIdleConnections();
      // Keep-alive connections go idle as their last answer ends (it says Connection: close).
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      idle.unref();
      cut.unref();
      void stopped.then(() => (clearInterval(idle), clearTimeout(cut)));
    }
    return stopped;
  };
  return {
    url,
    server,
    shutdown,
    close: () => {
      void shutdown(0);
      server.closeAllConnections();
      return stopped;
    },
  };
}

/** What every request is answered from. */
interface Served {
  config: NetlifyConfig;
  /** What the functions are handed with each request: the site they read. */
  context: ServeContext;
  functions: Map<string, LocalFunction>;
  /** Pages opened in a browser get the live-reload script (`npm start`). */
  live: boolean;
  /** The site's files, looked up once and kept (lib/server/static-files.ts). */
  files: SiteFiles;
  /** The function each URL path reaches (or none), found once per path (routeOf). */
  routes: Map<string, LocalFunction | null>;
  /** Which peers are proxies whose X-Forwarded-For names the client (ServerOptions.trustProxy). */
  trust: (address: string, hop: number) => boolean;
  /** The Host headers answered, when only the server's own are (ServerOptions.ownHostsOnly). */
  hosts: Set<string> | undefined;
}

/** A request under another host name than the server's own: refused before anything is read or shown. */
function notOwnHost(req: IncomingMessage, res: ServerResponse, url: string) {
  const text = `This server answers only at ${url}/ (and localhost): the Host header names another.\n`;
  return simple(req, res, 421, text);
}

/**
 * Each server's own response class, so that on shutdown its answers, those
 * begun before and written after included, say `Connection: close`
 * (closeOnAnswer), without a list of the answers in flight kept (and a
 * listener added) per request, and without a cost per answer until then.
 */
function responseClass(): typeof ServerResponse {
  class ServedResponse extends ServerResponse {}
  return ServedResponse as typeof ServerResponse;
}

function closeOnAnswer(responses: typeof ServerResponse) {
  // Assigned, not declared: writeHead's overloads cannot be restated in a subclass.
  Object.assign(responses.prototype, {
    writeHead(this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      if (!this.headersSent) this.setHeader("Connection", "close");
      return ServerResponse.prototype.writeHead.apply(this, args);
    },
  });
}

/** What the boundary does with an error no answer caught. */
function fault(error: unknown, req: IncomingMessage, res: ServerResponse) {
  // A client that hung up is not a fault of the server.
  if (req.destroyed || res.destroyed || isHangUp(error)) return void res.destroy();
  console.error(`serve: internal fault: ${String(error)}`);
  if (!res.headersSent) res.writeHead(500, { "Content-Type": TEXT, Connection: "close" });
  res.end("Internal error in the local server\n");
}

const TEXT = "text/plain; charset=utf-8";
const STATIC_METHODS = "GET, HEAD";

/** Errors of a connection the client closed. */
function isHangUp(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    error instanceof ClientGone ||
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "ERR_STREAM_PREMATURE_CLOSE" ||
    code === "ERR_STREAM_DESTROYED"
  );
}

/** The client closed the connection before its request body was all sent. */
class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before sending the whole request");
  }
}

function answer(served: Served, req: IncomingMessage, res: ServerResponse): Promise<void> | void {
  const target = requestTarget(req);
  if (!target) return simple(req, res, 400, BAD_TARGET);
  const method = req.method ?? "GET";
  const { config, functions } = served;
  const fn = routeOf(served, target.pathname);
  if (fn) {
    const url = target.url();
    return url ? callFunction(served, fn, url, req, res) : simple(req, res, 400, BAD_TARGET);
  }
  if (method !== "GET" && method !== "HEAD") {
    return simple(req, res, 405, `${method} is not allowed here: static files take ${STATIC_METHODS}.\n`, {
      Allow: STATIC_METHODS,
    });
  }
  const pathname = safeDecode(target.pathname);
  for (const rule of config.redirects) {
    const params = rule.match(pathname);
    if (!params) continue;
    if (!rule.force && served.files.find(pathname)) break; // Netlify: an existing file shadows unforced rules
    const to = fillTarget(rule.to, params);
    const fn = /^\/\.netlify\/functions\/([A-Za-z0-9_-]+)/.exec(to);
    const rewritten = fn ? functions.get(fn[1]!) : undefined;
    const url = rule.status === 200 && rewritten && !rewritten.paths.length ? target.url() : undefined;
    if (rewritten && url) return callFunction(served, rewritten, url, req, res);
    if (rule.status === 301 || rule.status === 302) {
      return afterBody(req, res, () => void res.writeHead(rule.status, { Location: to, "Content-Length": "0" }).end());
    }
    return serveStatic(served, to, req, res, rule.status);
  }
  return serveStatic(served, pathname, req, res, 200);
}

const BAD_TARGET = "Bad request: the Host header or the request target cannot be read.\n";

/** Paths whose function (or none) is kept; past this many the list starts again (any client can make up paths). */
const ROUTES_KEPT = 4096;

/** The function a URL path reaches, or undefined (a file, a redirect): found once per path, then kept. */
function routeOf(served: Served, pathname: string): LocalFunction | undefined {
  let fn = served.routes.get(pathname);
  if (fn === undefined) {
    fn = findFunction(served.functions, pathname);
    if (served.routes.size >= ROUTES_KEPT) served.routes.clear();
    served.routes.set(pathname, fn);
  }
  return fn ?? undefined;
}

/** Netlify: a function with paths answers there (before redirects and files) and only there. */
function findFunction(functions: Map<string, LocalFunction>, pathname: string): LocalFunction | null {
  const direct = /^\/\.netlify\/functions\/([A-Za-z0-9_-]+)\/?$/.exec(safeDecode(pathname));
  const named = direct ? functions.get(direct[1]!) : undefined;
  if (named && !named.paths.length) return named;
  for (const fn of functions.values()) if (fn.match(pathname)) return fn;
  return null;
}

/** A request's target as routed: its path as the URL standard reads it, and its whole URL when a function needs it. */
interface Target {
  pathname: string;
  /** Undefined when it cannot be read (answered 400). */
  url(): URL | undefined;
}

/**
 * A path that reads the same as a string and as a URL's pathname: nothing to
 * decode or normalise (no %, no backslash, no dot segment), so most requests
 * are routed without parsing a URL. Any other goes through the URL parser.
 */
const PLAIN_PATH = /^\/[\w~./-]*$/;
const isPlainPath = (path: string) => PLAIN_PATH.test(path) && !path.includes("/.");

function requestTarget(req: IncomingMessage): Target | undefined {
  const target = req.url ?? "";
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  if (!isPlainPath(path)) {
    const url = requestUrl(req);
    return url && { pathname: url.pathname, url: () => url };
  }
  const origin = originOf(req.headers.host ?? "127.0.0.1");
  if (origin === undefined) return undefined;
  return {
    pathname: path,
    url: () => {
      try {
        return new URL(origin + target);
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The request's URL, from its Host header and its target; undefined when
 * either cannot be read (a Host with a space, a bad port, a target that is not
 * a path), which is the client's error, answered 400.
 */
function requestUrl(req: IncomingMessage): URL | undefined {
  let target = req.url ?? "";
  try {
    // The absolute form (`GET http://host/path`), which proxies may send: its path, on the Host's origin.
    if (/^https?:\/\//i.test(target)) {
      const absolute = new URL(target);
      target = absolute.pathname + absolute.search;
    }
    if (!target.startsWith("/")) return undefined;
    const origin = originOf(req.headers.host ?? "127.0.0.1");
    // Concatenated, not resolved: "//host/x" stays a path on this origin.
    return origin === undefined ? undefined : new URL(origin + target);
  } catch {
    return undefined;
  }
}

/** Origins of the Host headers seen (a server sees a handful), so that a URL is parsed once per request. */
const origins = new Map<string, string | undefined>();
const ORIGINS_KEPT = 64;

/** `http://` and the Host header, as an origin; undefined when the header is not a host and port. */
function originOf(host: string): string | undefined {
  if (origins.has(host)) return origins.get(host);
  let origin: string | undefined;
  try {
    const url = new URL(`http://${host}`);
    const plain = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    origin = plain ? url.origin : undefined;
  } catch {
    origin = undefined;
  }
  if (origins.size < ORIGINS_KEPT) origins.set(host, origin);
  return origin;
}

/** A short plain-text answer (400, 405). */
function simple(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  return afterBody(req, res, () => {
    const body = Buffer.from(text);
    res.writeHead(status, { "Content-Type": TEXT, "Content-Length": String(body.length), ...headers });
    res.end(req.method === "HEAD" ? undefined : body);
  });
}

/**
 * Runs `then` once the request body is settled (settleBody): at once, in the
 * same turn, for a request that has none left unread, as the platform's GETs.
 */
function afterBody(req: IncomingMessage, res: ServerResponse, then: () => Promise<void> | void): Promise<void> | void {
  return bodyLeft(req) ? settleBody(req, res).then(then) : then();
}

/**
 * Whether some of the request body is still unread. None (HTTP/1.1: neither
 * Transfer-Encoding nor a Content-Length above 0, as with the platform's
 * GETs), or all of it came and was read: nothing to wait for. Waiting for a
 * bodyless request's "end" event instead put every answer off by a turn of
 * the event loop.
 */
function bodyLeft(req: IncomingMessage): boolean {
  const bodyless = req.headers["transfer-encoding"] === undefined && !(Number(req.headers["content-length"] ?? 0) > 0);
  return !(bodyless || req.readableEnded || (req.complete && req.readableLength === 0));
}

/**
 * Before answering: whatever of the request body nobody read is read and
 * dropped, up to DRAIN_BYTES and DRAIN_MS, so that a keep-alive connection's
 * next request is read as a request; a body larger than that (or slower) is
 * not waited for: the answer says `Connection: close` and the connection ends
 * after it.
 */
async function settleBody(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!bodyLeft(req)) return;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!req.complete && declared > DRAIN_BYTES) return void res.setHeader("Connection", "close");
  if (!(await drain(req))) res.setHeader("Connection", "close");
}

/** Reads and drops the rest of the body; false when it is larger or slower than the bounds allow. */
function drain(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      req.off("data", count).off("end", end).off("close", gone);
      if (!ended) req.pause();
      resolve(ended);
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_BYTES) done(false);
    };
    const end = () => done(true);
    const gone = () => done(req.readableEnded);
    const timer = setTimeout(() => done(false), DRAIN_MS);
    req.removeAllListeners("data"); // a body stream the function stopped reading (bodyOf) lets go of it
    req.on("data", count).once("end", end).once("close", gone);
    req.resume();
  });
}

/**
 * The request body as a web stream that the function may stop reading at any
 * point (a body over its limit) without the connection being torn down: the
 * rest is left for settleBody. A client that hangs up mid-body errors it with
 * ClientGone.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let stopped = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (stopped) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.once("end", () => {
          if (!stopped) controller.close();
          stopped = true;
        });
        req.once("close", () => {
          if (!stopped && !req.readableEnded) controller.error(new ClientGone());
          stopped = true;
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        stopped = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Hands the request to a function as Netlify would: a web Request with the
 * original URL. Its context names the site this server serves, which is
 * where the function finds its data (Netlify's names none: there the data is
 * beside the function). A method a web Request cannot carry (TRACE) is
 * answered 405 with the methods the function takes, as it answers OPTIONS.
 */
async function callFunction(served: Served, fn: LocalFunction, url: URL, req: IncomingMessage, res: ServerResponse) {
  const { context, live } = served;
  const method = req.method ?? "GET";
  if (fn.methods && !fn.methods.includes(method)) {
    const allow = fn.methods.join(", ");
    return simple(req, res, 405, `${method} is not allowed here: this address takes ${allow}.\n`, { Allow: allow });
  }
  if (fn.answer) return answerNatively(fn.answer, url, req, res, served);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = method !== "GET" && method !== "HEAD";
  let request: Request;
  try {
    request = new Request(url, {
      method,
      headers,
      body: hasBody ? bodyOf(req) : undefined,
      ...(hasBody ? { duplex: "half" } : {}),
    });
  } catch {
    const probe = await fn.handler(new Request(url, { method: "OPTIONS" }), context);
    const allow = probe.headers.get("allow") ?? STATIC_METHODS;
    return simple(req, res, 405, `${method} is not allowed here: this address takes ${allow}.\n`, { Allow: allow });
  }
  const response = await fn.handler(request, { ...context, ip: proxyaddr(req, served.trust) });
  // Edition pages are a few KiB: one buffer beats a stream for every request.
  let body: Buffer | undefined =
    response.body && method !== "HEAD" ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (live && body && wantsLiveScript(req, response.headers.get("content-type") ?? undefined)) {
    body = withLiveScript(body);
    response.headers.delete("content-length");
  }
  await settleBody(req, res);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

/**
 * The fast path: the function's own decision (`answer`, what its handler
 * turns into a Response for Netlify) written straight to the socket, without
 * a web Request and Response per request.
 */
async function answerNatively(
  answer: EditionHandler["answer"],
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  { context, live }: Served,
) {
  const method = req.method ?? "GET";
  const { status, headers, body } = await answer(url, method, context);
  return afterBody(req, res, () => {
    if (live && body && wantsLiveScript(req, headers["Content-Type"])) {
      const { "Content-Length": _length, ...rest } = headers;
      return void res.writeHead(status, rest).end(withLiveScript(Buffer.from(body)));
    }
    res.writeHead(status, headers);
    res.end(body);
  });
}

function serveStatic(served: Served, pathname: string, req: IncomingMessage, res: ServerResponse, status: number) {
  return afterBody(req, res, () => sendFile(served, pathname, req, res, status));
}

/**
 * A file's headers, made once per file as found (SiteFiles makes a SiteFile
 * per path, and makes it again when the file changes): `own`, what every
 * answer with the file carries (type, caching, netlify.toml's rules), and
 * `plain`, those of a plain 200 (with validators, ranges and length).
 */
const fileHeaders = new WeakMap<
  SiteFile,
  { own: Readonly<Record<string, string>>; plain: Readonly<Record<string, string>> }
>();

function headersOf({ config }: Served, pathname: string, found: SiteFile) {
  let headers = fileHeaders.get(found);
  if (!headers) {
    const own: Record<string, string> = {
      "Content-Type": TYPES[path.extname(found.file)] ?? "application/octet-stream",
      "Cache-Control": "public, max-age=0, must-revalidate",
    };
    for (const rule of config.headers) if (rule.match(pathname)) Object.assign(own, rule.values);
    const plain = {
      ...own,
      ETag: found.etag,
      "Last-Modified": found.lastModified,
      "Accept-Ranges": "bytes",
      "Content-Length": String(found.info.size),
    };
    fileHeaders.set(found, (headers = { own, plain }));
  }
  return headers;
}

/** A request whose answer is the file as it is: no condition, no range. */
const unconditional = (req: IncomingMessage) =>
  req.headers["if-none-match"] === undefined &&
  req.headers["if-modified-since"] === undefined &&
  req.headers.range === undefined;

function sendFile(served: Served, pathname: string, req: IncomingMessage, res: ServerResponse, status: number) {
  const found = status === 404 ? undefined : served.files.find(pathname);
  if (!found) return notFound(served, req, res);
  const { own, plain } = headersOf(served, pathname, found);
  const head = req.method === "HEAD";
  const { live } = served;
  // The common case, written at once: a small file as it is, from memory.
  if (status === 200 && found.bytes && unconditional(req) && !(live && wantsLiveScript(req, plain["Content-Type"]))) {
    return void res.writeHead(200, plain).end(head ? undefined : found.bytes);
  }
  const { file, info, bytes, etag } = found;
  const headers = { ...own };
  if (live && wantsLiveScript(req, headers["Content-Type"])) {
    // The page with the live script is not the file: no validators, no ranges.
    return (async () => {
      const html = withLiveScript(bytes ?? (await readFile(file)));
      res.writeHead(status, headers).end(head ? undefined : html);
    })();
  }
  const validators = { ETag: etag, "Last-Modified": found.lastModified };
  Object.assign(headers, validators);
  if (status === 200 && notModified(req, etag, info.mtime)) {
    delete headers["Content-Type"];
    return void res.writeHead(304, headers).end();
  }
  let range: ByteRange | "unsatisfiable" | undefined;
  if (status === 200) {
    headers["Accept-Ranges"] = "bytes";
    if (rangeStillApplies(req, etag, info.mtime)) range = byteRange(req.headers.range, info.size);
  }
  if (range === "unsatisfiable") {
    const text = "The requested range is outside the file.\n";
    return void res
      .writeHead(416, { "Content-Type": TEXT, "Content-Range": `bytes */${info.size}`, ...validators })
      .end(head ? undefined : text);
  }
  if (range) {
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${info.size}`;
    headers["Content-Length"] = String(range.end - range.start + 1);
    res.writeHead(206, headers);
  } else {
    headers["Content-Length"] = String(info.size);
    res.writeHead(status, headers);
  }
  if (head) return void res.end();
  if (bytes) return void res.end(range ? bytes.subarray(range.start, range.end + 1) : bytes);
  // A client that hangs up mid-file ends the stream; that is not a fault.
  return pipeline(createReadStream(file, range ?? {}), res).catch(() => void res.destroy());
}

/** Not found: the site's 404 page, as Netlify serves it. */
async function notFound({ files, live }: Served, req: IncomingMessage, res: ServerResponse) {
  const headers: Record<string, string> = { "Content-Type": HTML };
  const page = files.find("/404.html");
  const bytes = page && (page.bytes ?? (await readFile(page.file)));
  const head = req.method === "HEAD";
  if (live && wantsLiveScript(req, HTML)) {
    // Even before a first good build, a page in the browser hears when there is one.
    const html = withLiveScript(bytes ?? Buffer.from("<!doctype html><p>Not found</p>"));
    return void res.writeHead(404, headers).end(head ? undefined : html);
  }
  const html = bytes ?? Buffer.from("Not found\n");
  if (!page) headers["Content-Type"] = TEXT;
  headers["Content-Length"] = String(html.length);
  res.writeHead(404, headers).end(head ? undefined : html);
}

/** Whether the client's copy is current: If-None-Match (weak comparison) first, else If-Modified-Since. */
function notModified(req: IncomingMessage, etag: string, mtime: Date): boolean {
  const match = req.headers["if-none-match"];
  if (match !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
    return match.trim() === "*" || match.split(",").some((tag) => opaque(tag) === opaque(etag));
  }
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return Number.isFinite(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

/** If-Range: a range applies only to the copy the client names (strong ETag or exact date), or with no If-Range. */
function rangeStillApplies(req: IncomingMessage, etag: string, mtime: Date): boolean {
  const header = req.headers["if-range"];
  const condition = header === undefined ? undefined : String(header).trim();
  if (condition === undefined) return true;
  if (condition.startsWith('"') || condition.startsWith("W/")) return condition === etag;
  return Date.parse(condition) === Math.floor(mtime.getTime() / 1000) * 1000;
}

interface ByteRange {
  start: number;
  end: number;
}

/**
 * One range of `Range: bytes=…` over a file of `size` bytes; undefined (the
 * whole file) when there is none, it is malformed, or it asks for several
 * (a server may ignore Range); "unsatisfiable" when it starts past the end.
 */
export function byteRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? Infinity : Number(m[2]);
  if (end < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: Math.min(end, size - 1) };
}

function safeDecode(pathname: string): string {
  if (!pathname.includes("%")) return pathname;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
