// Live data: a publication's JavaScript data file may fetch through
// @11ty/eleventy-fetch at build time. When that fetch fails, the error reaches
// the build as eleventy-fetch's "Bad response for <url> …", with no word of
// which data file asked for it; this turns it into the author's problem: the
// data file, the URL, the reason, and what to do.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ContentError, errorChain } from "../model/content-error.ts";

/** A failed fetch in `error`'s chain as a ContentError naming the data file; undefined for any other error. */
export function fetchFailure(error: unknown, content: string): ContentError | undefined {
  const chain = errorChain(error);
  for (const [i, e] of chain.entries()) {
    const said = e instanceof Error ? BAD_RESPONSE.exec(e.message) : null;
    if (!said) continue;
    const [, url, status, statusText] = said;
    const problem = `the fetch failed: ${reason(status, statusText, chain.slice(i + 1))}`;
    return new ContentError([{ file: dataFileOf(url!, content), field: url!, problem, fix: FIX }]);
  }
  return undefined;
}

// eleventy-fetch 5's words: "Bad response for <url> (<status>): <statusText>", or
// "Bad response for <url>: <message>" for a network error. The URL is shown without
// its query, so an API key in it is never printed.
const BAD_RESPONSE = /^Bad response for (\S+?)(?: \((\d+)\): (.*)|: .*)$/s;

const FIX =
  "check the address, and that the service answers it (open it in a browser or with curl); " +
  'until a build succeeds the last deploy stays up, unchanged (README: "Live data")';

/**
 * Why the fetch failed: the status the server answered, or what went wrong
 * below HTTP (the innermost cause: ECONNREFUSED, ENOTFOUND, a timeout), or an
 * answer that was not what the data file asked for (JSON that does not parse).
 */
function reason(status: string | undefined, statusText: string | undefined, causes: unknown[]): string {
  const errors = causes.filter((c): c is Error & { code?: unknown } => c instanceof Error);
  // eleventy-fetch reports a 200 whose body failed to parse with the status: the parse error is the reason.
  if (status && Number(status) >= 200 && Number(status) < 300 && errors.length)
    return `the server answered ${status}, but ${errors.at(-1)!.message}`;
  if (status) return `the server answered ${status}${statusText ? ` ${statusText}` : ""}`;
  const inner = errors.at(-1);
  if (!inner) return "no answer";
  const code = typeof inner.code === "string" ? inner.code : undefined;
  const known = code && NETWORK_ERRORS[code];
  return known ? `${known} (${inner.message})` : inner.message;
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: "the connection was refused: nothing is listening there",
  ECONNRESET: "the server closed the connection",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be looked up (no network?)",
  ETIMEDOUT: "the connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "the server did not answer in time",
  UND_ERR_SOCKET: "the connection broke",
};

/**
 * The data file that fetched `url`. Eleventy calls data files without saying
 * which one failed, so this looks for it: the content's JavaScript data files
 * that use eleventy-fetch, and among them the ones that name the URL's host.
 */
function dataFileOf(url: string, content: string): string {
  const fetching = jsDataFiles(content).filter((f) => readFileSync(f, "utf8").includes("eleventy-fetch"));
  const host = URL.canParse(url) ? new URL(url).host : url;
  const naming = fetching.filter((f) => readFileSync(f, "utf8").includes(host));
  const likely = naming.length ? naming : fetching;
  const shown = likely.map((f) => f.split(path.sep).join("/"));
  if (shown.length === 1) return shown[0]!;
  if (shown.length) return `one of ${shown.join(", ")}`;
  return `a JavaScript data file in ${content}`;
}

/** The JavaScript files under the content folder (data files are the only ones Eleventy runs there). */
function jsDataFiles(content: string): string[] {
  const entries = readdirSync(content, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(?:c?js|mjs)$/.test(e.name) && !e.parentPath.includes("node_modules"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
