// The local server behind `npm start`: serves the built site and runs the
// functions through the very handlers Netlify runs, routed by netlify.toml.
// Binds 127.0.0.1 only.
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { LIVE_EVENTS, liveEvents, wantsLiveScript, withLiveScript, type LiveChannel } from "./live-reload.ts";
import { fillTarget, readNetlifyConfig, type NetlifyConfig } from "./netlify-config.ts";

type Handler = (req: Request, context: object) => Promise<Response> | Response;

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
  /** `npm start`: pages opened in a browser reload after each build (lib/serve/live-reload.ts). */
  live?: LiveChannel;
}

export async function startServer({ port = 8080, root = process.cwd(), siteDir, live }: ServerOptions = {}): Promise<LocalServer> {
  const config = readNetlifyConfig(path.join(root, "netlify.toml"));
  const site = path.resolve(root, siteDir ?? config.publish);
  process.env.LITTLEPRESS_SITE_DIR = site; // where the functions find their manifests
  const handlers = new Map<string, Promise<Handler>>();
  const handler = (name: string) => {
    let h = handlers.get(name);
    if (!h) handlers.set(name, (h = import(pathToFileURL(path.join(root, config.functions, `${name}.mts`)).href).then((m) => m.default as Handler)));
    return h;
  };
  const server = createServer((req, res) => {
    if (live && req.url === LIVE_EVENTS) return liveEvents(live, req, res);
    route({ config, site, handler, live: live !== undefined }, req, res).catch((error) => {
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
  return { url, server, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** What every request is answered from. */
interface Served {
  config: NetlifyConfig;
  site: string;
  handler: (name: string) => Promise<Handler>;
  /** Pages opened in a browser get the live-reload script (`npm start`). */
  live: boolean;
}

async function route({ config, site, handler, live }: Served, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const pathname = safeDecode(url.pathname);
  const direct = /^\/\.netlify\/functions\/([A-Za-z0-9_-]+)\/?$/.exec(pathname);
  if (direct) return callFunction(await handler(direct[1]!), req, res, live);
  for (const rule of config.redirects) {
    const params = rule.match(pathname);
    if (!params) continue;
    if (!rule.force && (await staticFile(site, pathname))) break; // Netlify: an existing file shadows unforced rules
    const target = fillTarget(rule.to, params);
    const fn = /^\/\.netlify\/functions\/([A-Za-z0-9_-]+)/.exec(target);
    if (rule.status === 200 && fn) return callFunction(await handler(fn[1]!), req, res, live);
    if (rule.status === 301 || rule.status === 302) return void res.writeHead(rule.status, { Location: target }).end();
    return serveStatic({ config, site, handler, live }, target, req, res, rule.status);
  }
  return serveStatic({ config, site, handler, live }, pathname, req, res, 200);
}

/** Hands the request to a function exactly as Netlify would: a web Request with the original URL. */
async function callFunction(fn: Handler, req: IncomingMessage, res: ServerResponse, live: boolean) {
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
  } as RequestInit);
  const response = await fn(request, {});
  // Edition pages are a few KiB: one buffer beats a stream for every request.
  let body: Buffer | undefined = response.body && method !== "HEAD" ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (live && body && wantsLiveScript(req, response.headers.get("content-type") ?? undefined)) {
    body = withLiveScript(body);
    response.headers.delete("content-length");
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

async function staticFile(site: string, pathname: string): Promise<string | undefined> {
  const file = path.join(site, pathname);
  if (!file.startsWith(site + path.sep) && file !== site) return undefined; // no way out of the site
  for (const candidate of [file, path.join(file, "index.html")]) {
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile()) return candidate;
  }
  return undefined;
}

async function serveStatic({ config, site, live }: Served, pathname: string, req: IncomingMessage, res: ServerResponse, status: number) {
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
