// The server behind `npm start` and `npm run serve`: the site's one Hono app
// (app.ts) on Node through @hono/node-server, the functions run through the
// very handlers Netlify runs. Binds 127.0.0.1 unless told otherwise; fit to
// run behind a reverse proxy (docs: self-hosting). The functions' data is not
// in the site it serves (lib/model/site-paths.ts), so no URL reaches it.
import { existsSync } from "node:fs";
import { ServerResponse, type Server } from "node:http";
import path from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import proxyaddr from "proxy-addr";
import type { PrintKeyOrigin } from "../model/print-key.ts";
import type { LocalSite, ServeContext } from "../edge/site-folder.ts";
import { LOCAL_STATE } from "../platform/stores/state-setup.ts";
import { siteApp } from "./app.ts";
import { loadFunctions } from "./functions.ts";
import type { LiveChannel } from "./live-reload.ts";
import { projectNetlifyConfig, type NetlifyConfig } from "./netlify-config.ts";
import { settleUnreadBodies } from "./unread-bodies.ts";
import { packageFunctions } from "../build/package-files.ts";

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
   * Answer only requests whose Host names this machine's loopback (127.0.0.1,
   * localhost, [::1], on any port: a proxy here such as netlify dev forwards its
   * own), so that a web page cannot reach it under another name (DNS
   * rebinding). Default: under `npm start` (live).
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
   * Answer only once this has settled (`npm start`: its first build), so that
   * nothing is answered from a site not yet built; the requests wait. A
   * rejection closes the server and is thrown.
   */
  answerAfter?: Promise<unknown>;
  /** A server already listening (openServer), instead of one on `port` at `host`. */
  opened?: OpenServer;
}

/** How long a graceful shutdown waits for the requests in flight. */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * The site's netlify.toml and functions folder; a site that has neither (an
 * Eleventy blog that added the plugin, served before it is set up for Netlify)
 * is served by the package's own: the same rules and the same functions.
 */
function siteConfig(root: string): { config: NetlifyConfig; functionsDir: string } {
  const config = projectNetlifyConfig(root);
  const functionsDir = path.join(root, config.functions);
  return { config, functionsDir: existsSync(functionsDir) ? functionsDir : packageFunctions() };
}

export async function startServer(options: ServerOptions = {}): Promise<LocalServer> {
  const opened = options.opened ?? (await openServer(options.port ?? 8080, options.host));
  const { server, answers, url } = opened;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  server.once("close", stop);
  const shutdown = gracefulShutdown(server, answers, stop);
  const close = () => {
    const closed = shutdown(0);
    server.closeAllConnections();
    return closed;
  };
  try {
    opened.serve((await appFor(options, opened, stopped)).fetch, options.answerAfter);
    await options.answerAfter;
  } catch (error) {
    await close();
    throw error;
  }
  return { url, server, shutdown, close };
}

/** The site's one app for `options`, served by `opened`; `stopped` ends its live streams. */
async function appFor(options: ServerOptions, opened: OpenServer, stopped: Promise<void>) {
  const { root = process.cwd(), live, ownHostsOnly = live !== undefined } = options;
  const { config, functionsDir } = siteConfig(root);
  const site = path.resolve(root, options.siteDir ?? config.publish);
  const local = localSite(options, root, site);
  // The functions that ask the site over HTTP (subscribe, deliver) ask it here, never at a Host a client sent.
  local.origin = opened.url;
  // After each build, the functions read the new one at their next request, in whatever module instance (siteFor).
  live?.subscribe((state) => (local.build = state.build));
  const hosts = new Set(["127.0.0.1", "localhost", "[::1]"].map((h) => `${h}:${opened.port}`));
  return siteApp({
    site,
    config,
    functions: await loadFunctions(functionsDir),
    context: { littlepress: local } satisfies ServeContext,
    trust: proxyaddr.compile(options.trustProxy ?? []),
    live,
    ...(ownHostsOnly && { ownHosts: () => hosts }),
    stopped,
  });
}

type Fetch = ReturnType<typeof siteApp>["fetch"];

/** A server listening before the app it serves is made (openServer). */
export interface OpenServer {
  server: Server;
  answers: typeof ServerResponse;
  url: string;
  port: number;
  /** Answers with `fetch` from now on, or once `after` has settled: the requests that came meanwhile too. */
  serve(fetch: Fetch, after?: Promise<unknown>): void;
}

/**
 * Node's HTTP server on `port` at `host`, listening at once: each request waits until `serve` gives it the app.
 * npm start opens its port so before Eleventy loads, as a tool that waits for it gives up (netlify dev, after some
 * 15 s), and answers nothing before its first build.
 */
export async function openServer(port: number, host = "127.0.0.1"): Promise<OpenServer> {
  let serving: Fetch | undefined;
  let give!: (fetch: Fetch) => void;
  const given = new Promise<Fetch>((resolve) => (give = resolve));
  const { server, answers } = nodeServer((...args) => (serving ? serving(...args) : given.then((f) => f(...args))));
  const { url, bound } = await listen(server, port, host);
  const serve = (fetch: Fetch, after: Promise<unknown> = Promise.resolve()) => {
    const go = () => give((serving = fetch));
    after.then(go, go);
  };
  return { server, answers, url, port: bound.port, serve };
}

/** The app on Node's HTTP server, with the server's own class of answers (for a graceful shutdown). */
function nodeServer(fetch: Fetch) {
  // This server's own response class: on shutdown its answers, those in flight included, say
  // `Connection: close` (closeOnAnswer), at no cost per request until then.
  const answers = class extends ServerResponse {} as typeof ServerResponse;
  const server = createAdaptorServer({ fetch, serverOptions: { ServerResponse: answers } }) as Server;
  // A body a route answered without reading to its end: drained, or the connection closed gracefully.
  settleUnreadBodies(server);
  return { server, answers };
}

/** What the functions are told of the site they serve: its data, its state, its key file and its options. */
function localSite(options: ServerOptions, root: string, site: string): LocalSite {
  const { functionSite, stateDir, keyFile, history = options.live !== undefined } = options;
  return {
    site: path.resolve(root, functionSite ?? site),
    state: path.resolve(root, stateDir ?? LOCAL_STATE),
    ...(keyFile !== undefined && { keyFile: path.resolve(root, keyFile) }),
    history,
    ...(options.printKeyOrigins ? { printKeys: options.printKeyOrigins } : {}),
  };
}

/** Listens on `port` at `host`; the address and port bound, and the server's URL. */
async function listen(server: Server, port: number, host: string) {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address : { address: host, port };
  return { bound, url: `http://${bound.address.includes(":") ? `[${bound.address}]` : bound.address}:${bound.port}` };
}

/**
 * The server's shutdown: accepts nothing new, ends the live streams (`stop`),
 * lets the requests in flight finish (each answer closing its connection), and
 * cuts what is left after `graceMs`; resolves once the server closed.
 */
function gracefulShutdown(server: Server, answers: typeof ServerResponse, stop: () => void) {
  let closing = false;
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  return (graceMs = SHUTDOWN_GRACE_MS): Promise<void> => {
    if (closing) return closed;
    closing = true;
    closeOnAnswer(answers);
    stop(); // the live streams end
    server.close();
    server.closeIdleConnections();
    // Keep-alive connections go idle as their last answer ends (it says Connection: close).
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    idle.unref();
    cut.unref();
    server.once("close", () => (clearInterval(idle), clearTimeout(cut)));
    return closed;
  };
}

/** From now on, every answer of this class says `Connection: close` (the connection ends after it). */
function closeOnAnswer(answers: typeof ServerResponse) {
  // Assigned, not declared: writeHead's overloads cannot be restated in a subclass.
  Object.assign(answers.prototype, {
    writeHead(this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
      if (!this.headersSent) this.setHeader("Connection", "close");
      return ServerResponse.prototype.writeHead.apply(this, args);
    },
  });
}
