// The one way the site talks to a URL a subscriber gave (a print key): only
// to a service on the site's allow-list, only at a public address unless that
// entry is listed as private, to the very address that was checked (the
// check runs inside the connection's own name lookup, so DNS rebinding
// between a check and a connect has nothing to rebind), never following a
// redirect, and reading at most so many bytes for at most so long.
//
// Requests go on kept connections. One sent on a kept connection that the
// service had closed goes again on another, but a POST prints: it goes again
// only if it had not gone out whole, and a failure says whether the service
// can have taken it (print-job.ts's rule: a page sent with no answer is never
// sent again).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isAddressLiteral, isPublicAddress } from "../../model/addresses.ts";
import { allowedPrintKeyOrigin, type PrintKeyOrigin } from "../../model/print-key.ts";

export interface PrintKeyPolicy {
  /** The services the site may reach (content/site.json's `print_key_origins`, or the default). */
  allowed: readonly PrintKeyOrigin[];
  /** The whole exchange, connect to last byte (default 5 s). */
  timeoutMs?: number;
  /** The most of a reply read (default 64 KiB: sirius answers a few dozen bytes). */
  maxBytes?: number;
  /** Name resolution (default: the system's, as `dns.lookup`); tests stand in a resolver. */
  lookup?: typeof dnsLookup;
}

export const PRINT_KEY_TIMEOUT_MS = 5_000;
export const PRINT_KEY_MAX_BYTES = 64 * 1024;

/** A reply read whole, within the caps. */
export interface PrintKeyReply {
  status: number;
  contentType: string;
  /** The reply's ETag header, if any (a publication's edition/ has one). */
  etag?: string | null;
  body: Buffer;
}

/**
 * Why nothing came back. `refused`: the site would not send there (not on the
 * allow-list, or a private address); `failed`: it tried and got no usable
 * reply (refused connection, timeout, a reply too large, a redirect), with
 * `unanswered` when the whole request had gone out and no answer came: the
 * service may have acted on it.
 */
export type PrintKeyProblem = { refused: string } | { failed: string; unanswered?: true };

export interface PrintKeyRequest {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: Uint8Array;
}

/** Sends one request to a print key URL under `policy`; never throws. */
export async function askPrintKey(
  url: URL,
  req: PrintKeyRequest,
  policy: PrintKeyPolicy,
): Promise<PrintKeyReply | PrintKeyProblem> {
  const entry = allowedPrintKeyOrigin(url, policy.allowed);
  if (!entry) return { refused: "not a print-key service this site sends to" };
  const host = url.hostname;
  if (isAddressLiteral(host) && !entry.private && !isPublicAddress(host))
    return { refused: "a private address, which this site's list does not allow" };
  const options: RequestOptions = {
    method: req.method,
    headers: { ...req.headers, ...(req.body ? { "Content-Length": String(req.body.byteLength) } : {}) },
    agent: connectionsTo(url, entry, policy.lookup ?? dnsLookup),
  };
  for (let attempt = 1; ; attempt++) {
    const reply = await exchange(url, options, req.body, policy);
    if (reply !== CLOSED_UNDER_IT) return reply;
    // The service closed the kept connection as the request went out on it (a server keeps an idle one only
    // so long, and a busy process may hand it out late): it closed a connection it was not reading from, so the
    // request goes again, as Node's docs advise (request.reusedSocket), on another connection.
    if (attempt === KEPT_CONNECTION_TRIES) return { failed: why({ code: "ECONNRESET" }) };
  }
}

/** A request sent on a kept connection that the other end had closed: nothing was answered. */
const CLOSED_UNDER_IT = Symbol("closed under it");
/** Tries on kept connections before a failure is said: each stale one is dropped, so a new one comes soon. */
const KEPT_CONNECTION_TRIES = 3;

/** How long a connection to a print-key service is kept open unused: well under a server's usual 5 s. */
const IDLE_CONNECTION_MS = 1_000;

/** The connection pools, by resolver, then by allow-list entry. */
const pools = new WeakMap<typeof dnsLookup, Map<string, HttpAgent>>();

/**
 * The pool of open connections to a service of the allow-list. A run POSTs
 * thousands of pages to one service: a new connection (and TLS handshake) for
 * each would cost more round trips than the POST. Every connection in a pool
 * was made through its entry's own lookup (public addresses only, unless the
 * entry is private), and stays connected to the address that was checked.
 */
function connectionsTo(url: URL, entry: PrintKeyOrigin, resolve: typeof dnsLookup): HttpAgent {
  let byEntry = pools.get(resolve);
  if (!byEntry) pools.set(resolve, (byEntry = new Map<string, HttpAgent>()));
  const name = `${entry.origin}${entry.private ? " private" : ""}`; // the origin names the scheme too
  let agent = byEntry.get(name);
  if (!agent) {
    const lookup = entry.private ? resolve : checkedLookup(resolve);
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, lookup };
    agent = url.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options);
    byEntry.set(name, agent);
  }
  return agent;
}

/** A lookup that answers only public addresses: the connection is made to one of those or not at all. */
function checkedLookup(lookup: typeof dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, "", 4);
      const addresses = found;
      if (!addresses.length || addresses.some((a) => !isPublicAddress(a.address)))
        return callback(new PrivateAddress(), "", 4);
      if (options.all) return (callback as unknown as AllCallback)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;
type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

class PrivateAddress extends Error {
  code = "EPRIVATE";
  constructor() {
    super("the name resolves to a private address");
  }
}

function exchange(
  url: URL,
  options: RequestOptions,
  body: Uint8Array | undefined,
  policy: PrintKeyPolicy,
): Promise<PrintKeyReply | PrintKeyProblem | typeof CLOSED_UNDER_IT> {
  const maxBytes = policy.maxBytes ?? PRINT_KEY_MAX_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    // The whole request handed to the system: from here on, no whole answer means the service may have it.
    let sent = false;
    let status = 0;
    // A reply read to its end leaves its connection to the pool; any other ending closes it.
    const finish = (result: PrintKeyReply | PrintKeyProblem | typeof CLOSED_UNDER_IT, whole = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!whole) request.destroy();
      resolve(result);
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = send(url, options, (res: IncomingMessage) => {
      answered = true;
      status = res.statusCode ?? 0;
      if (status >= 300 && status < 400)
        return finish({ failed: `answered ${status}, a redirect, which is not followed` });
      const declared = Number(res.headers["content-length"] ?? 0);
      if (declared > maxBytes) return finish({ failed: `sent a reply larger than ${maxBytes} bytes` });
      const chunks: Buffer[] = [];
      let seen = 0;
      res.on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > maxBytes) return finish({ failed: `sent a reply larger than ${maxBytes} bytes` });
        chunks.push(chunk);
      });
      res.once("end", () =>
        finish(
          {
            status,
            contentType: String(res.headers["content-type"] ?? ""),
            etag: res.headers.etag ?? null,
            body: Buffer.concat(chunks),
          },
          true,
        ),
      );
      // Cut off after a success status: the service said it took the request.
      res.once("error", (error) =>
        finish(status < 300 ? { failed: why(error), unanswered: true } : { failed: why(error) }),
      );
    });
    // Cut off before any answer, or after a success status: the service may have acted on it (an error status
    // is the service's own word that it did not).
    const unanswered = (failed: string) =>
      finish(sent && (!answered || (status >= 200 && status < 300)) ? { failed, unanswered: true } : { failed });
    const timer = setTimeout(() => unanswered("timed out"), policy.timeoutMs ?? PRINT_KEY_TIMEOUT_MS);
    request.once("finish", () => (sent = true));
    request.once("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      // A kept connection closed under the request: sent again, unless it is a POST that went out whole (the
      // service may have read it before it reset: sending it again could print it twice).
      const again = options.method === "GET" || !sent;
      if (request.reusedSocket && !answered && again && (code === "ECONNRESET" || code === "EPIPE"))
        return finish(CLOSED_UNDER_IT);
      if (error instanceof PrivateAddress) return finish({ refused: error.message });
      unanswered(why(error));
    });
    request.end(body);
  });
}

/** A network error in a few words: its code, never the URL (a print key is a secret). */
function why(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `could not be reached (${code})` : "could not be reached";
}
