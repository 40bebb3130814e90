// Headless Chromium for the preview and the desk tests: Debian's /usr/bin/chromium
// driven by playwright-core (browser downloads fail on these machines). Playwright
// gives each launch a fresh profile; the flags keep Chromium from calling home
// on a closed network.
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
