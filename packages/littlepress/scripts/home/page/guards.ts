// What stands before every route: only clients on the home network (the
// socket's own address, never a header, in an allow-list of ranges: loopback,
// private, link-local, unique-local; a reserved or unusual address is refused
// too), only Host names that are this machine's (an address, localhost, a
// .local or .lan name, or one the owner named: a public site that points its
// name at the server, DNS rebinding, is turned away), a cookie that names the
// browser for its CSRF token, a POST only with that token, and pages that
// load nothing but the server's own.
import type { HttpBindings } from "@hono/node-server";
import { getCookie, setCookie } from "hono/cookie";
import type { Context, MiddlewareHandler } from "hono";
import ipaddr from "ipaddr.js";
import { isAddressLiteral } from "../../../lib/model/addresses.ts";
import { BROWSER_COOKIE, csrfValid } from "./auth.ts";
import { randomBytes } from "node:crypto";

export type HomeEnv = { Bindings: HttpBindings; Variables: { browser: string; form: Record<string, string> } };

export const CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'";

/** Clients at public addresses are refused (unless the owner allowed them), and Host names not this machine's. */
export function homeNetworkOnly(o: { allowPublic: boolean; hosts: readonly string[] }): MiddlewareHandler<HomeEnv> {
  return async (c, next) => {
    const peer = c.env.incoming.socket.remoteAddress ?? "";
    if (!o.allowPublic && !onHomeNetwork(peer))
      return c.text("This print server answers the home network only.\n", 403);
    const host = (c.req.header("host") ?? "")
      .replace(/:\d+$/, "")
      .replace(/^\[|\]$/g, "")
      .toLowerCase();
    const ours =
      isAddressLiteral(host) ||
      host === "localhost" ||
      /\.(local|lan|home\.arpa)$/.test(host) ||
      o.hosts.includes(host);
    if (!ours) return c.text(`This print server does not answer to the name "${host}".\n`, 421);
    await next();
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
  };
}

/** The ranges a household's own devices connect from (IPv4-mapped IPv6 read as IPv4); nothing else is answered. */
const HOME_RANGES = new Set(["loopback", "private", "linkLocal", "uniqueLocal"]);

export function onHomeNetwork(peer: string): boolean {
  if (!ipaddr.isValid(peer)) return false;
  return HOME_RANGES.has(ipaddr.process(peer).range());
}

/** Names the browser (its cookie, made on its first visit); a POST must carry the CSRF token bound to it. */
export function csrfGuard(secret: Buffer): MiddlewareHandler<HomeEnv> {
  return async (c, next) => {
    let browser = getCookie(c, BROWSER_COOKIE);
    if (!browser) {
      browser = randomBytes(18).toString("base64url");
      setCookie(c, BROWSER_COOKIE, browser, { httpOnly: true, sameSite: "Strict", path: "/" });
    }
    c.set("browser", browser);
    if (c.req.method === "POST") {
      const form = await readForm(c);
      if (!csrfValid(secret, getCookie(c, BROWSER_COOKIE), form.csrf))
        return c.text("This form is out of date or came from elsewhere: open the page again and resend it.\n", 403);
      c.set("form", form);
    }
    await next();
  };
}

/** A POST's form fields (url-encoded, at most 64 KiB), one value each. */
async function readForm(c: Context<HomeEnv>): Promise<Record<string, string>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return {};
  const text = await c.req.text();
  if (text.length > 65_536) return {};
  return Object.fromEntries(new URLSearchParams(text));
}
