// Calls the Netlify functions the way Netlify does: a web Request in, a
// Response out, routed by the function's own `config.path` (its `:slug` in
// context.params), with a context naming a site built for tests (as the local server's does).
import path from "node:path";
import { Hono } from "hono";
import * as edition from "../../functions/edition.mts";
import * as validateConfig from "../../functions/validate_config.mts";
import type { FunctionHandler } from "../../lib/edge/http.ts";
import type { ServeContext } from "../../lib/edge/site-folder.ts";
import { builtSite } from "./sites.ts";

/** A function module as Netlify loads it. */
export interface FunctionModule {
  default: FunctionHandler;
  config: { path?: string | string[] };
}

/**
 * The function's answer to `req`, as Netlify gives it: its routes matched
 * against the URL and their parameters handed over; a URL none of them
 * matches is Netlify's 404 (the function is not called).
 */
export async function callFunction(fn: FunctionModule, req: Request, context: ServeContext = {}): Promise<Response> {
  return routerOf(fn).fetch(req, context);
}

/**
 * One router per function module, made at its first call: a router is built at its first match, and
 * making one a call was a fifth of the fuzzer's time (its regular expressions, and the exception
 * Hono's smart router throws to pick the router that takes the routes).
 */
function routerOf(fn: FunctionModule): Hono<{ Bindings: ServeContext }> {
  let app = routers.get(fn);
  if (!app) {
    app = new Hono<{ Bindings: ServeContext }>();
    for (const route of [fn.config.path ?? []].flat())
      app.all(route, (c) => fn.default(c.req.raw, { ...c.env, params: c.req.param() }));
    routers.set(fn, app);
  }
  return app;
}
const routers = new WeakMap<FunctionModule, Hono<{ Bindings: ServeContext }>>();

/** What the functions are handed besides the request: the site chosen with useSite. */
export const siteContext: ServeContext = {};

export function useSite(name: string) {
  siteContext.littlepress = { site: path.resolve(builtSite(name)) };
}

export const BASE = "http://127.0.0.1";

export function getEdition(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  return callFunction(edition, new Request(BASE + pathAndQuery, init), siteContext);
}

export function postConfig(
  pathname: string,
  body: BodyInit | null,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<Response> {
  return callFunction(validateConfig, new Request(BASE + pathname, { method, body, headers }), siteContext);
}

/** Posts `config` the way the platform does: a url-encoded form field holding JSON text. */
export function postConfigForm(pathname: string, config: unknown): Promise<Response> {
  const body = new URLSearchParams({ config: typeof config === "string" ? config : JSON.stringify(config) });
  return postConfig(pathname, body.toString(), { "content-type": "application/x-www-form-urlencoded" });
}
