// One Chromium per test worker. A worker runs its files one after another in
// one module graph (vitest.config.ts: isolate false), so the first file that
// needs a browser starts it and the next ones reuse it, instead of each file
// starting and stopping its own (a launch is about half a second of CPU, and
// the run is bound by CPU). Tests open their own contexts and close them; none
// closes the browser. It ends with the worker: Chromium's pipe to Playwright
// closes when the process goes, and Chromium exits with it.
import type { Browser } from "playwright-core";
import { launchChromium } from "../../scripts/browser.ts";

let shared: Promise<Browser> | undefined;

/** This worker's Chromium, started on first use; started again if it failed to start or went away. */
export function workerBrowser(): Promise<Browser> {
  if (!shared) {
    const launched = launchChromium();
    shared = launched;
    const forget = () => {
      if (shared === launched) shared = undefined;
    };
    launched.then((browser) => browser.on("disconnected", forget), forget);
  }
  return shared;
}
