// A print key: the secret URL that prints on one Little Printer through
// sirius (`POST <host>/printkey/<secret>?from=<sender>`). Whoever holds it
// can print on someone's paper, so the kit keeps it sealed (seal.ts) and
// shows only the printer's name.
import { openSealed, seal } from "./seal.ts";

/** The longest print key URL accepted (sirius's keys are short). */
const MAX_URL_LENGTH = 500;

/**
 * A print key's path as sirius shows one: `/printkey/<secret>` on its own
 * host, or `/<secret>` on its device-key domain (its DEVICE_KEY_DOMAIN
 * setting; Nord's printers show `https://device.li/<secret>`, and its curl
 * examples POST there). `/printkey` alone is the route without its key.
 */
const KEY_PATH = /^\/(?:printkey\/)?(?!printkey$)[A-Za-z0-9_-]+$/;

/**
 * A print key URL as the subscriber pasted it, checked: http(s), with a
 * `/printkey/<secret>` or `/<secret>` path and nothing after it. One trailing
 * slash is taken off: no key ends in one, and sirius knows no key with it
 * (404). A reason string when it is not one (the reason never repeats the
 * URL: it may be someone's key).
 */
export function parsePrintKeyUrl(text: string): URL | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: "Print key: paste your printer's print key URL." };
  if (trimmed.length > MAX_URL_LENGTH) return { error: "Print key: that is too long to be a print key URL." };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return {
      error: "Print key: that is not a URL; it looks like https://device.li/<key> or https://<host>/printkey/<key>.",
    };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { error: "Print key: the URL must start with https://." };
  if (url.username || url.password || url.hash || url.search)
    return { error: "Print key: paste the URL alone, without a query or a #fragment." };
  url.pathname = url.pathname.replace(/(.)\/$/, "$1");
  if (!KEY_PATH.test(url.pathname))
    return {
      error:
        "Print key: the URL's path must be /<key> (as in https://device.li/<key>) or /printkey/<key>, " +
        "as your printer's page shows it.",
    };
  return url;
}

/** The print key URL sealed under `key`, in base64, as a subscription stores it. */
export function sealPrintKey(url: URL, key: Buffer): string {
  return seal(Buffer.from(url.href, "utf8"), key).toString("base64");
}

/** The print key URL from its sealed form; throws when it was not sealed under `key`. */
export function openPrintKey(sealed: string, key: Buffer): URL {
  return new URL(openSealed(Buffer.from(sealed, "base64"), key).toString("utf8"));
}

/**
 * A printer service the site may send print keys to (content/site.json's
 * `print_key_origins`): its origin (`https://host[:port]`), and whether it may
 * be at a private, loopback or link-local address (an author's own sirius on
 * their network, listed on purpose).
 */
export interface PrintKeyOrigin {
  origin: string;
  private: boolean;
}

/**
 * Nord Projects' public sirius instance and its device-key domain, https only:
 * the print-key services a new site trusts. Its printers' pages show keys as
 * `https://device.li/<secret>`, and Nord's own app prints to them there.
 */
export const DEFAULT_PRINT_KEY_ORIGINS: readonly PrintKeyOrigin[] = [
  { origin: "https://littleprinter.nordprojects.co", private: false },
  { origin: "https://device.li", private: false },
];

/**
 * The allow-list from site.json's `print_key_origins`: each entry an origin
 * ("https://sirius.example.org") or {"origin": "http://192.168.1.20:5000",
 * "private": true}. The problems name the entry and what to write instead.
 */
export function printKeyOriginsFrom(raw: unknown): { origins: PrintKeyOrigin[]; problems: string[] } {
  const problems: string[] = [];
  if (!Array.isArray(raw)) return { origins: [], problems: ["must be a list of origins"] };
  const origins: PrintKeyOrigin[] = [];
  raw.forEach((entry: unknown, i) => {
    const given = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : { origin: entry };
    const allowPrivate = given.private ?? false;
    const origin = typeof given.origin === "string" ? originOf(given.origin) : undefined;
    if (!origin) problems.push(`entry ${i + 1}: ${JSON.stringify(given.origin)} is not an http(s) origin`);
    else if (typeof allowPrivate !== "boolean") problems.push(`entry ${i + 1}: "private" must be true or false`);
    else origins.push({ origin, private: allowPrivate });
  });
  return { origins, problems };
}

/** `https://host[:port]` as the URL standard writes it; undefined for anything more (path, query, user, password). */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    const bare =
      (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username && !url.password;
    return bare && (url.protocol === "https:" || url.protocol === "http:") ? url.origin : undefined;
  } catch {
    // Not a URL at all: the caller says what an origin must look like.
    return undefined;
  }
}

/** The allow-list's entry for a print key URL (same scheme, host and port), or undefined: never sent to. */
export function allowedPrintKeyOrigin(url: URL, allowed: readonly PrintKeyOrigin[]): PrintKeyOrigin | undefined {
  return allowed.find((entry) => entry.origin === url.origin);
}
