// Calls the Netlify functions the way Netlify does: a web Request in, a
// Response out, with LITTLEPRESS_SITE_DIR pointing at a site built for tests.
import path from "node:path";
import edition from "../../functions/edition.mts";
import validateConfig from "../../functions/validate_config.mts";
import { builtSite } from "./sites.ts";

export function useSite(name: string) {
  process.env.LITTLEPRESS_SITE_DIR = path.resolve(builtSite(name));
}

export const BASE = "http://127.0.0.1";

export function getEdition(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  return edition(new Request(BASE + pathAndQuery, init));
}

export function postConfig(pathname: string, body: BodyInit | null, headers: Record<string, string> = {}, method = "POST"): Promise<Response> {
  return validateConfig(new Request(BASE + pathname, { method, body, headers }));
}

/** Posts `config` the way the platform does: a url-encoded form field holding JSON text. */
export function postConfigForm(pathname: string, config: unknown): Promise<Response> {
  const body = new URLSearchParams({ config: typeof config === "string" ? config : JSON.stringify(config) });
  return postConfig(pathname, body.toString(), { "content-type": "application/x-www-form-urlencoded" });
}
