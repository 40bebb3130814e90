// One bounded HTTP exchange, recorded so a check can show the request that
// proved it. Network failures become an `error` text rather than a throw:
// the checker must report an unreachable publication, never crash on it.

export interface Exchange {
  method: string;
  url: string;
  /** 0 when no answer arrived (see `error`). */
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Why no answer arrived: refused, timed out, host not found... */
  error?: string;
  /** Same-origin redirects followed on the way, as "301 -> URL". */
  redirects: string[];
}

export interface RequestOptions {
  method?: "GET" | "POST";
  body?: string | FormData;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Follow redirects that stay on the same origin (static files); never across hosts. */
  followSameOrigin?: boolean;
}

const MAX_REDIRECTS = 3;

export async function request(url: string, options: RequestOptions): Promise<Exchange> {
  const method = options.method ?? "GET";
  const redirects: string[] = [];
  let current = url;
  for (;;) {
    const exchange = await requestOnce(method, current, options);
    exchange.redirects = redirects;
    const location = redirectTarget(exchange);
    if (!options.followSameOrigin || !location || redirects.length >= MAX_REDIRECTS) return exchange;
    if (new URL(location).origin !== new URL(current).origin) return exchange; // another host: report, don't go
    redirects.push(`${exchange.status} -> ${location}`);
    current = location;
  }
}

/** "GET http://..." — how a report names the request behind a result. */
export function describeRequest(exchange: Pick<Exchange, "method" | "url">): string {
  return `${exchange.method} ${exchange.url}`;
}

/** Where a 3xx answer points, as an absolute URL, or undefined. */
export function redirectTarget(exchange: Exchange): string | undefined {
  const location = exchange.headers.get("location");
  if (exchange.status < 300 || exchange.status > 399 || !location) return undefined;
  try {
    return new URL(location, exchange.url).href;
  } catch {
    return undefined;
  }
}

export function bodyText(exchange: Exchange): string {
  return new TextDecoder("utf-8").decode(exchange.body);
}

async function requestOnce(method: string, url: string, options: RequestOptions): Promise<Exchange> {
  const base = { method, url, redirects: [] as string[] };
  try {
    const response = await fetch(url, {
      method,
      body: options.body,
      headers: options.headers,
      redirect: "manual", // decided above, per origin
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const body = new Uint8Array(await response.arrayBuffer());
    return { ...base, status: response.status, headers: response.headers, body };
  } catch (error) {
    return {
      ...base,
      status: 0,
      headers: new Headers(),
      body: new Uint8Array(),
      error: networkError(error, options.timeoutMs),
    };
  }
}

/** What a request that ran out of time says; the report knows it by UNANSWERED. */
const unanswered = (timeoutMs: number) => `no answer within ${timeoutMs / 1000} s`;
export const UNANSWERED = /no answer within [\d.]+ s/;

/** A sentence for what went wrong on the wire, from undici's error shapes. */
function networkError(error: unknown, timeoutMs: number): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") return unanswered(timeoutMs);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? "";
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused (is the server running?)",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name could not be resolved",
    ECONNRESET: "the server closed the connection",
    UND_ERR_SOCKET: "the server closed the connection",
    UND_ERR_HEADERS_TIMEOUT: unanswered(timeoutMs),
  };
  return known[code] ?? `request failed: ${cause?.message ?? (error instanceof Error ? error.message : String(error))}`;
}
