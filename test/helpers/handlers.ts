// Calls the Netlify functions the way Netlify does: a web Request in, a
// Response out, with a context naming a site built for tests (as the local server's does).
import path from "node:path";
import edition from "../../functions/edition.mts";
import validateConfig from "../../functions/validate_config.mts";
import type { ServeContext } from "../../lib/edge/site-folder.ts";
import { builtSite } from "./sites.ts";

/** What the functions are handed besides the request: the site chosen with useSite. */
export const siteContext: ServeContext = {};

export function useSite(name: string) {
  siteContext.littlepressSite = path.resolve(builtSite(name));
}

export const BASE = "http://127.0.0.1";

export function getEdition(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  return edition(new Request(BASE + pathAndQuery, init), siteContext);
}

export function postConfig(
  pathname: string,
  body: BodyInit | null,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<Response> {
  return validateConfig(new Request(BASE + pathname, { method, body, headers }), siteContext);
}

/** Posts `config` the way the platform does: a url-encoded form field holding JSON text. */
export function postConfigForm(pathname: string, config: unknown): Promise<Response> {
  const body = new URLSearchParams({ config: typeof config === "string" ? config : JSON.stringify(config) });
  return postConfig(pathname, body.toString(), { "content-type": "application/x-www-form-urlencoded" });
}
