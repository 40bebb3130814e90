// The policy every page PhantomJS renders is held to, besides the gate
// (phantom-gate.ts). QtWebKit opens a WebSocket on a socket of its own, which
// the page script never sees, and which goes round the proxy when it is to
// this machine (127.0.0.1: a local print server, say). The page's
// Content-Security-Policy refuses it, in the page, in a worker and in
// anything the page could open a socket from: no frame, no object (a frame of
// data:, blob: or SVG would not inherit the policy). Measured in PhantomJS
// 2.1.1: with it, a WebSocket from the page, a worker or a srcdoc frame throws;
// without it, each connects. The Chromium renderer refuses frames too
// (render.ts); sirius would show one, so a frame in an edition prints blank
// in the preview, where on sirius it could load anything.

/** The page's Content-Security-Policy (CSP 1.0, which QtWebKit keeps). */
export const PAGE_POLICY =
  "connect-src 'none'; frame-src 'none'; child-src 'none'; object-src 'none'; form-action 'none'";

/** `page` with the policy as the first thing in its <head>, before anything of the edition's. */
export function withPolicy(page: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">`;
  const head = /<head[^>]*>/i.exec(page);
  if (!head) return meta + page;
  const at = head.index + head[0].length;
  return page.slice(0, at) + meta + page.slice(at);
}
