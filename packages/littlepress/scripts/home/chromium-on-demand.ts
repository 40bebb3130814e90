// Chromium only while there is something to render. The home server idles
// most of the day (a run a minute finds nothing due), and an idle Chromium
// holds about as much memory as the rest of the server; so it is started for
// the first page of a run (a launch takes well under a second) and closed once
// no page has been rendered for `idleMs`. One in use is never closed under.
import type { Browser } from "playwright-core";
import { Renderers } from "../print/escpos-print.ts";

export class ChromiumOnDemand {
  private running?: Promise<{ browser: Browser; renderers: Renderers }>;
  private busy = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly launch: () => Promise<Browser>,
    private readonly idleMs = 60_000,
  ) {}

  /** Runs `work` with the renderers, starting Chromium if it is not running. */
  async use<T>(work: (renderers: Renderers) => Promise<T>): Promise<T> {
    clearTimeout(this.timer);
    this.busy++;
    try {
      this.running ??= this.launch().then((browser) => ({ browser, renderers: new Renderers(browser) }));
      const started = this.running;
      try {
        return await work((await started).renderers);
      } catch (error) {
        if (
          this.running === started &&
          !(await started.then(
            (s) => s.browser.isConnected(),
            () => false,
          ))
        )
          this.running = undefined; // Chromium went away (or never started): the next page starts it again
        throw error;
      }
    } finally {
      this.busy--;
      // Not kept alive by this timer: a process that is done otherwise exits.
      if (this.busy === 0) this.timer = setTimeout(() => void this.close(), this.idleMs).unref();
    }
  }

  /** Whether Chromium is running now (the bench reports it). */
  get started(): boolean {
    return this.running !== undefined;
  }

  /** Closes Chromium (it starts again for the next page). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    const running = this.running;
    if (!running || this.busy) return;
    this.running = undefined;
    const { browser, renderers } = await running.catch(() => ({ browser: undefined, renderers: undefined }));
    await renderers?.close();
    await browser?.close();
  }
}
