// Headless Chromium for the preview and the desk tests: Debian's /usr/bin/chromium
// driven by playwright-core (browser downloads fail on these machines). Playwright
// gives each launch a fresh profile; the flags keep Chromium from calling home
// on a closed network.
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { PAGE_MEMORY_MIB } from "./preview/memory-ceiling.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium's flags for every tool. A page is someone else's, so besides not
 * calling home, nothing of the page may leave by a way the request rules
 * (preview/render.ts) cannot see: no QUIC (UDP, so no WebTransport either), and
 * no WebRTC over UDP. A page's RTCPeerConnection otherwise sends STUN and ICE
 * datagrams, carrying what it likes, from every interface to any address it
 * names (measured: 7 to 265 per page, to loopback and the LAN); with
 * disable_non_proxied_udp WebRTC may use only TCP through the context's proxy,
 * which is the renderer's dead end. (--force-webrtc-ip-handling-policy does
 * not stop them.) And Chromium resolves no host name: a name looked up is a
 * message to the machine's DNS server, which a page could spell (a prefetch, a
 * STUN server), and Chromium looked up update.googleapis.com at every start.
 * It needs none: a page's requests are answered by the renderer's routes, and
 * the renderer's proxy and the kit's local servers are loopback addresses.
 * A page's script may hold PAGE_MEMORY_MIB in V8's heap (preview/memory-ceiling.ts).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]",
  `--js-flags=--max-old-space-size=${PAGE_MEMORY_MIB}`,
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Chromium, with the tools' flags and from CHROMIUM unless a test asks for others. */
export async function launchChromium(
  options: { args?: readonly string[]; executablePath?: string } = {},
): Promise<Browser> {
  const { args = CHROMIUM_ARGS, executablePath = CHROMIUM } = options;
  // Playwright's driver takes most of a second to load: a tool loads it when it starts the browser, not before.
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath,
    headless: true,
    // The tools stop on Ctrl+C themselves (cli.ts's stopOnSignals closes the browser with the rest);
    // Playwright's own handler would exit 130 before they had.
    handleSIGINT: false,
    handleSIGTERM: false,
    args: [...args],
  });
}

/** Chromium started for a tool, or the one line that says why it could not be (not there, or would not start). */
export async function startChromium(): Promise<{ browser: Browser } | { problem: string }> {
  if (!existsSync(CHROMIUM))
    return {
      problem: `there is no Chromium at ${CHROMIUM}; install it with apt-get install chromium (or set CHROMIUM_PATH)`,
    };
  try {
    return { browser: await launchChromium() };
  } catch (error) {
    const line = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { problem: `Chromium at ${CHROMIUM} did not start (${line})` };
  }
}
