// Limits on what a request may send. Each is far above anything the platform
// or a browser sends, and each is answered within the contract: /edition/ with
// a 204 that says which limit, /validate_config/ with a JSON refusal.

/** Longest /edition/ query string, in characters (the platform sends about 100). */
export const MAX_QUERY_LENGTH = 8192;
/** Most query parameters on /edition/ (the platform sends two plus one per setting). */
export const MAX_QUERY_PARAMS = 64;
/** Deepest JSON nesting in a /validate_config/ body (a config is one level deep). */
export const MAX_JSON_DEPTH = 16;
/** Most keys in a submitted config. */
export const MAX_CONFIG_KEYS = 64;

/** Why an /edition/ request is refused before it is read, or undefined. */
export function editionRequestProblem(url: URL): string | undefined {
  const { search } = url; // a getter that makes a string each time
  if (search.length > MAX_QUERY_LENGTH) return `the query string is longer than ${MAX_QUERY_LENGTH} characters`;
  // Parameters are separated by "&": with few of them there cannot be too many
  // parameters, and the common request is not parsed here a second time.
  if (ampersands(search) < MAX_QUERY_PARAMS) return undefined;
  let count = 0;
  for (const _ of url.searchParams)
    if (++count > MAX_QUERY_PARAMS) return `more than ${MAX_QUERY_PARAMS} query parameters`;
  return undefined;
}

function ampersands(text: string): number {
  let n = 0;
  for (let i = text.indexOf("&"); i >= 0; i = text.indexOf("&", i + 1)) n++;
  return n;
}

/** How deeply JSON text nests, counted without parsing it (so a hostile body costs no recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return deepest;
}

/** A body whose sender hung up before its end: the client's doing, not a fault. */
export const CUT_SHORT = Symbol("cut short");

/**
 * The body, or undefined once it passes `max` bytes (read no further than
 * that, however it is sent: a Content-Length over it is not read at all, a
 * chunked body is cut as it comes), or CUT_SHORT. Every body a function or the
 * local server reads is read through this: /validate_config/ and the subscribe
 * form (MAX_BODY_BYTES), a delivery batch, a background function's request.
 */
export async function readLimited(
  req: Request,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | undefined | typeof CUT_SHORT> {
  if (Number(req.headers.get("content-length") ?? 0) > max) return undefined;
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    // A body that fails mid-read is a client that hung up: said as CUT_SHORT, which is all a caller can act on.
    const read = await reader.read().catch(() => undefined);
    if (!read) return CUT_SHORT;
    const { done, value } = read;
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Too large is the answer; a cancel that fails (the client gone already) changes nothing of it.
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
