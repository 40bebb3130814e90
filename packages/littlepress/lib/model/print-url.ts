// The URL a page is POSTed to: a print key and who sent the page.
import { escapeHtml } from "./html-escape.ts";

/**
 * The URL that prints: the print key as given, path and all, with `from`
 * naming the sender (the publication). sirius's own curl examples POST to the
 * very URL its page shows (`https://device.li/<secret>?from=…`). sirius pastes
 * `from` into its page's header as it is, markup and all (its template does
 * not escape it), so the name is sent as HTML text: that header shows the
 * name itself, and a name with `<` or `&` is no markup on the paper.
 */
export function printUrl(printKey: URL, from: string): URL {
  const url = new URL(printKey.href);
  url.searchParams.set("from", escapeHtml(from));
  return url;
}
