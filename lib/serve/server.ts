// The local server behind `npm start`: serves the built site and runs the
// functions through the very handlers Netlify runs, routed as Netlify routes
// them: each function's own `config.path`, then netlify.toml's redirects and
// headers. Binds 127.0.0.1 only.
import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { LIVE_EVENTS, liveEvents, wantsLiveScript, withLiveScript, type LiveChannel } from "./live-reload.ts";
import { fillTarget, readNetlifyConfig, type NetlifyConfig } from "./netlify-config.ts";
import { functionPaths, matchPaths, type FunctionConfig } from "./routes.ts";
import { insideSite, type ServeContext } from "./site-folder.ts";

type Handler = (req: Request, context: ServeContext) => Promise<Response> | Response;

/** A function of the project: its handler and the paths it declares (none: only /.netlify/functions/<name>). */
interface LocalFunction {
  name: string;
  paths: string[];
  handler: Handler;
}

/** Loads every function in the functions folder, as Netlify finds them: one per .mts file. */
async function loadFunctions(dir: string): Promise<Map<string, LocalFunction>> {
  const names = (await readdir(dir)).filter((f) => f.endsWith(".mts")).map((f) => f.slice(0, -".mts".length));
  const loaded = await Promise.all(
    names.sort().map(async (name) => {
      const module = (await import(pathToFileURL(path.join(dir, `${name}.mts`)).href)) as {
        default: Handler;
        config?: FunctionConfig;
      };
      return { name, paths: functionPaths(module.config), handler: module.default };
    }),
  );
  return new Map(loaded.map((f) => [f.name, f]));
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
  close(): Promise<void>;
}

/** Starts the server; `port: 0` picks a free port (tests). */
export interface ServerOptions {
  port?: number;
  /** The project: netlify.toml and functions/ are read from here. */
  root?: string;
  /** The built site (default: netlify.toml's publish folder). */
  siteDir?: string;
  /**
   * The site the functions read their data from (default: `siteDir`). A test
   * gives them a copy that holds only what Netlify bundles with them.
   */
  functionSite?: string;
  /** `npm start`: pages opened in a browser reload after each build (lib/serve/live-reload.ts). */
  live?: LiveChannel;
}

export async function startServer(options: ServerOptions = {}): Promise<LocalServer> {
  const { port = 8080, root = process.cwd(), siteDir, functionSite, live } = options;
  const config = readNetlifyConfig(path.join(root, "netlify.toml"));
  const site = path.resolve(root, siteDir ?? config.publish);
  const functions = await loadFunctions(path.join(root, config.functions));
  const context: ServeContext = { littlepressSite: path.resolve(root, functionSite ?? site) };
  const server = createServer((req, res) => {
    if (live && req.url === LIVE_EVENTS) return liveEvents(live, req, res);
    route({ config, site, context, functions, live: live !== undefined }, req, res).catch((error) => {
      console.error(`serve: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Internal error in the local server\n");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  return {
    url,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What every request is answered from. */
interface Served {
  config: NetlifyConfig;
  site: string;
  /** What the functions are handed with each request: the site they read. */
  context: ServeContext;
  functions: Map<string, LocalFunction>;
  /** Pages opened in a browser get the live-reload script (`npm start`). */
  live: boolean;
}

async function route(served: Served, req: IncomingMessage, res: ServerResponse) {
  const { config, site, functions } = served;
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const pathname = safeDecode(url.pathname);
  // Netlify: a function with paths answers there (before redirects and files) and only there.
  const direct = /^\/\.netlify\/functions\/([A-Za-z0-9_-]+)\/?$/.exec(pathname);
  const named = direct ? functions.get(direct[1]!) : undefined;
  if (named && !named.paths.length) return callFunction(served, named, req, res);
  for (const fn of functions.values()) {
    if (matchPaths(fn.paths, url.pathname)) return callFunction(served, fn, req, res);
  }
  for (const rule of config.redirects) {
    const params = rule.match(pathname);
    if (!params) continue;
    if (!rule.force && (await staticFile(site, pathname))) break; // Netlify: an existing file shadows unforced rules
    const target = fillTarget(rule.to, params);
    const fn = /^\/\.netlify\/functions\/([A-Za-z0-9_-]+)/.exec(target);
    const rewritten = fn ? functions.get(fn[1]!) : undefined;
    if (rule.status === 200 && rewritten && !rewritten.paths.length) return callFunction(served, rewritten, req, res);
    if (rule.status === 301 || rule.status === 302) return void res.writeHead(rule.status, { Location: target }).end();
    return serveStatic(served, target, req, res, rule.status);
  }
  return serveStatic(served, pathname, req, res, 200);
}

/**
 * Hands the request to a function as Netlify would: a web Request with the
 * original URL. Its context names the site this server serves, which is
 * where the function finds its data (Netlify's names none: there the data is
 * beside the function).
 */
async function callFunction({ context, live }: Served, fn: LocalFunction, req: IncomingMessage, res: ServerResponse) {
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    ...(hasBody ? { duplex: "half" } : {}),
  });
  const response = await fn.handler(request, context);
  // Edition pages are a few KiB: one buffer beats a stream for every request.
  let body: Buffer | undefined =
    response.body && method !== "HEAD" ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (live && body && wantsLiveScript(req, response.headers.get("content-type") ?? undefined)) {
    body = withLiveScript(body);
    response.headers.delete("content-length");
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

async function staticFile(site: string, pathname: string): Promise<string | undefined> {
  const file = insideSite(site, pathname);
  if (!file) return undefined;
  for (const candidate of [file, path.join(file, "index.html")]) {
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile()) return candidate;
  }
  return undefined;
}

async function serveStatic(
  { config, site, live }: Served,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
) {
  const file = status === 404 ? undefined : await staticFile(site, pathname);
  const headers: Record<string, string> = { "Content-Type": HTML };
  if (file) {
    headers["Content-Type"] = TYPES[path.extname(file)] ?? "application/octet-stream";
    headers["Cache-Control"] = "public, max-age=0, must-revalidate";
    for (const rule of config.headers) if (rule.match(pathname)) Object.assign(headers, rule.values);
  }
  const page = file ?? (await staticFile(site, "/404.html"));
  res.writeHead(file ? status : 404, headers);
  if (req.method === "HEAD") return void res.end();
  if (live && wantsLiveScript(req, headers["Content-Type"])) {
    // Even before a first good build, a page in the browser hears when there is one.
    return void res.end(withLiveScript(page ? await readFile(page) : Buffer.from("<!doctype html><p>Not found</p>")));
  }
  if (page) return void createReadStream(page).pipe(res);
  res.end("Not found\n");
}

function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
