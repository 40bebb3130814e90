// A publication's JavaScript data files run when the site is built (Eleventy
// imports them and calls what they export), and may fetch through
// @11ty/eleventy-fetch; its JSON data files Eleventy parses. What goes wrong there reaches the build in Eleventy's
// or eleventy-fetch's words, often without the data file's name ("Bad
// response for <url> …"); this turns it into the author's problem: the data
// file, the URL or the line, the reason, and what to do.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chainMessages, ContentError, errorChain, findContentError } from "../model/content-error.ts";
import { shownUrl, withoutUrlSecrets } from "../model/shown-url.ts";
import { parseJson } from "./json-file.ts";
import { readText } from "./text-file.ts";

/**
 * A data file's failure in `error`'s chain as a ContentError naming the file:
 * a failed fetch, a file that does not import, or an error it threw. Undefined
 * for any other error.
 */
export function dataFileFailure(error: unknown, content: string): ContentError | undefined {
  if (findContentError(error)) return undefined; // already said as the author's problem
  return (
    fetchFailure(error, content) ??
    jsonFailure(error, content) ??
    importFailure(error, content) ??
    thrownInDataFile(error, content)
  );
}

/**
 * "Having trouble parsing data file <file>": a JSON data file Eleventy reads
 * itself (content/_data/*.json, editions/editions.json) said as littlepress
 * says its own JSON files' errors: the line, the column and the fix.
 */
function jsonFailure(error: unknown, content: string): ContentError | undefined {
  for (const e of errorChain(error)) {
    const file = e instanceof Error ? /^Having trouble parsing data file (.+\.json)$/.exec(e.message)?.[1] : undefined;
    if (!file || !inside(content, file)) continue;
    const read = readText(file);
    if ("problem" in read) return new ContentError([read.problem]);
    const parsed = parseJson(slashes(file), read.text);
    if ("problem" in parsed) return new ContentError([parsed.problem]);
  }
  return undefined;
}

const DATA_FILE_FIX =
  "correct the data file: it is JavaScript that Eleventy imports and runs when the site is built " +
  '(docs/data-and-recurring-editions.md: "Live data")';

/** "There was a problem importing '<file>'": a syntax error, a missing module or export. */
function importFailure(error: unknown, content: string): ContentError | undefined {
  const chain = errorChain(error);
  for (const [i, e] of chain.entries()) {
    const file = e instanceof Error ? /^There was a problem importing '([^']+)'/.exec(e.message)?.[1] : undefined;
    if (!file || !isDataFile(content, file)) continue;
    const causes = chain.slice(i + 1);
    // Node names the line of a missing export at the top of its stack ("file:///…/x.11tydata.js:6");
    // a syntax error's line only `node --check` tells.
    const line =
      causes
        .map((c) => (c instanceof Error ? /^file:\/\/\S*:(\d+)$/m.exec(c.stack ?? "")?.[1] : undefined))
        .find(Boolean) ?? (causes.some((c) => c instanceof SyntaxError) ? syntaxErrorLine(file) : undefined);
    const problem = `does not import: ${chainMessages(causes.at(-1) ?? e, 1).join("") || "unknown error"}`;
    return new ContentError([{ file: slashes(file), field: line ? `line ${line}` : "", problem, fix: DATA_FILE_FIX }]);
  }
  return undefined;
}

/** The line of a syntax error in a JavaScript file, as `node --check` finds it ("<file>:<line>" on its first line). */
function syntaxErrorLine(file: string): string | undefined {
  const checked = spawnSync(process.execPath, ["--check", file], { encoding: "utf8", timeout: 10_000 });
  return /^.*:(\d+)$/m.exec(checked.stderr ?? "")?.[1];
}

/** An error the data file's own code threw: the innermost frame of its stack in a JavaScript file of the content. */
function thrownInDataFile(error: unknown, content: string): ContentError | undefined {
  for (const e of errorChain(error)) {
    if (!(e instanceof Error) || !e.stack) continue;
    for (const [, url, line] of e.stack.matchAll(/(file:\/\/[^\s()]+?\.(?:c?js|mjs)):(\d+):\d+/g)) {
      const file = path.relative(process.cwd(), fileURLToPath(url!));
      if (!isDataFile(content, file)) continue;
      return new ContentError([
        { file: slashes(file), field: `line ${line}`, problem: `threw an error: ${e.message}`, fix: DATA_FILE_FIX },
      ]);
    }
  }
  return undefined;
}

const inside = (content: string, file: string) => {
  const relative = path.relative(path.resolve(content), path.resolve(file));
  return !relative.startsWith("..") && !path.isAbsolute(relative);
};

/**
 * A JavaScript data file of the content: in a `_data` folder, or `*.11tydata.js`. Any other file in a stack
 * (the site's config, its plugins, Eleventy's own in node_modules) is not the data file's, and the error
 * is left in Eleventy's own words.
 */
const isDataFile = (content: string, file: string) =>
  inside(content, file) &&
  !/(?:^|[\\/])node_modules[\\/]/.test(file) &&
  (/(?:^|[\\/])_data[\\/]/.test(file) || /\.11tydata\.(?:c?js|mjs)$/.test(file));

const slashes = (file: string) => file.split(path.sep).join("/");

/** A failed fetch in `error`'s chain as a ContentError naming the data file. */
function fetchFailure(error: unknown, content: string): ContentError | undefined {
  const chain = errorChain(error);
  for (const [i, e] of chain.entries()) {
    const invalid = e instanceof Error ? INVALID_SOURCE.exec(e.message) : null;
    if (invalid) {
      const problem = "is not a full URL (http:// or https://): eleventy-fetch cannot fetch it";
      const field = shownUrl(invalid[1]!);
      return new ContentError([{ file: dataFileOf(invalid[1]!, content), field, problem, fix: FIX }]);
    }
    const said = e instanceof Error ? BAD_RESPONSE.exec(e.message) : null;
    if (!said) continue;
    const [, url, status, statusText] = said;
    // The network library's own words may quote the URL whole (credentials and query): shown as the field is.
    const problem = withoutUrlSecrets(`the fetch failed: ${reason(status, statusText, chain.slice(i + 1))}`, [url!]);
    return new ContentError([{ file: dataFileOf(url!, content), field: shownUrl(url!), problem, fix: FIX }]);
  }
  return undefined;
}

// eleventy-fetch 5's words: "Bad response for <url> (<status>): <statusText>", or
// "Bad response for <url>: <message>" for a network error. eleventy-fetch leaves out
// the query; the URL is shown as shownUrl shows every URL (no user name or password either).
const BAD_RESPONSE = /^Bad response for (\S+?)(?: \((\d+)\): (.*)|: .*)$/s;

// …and for a source that is not a URL (a relative path, undefined from a missing environment variable).
const INVALID_SOURCE = /^Invalid source: .* Received: (.*)$/s;

const FIX =
  "check the address, and that the service answers it (open it in a browser or with curl); " +
  'until a build succeeds the last deploy stays up, unchanged (docs/data-and-recurring-editions.md: "Live data")';

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
  const shown = likely.map(slashes);
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
