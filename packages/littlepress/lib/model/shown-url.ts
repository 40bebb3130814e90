// How littlepress prints a URL: build and CI logs are often shared (Netlify's
// are public to a site's team, a CI's to anyone who can see the repository),
// and an author's URLs carry secrets, a user name and password before the
// host or an API key in the query. So every URL the kit prints, and every
// message from a library that may hold one (a fetch error quotes the URL whole),
// goes through here first: the scheme, the host and the path, nothing else.
// The one home of that rule.

/** What stands for an address that is not shown at all. */
export const NOT_SHOWN = "(an address that is not shown: it may hold a key)";

/**
 * `text`, a URL, as littlepress prints it: scheme, host and path, without the
 * user name, the password, the query or the fragment. Text without a scheme
 * ("api.example/v1?key=…", "user:pass@host/…") is shown as its host and path
 * when it has a host's shape; anything else (a bare token) is not shown at all.
 */
export function shownUrl(text: string): string {
  const url = parsed(text);
  if (url && (url.host || url.protocol === "file:")) {
    // The path as written: "http://host" stays without the "/" the URL parser adds.
    const path = url.pathname === "/" && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(text) ? "" : url.pathname;
    return `${url.protocol}//${url.host}${path}`;
  }
  // No scheme, or one that is really a user name ("user:pass@host"): read it as a host and a path.
  const bare = parsed(`http://${text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")}`);
  if (bare && looksLikeHost(bare.hostname)) return `${bare.host}${bare.pathname === "/" ? "" : bare.pathname}`;
  return NOT_SHOWN;
}

/** `text` quoted as shownUrl shows it, for a sentence ("… is not a URL"); "the address given" when it is not shown. */
export function quotedUrl(text: string): string {
  const shown = shownUrl(text);
  return shown === NOT_SHOWN ? "the address given" : `"${shown}"`;
}

/**
 * `message` with every URL in it shown as shownUrl shows it, and each of
 * `known` (the URLs the caller knows it holds, which may have no scheme) too.
 */
export function withoutUrlSecrets(message: string, known: readonly string[] = []): string {
  let text = message;
  for (const url of [...known].sort((a, b) => b.length - a.length)) if (url) text = text.replaceAll(url, shownUrl(url));
  return text.replace(URL_IN_TEXT, (url) => shownUrl(url));
}

/**
 * A URL with a scheme inside running text: up to a space, a quote or a bracket, and not the punctuation that
 * ends a clause after it ("at http://127.0.0.1:8080, which…").
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()[\]]*[^\s"'<>()[\].,;:!?]/gi;

function parsed(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A host name with a dot (api.example.com), localhost, or an IP address: not a bare token. */
function looksLikeHost(hostname: string): boolean {
  return hostname === "localhost" || hostname.includes(".") || hostname.startsWith("[");
}
