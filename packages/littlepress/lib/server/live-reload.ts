// Live reload for `npm start`: a server-sent-events channel that tells open
// pages about each build, and the small script put into every HTML page a
// browser opens, which reloads on a new build and shows a failed one.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { LiveState } from "../build/live.ts";

/** Where pages listen; outside every publication's paths and the site's files. */
export const LIVE_EVENTS = "/.littlepress/live";

/** What the server needs of the live site: its state now and after every build. */
export interface LiveChannel {
  subscribe(listener: (state: LiveState) => void): () => void;
}

/**
 * Holds the response open and sends the state as `build` events; the browser
 * reconnects by itself. `closed` settles when the server stops (its streams end).
 */
export function liveEvents(live: LiveChannel, c: Context, closed: Promise<void>): Response {
  return streamSSE(c, async (stream) => {
    await stream.write(`retry: ${RECONNECT_MS}\n\n`);
    const stop = live.subscribe((state) => void stream.writeSSE({ event: "build", data: JSON.stringify(state) }));
    await Promise.race([closed, new Promise<void>((resolve) => stream.onAbort(resolve))]);
    stop();
  });
}

const RECONNECT_MS = 500;

/**
 * Only pages a browser opens as a document get the script: not the platform,
 * curl or the checker, which must see the edition exactly as built, nor the
 * desk's frames, which reload with their page.
 */
export function wantsLiveScript(req: Request, contentType: string | null): boolean {
  return req.headers.get("sec-fetch-dest") === "document" && /^text\/html\b/i.test(contentType ?? "");
}

/** The page with the live script before its closing </body> (or at its end). */
export function withLiveScript(html: Buffer): Buffer {
  const text = html.toString("latin1"); // byte for byte, whatever the page's charset
  const at = text.lastIndexOf("</body>");
  const script = `<script>${PAGE_SCRIPT}</script>`;
  return Buffer.from(at < 0 ? text + script : text.slice(0, at) + script + text.slice(at), "latin1");
}

// Runs in the page: remembers the build it was loaded from, reloads when a
// newer one is announced, and shows the latest failure until it is fixed.
const PAGE_SCRIPT = `(() => {
  let seen;
  const events = new EventSource(${JSON.stringify(LIVE_EVENTS)});
  events.addEventListener("build", (event) => {
    const state = JSON.parse(event.data);
    if (seen !== undefined && state.build !== seen) return location.reload();
    seen = state.build;
    let box = document.getElementById("littlepress-problem");
    if (!state.problem) return box && box.remove();
    if (!box) {
      box = document.createElement("pre");
      box.id = "littlepress-problem";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:8px;right:8px;bottom:8px;z-index:2147483647;margin:0;padding:12px;" +
        "max-height:50vh;overflow:auto;white-space:pre-wrap;font:14px/1.4 monospace;background:#fff5f5;color:#600;" +
        "border:2px solid #c00;border-radius:6px";
      document.body.append(box);
    }
    box.textContent = "The last save did not build; this page shows the last good build.\\n\\n" + state.problem;
  });
})();`;
