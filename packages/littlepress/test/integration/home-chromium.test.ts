// The home server's Chromium runs only while pages render: started for the
// first page, closed once none was rendered for a while, started again for
// the next; one in use is never closed under it.
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { launchChromium } from "../../scripts/browser.ts";
import { ChromiumOnDemand } from "../../scripts/home/chromium-on-demand.ts";

it("starts Chromium for a render, closes it when idle, and starts it again", async () => {
  const launched: number[] = [];
  const chromium = new ChromiumOnDemand(async () => {
    launched.push(Date.now());
    return launchChromium();
  }, 300);
  try {
    expect(chromium.started).toBe(false);
    const width = (r: Parameters<Parameters<ChromiumOnDemand["use"]>[0]>[0]) =>
      r.render(384, { html: "<p>a page</p>" }, { at: new Date(), from: "test" }).then((drawn) => typeof drawn.png);
    const during = chromium.use(async (r) => {
      await sleep(600); // longer than idleMs: not closed while in use
      return width(r);
    });
    await sleep(400);
    expect(chromium.started).toBe(true);
    expect(await during).toBe("object");
    await sleep(1500); // idleMs and then some, on a busy machine
    expect(chromium.started).toBe(false);
    expect(await chromium.use(width)).toBe("object");
    expect(launched).toHaveLength(2);
  } finally {
    await chromium.close();
  }
});
