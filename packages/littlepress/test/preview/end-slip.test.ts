// The end slip keeps sirius's 80 px of paper after its last line, printed as
// sirius prints it (PhantomJS): its <body> attributes land on sirius's body,
// so a margin of its own would cancel them (it printed 4 px from the tear).
import { expect, it } from "vitest";
import { endNoticePage } from "../../lib/model/end-notice.ts";
import { PhantomRenderer } from "../../scripts/preview/phantom.ts";
import { printDots } from "../../scripts/preview/print-image.ts";

it("leaves sirius's 80 px of paper after the end slip's last line", async () => {
  const renderer = await PhantomRenderer.open();
  try {
    const slip = endNoticePage("The Lighthouse Cat", "https://example.com/lighthouse/");
    const render = await renderer.renderHtml(slip, {
      at: new Date("2026-11-29T06:00:00Z"),
      from: "The Lighthouse Cat",
    });
    const dots = await printDots(render.png);
    let last = -1;
    for (let y = 0; y < dots.height; y++)
      if (dots.data.subarray(y * dots.width, (y + 1) * dots.width).includes(0)) last = y;
    expect(last).toBeGreaterThan(100); // the slip printed
    expect(dots.height - 1 - last).toBeGreaterThanOrEqual(80);
  } finally {
    await renderer.close();
  }
}, 60_000);
