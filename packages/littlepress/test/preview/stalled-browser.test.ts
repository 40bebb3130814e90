// A browser that stops answering (a starved machine, or a Chromium wedged by a
// page) fails a render with one line that names the step, within the render's
// own limit, and never hangs the tool: Chromium's own process is stopped with
// SIGSTOP while a renderer is open, so that every call to it goes unanswered,
// and continued after.
import { execFileSync } from "node:child_process";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../scripts/browser.ts";
import { PaperRenderer, RenderError } from "../../scripts/preview/render.ts";

const header = { at: new Date("2026-11-23T06:00:00Z"), from: "Stalled", timeZone: "UTC" };
// Before anything was stopped, opening a page took over 2 s in a loaded CI run, and over 5 s in another.
const LIMIT_MS = 15_000;

// A Chromium of its own: the one stopped here must be no other test's.
let browser: Browser;
let chromiumPid = 0;
beforeAll(async () => {
  const before = browserPids();
  browser = await launchChromium();
  chromiumPid = browserPids().find((pid) => !before.includes(pid)) ?? 0;
}, 60_000);
afterAll(async () => {
  if (chromiumPid) signal("SIGCONT");
  await browser?.close();
});

/** This process's children that are Chromium's browser process (its helpers carry a --type= of their own). */
function browserPids(): number[] {
  const table = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return table
    .split("\n")
    .filter((line) => /chrom/i.test(line) && !line.includes("--type="))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

const signal = (name: NodeJS.Signals) => process.kill(chromiumPid, name);

/** `work`'s error, with the render's message. */
async function failure(work: Promise<unknown>): Promise<Error> {
  const error = await work.then(
    () => new Error("it did not fail"),
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error;
}

describe("a Chromium that stops answering", () => {
  // Bounded at 180 s: two renders wait out the limit, and two more may take their time on a loaded machine.
  it("fails a render and a new renderer with a line naming the step; both go on once it answers", async () => {
    expect(chromiumPid).toBeGreaterThan(0);
    const renderer = await PaperRenderer.open(browser, undefined, LIMIT_MS);
    try {
      expect((await renderer.renderHtml("<p>Before.</p>", header)).heightPx).toBeGreaterThan(0);
      signal("SIGSTOP");
      try {
        const stalled = await failure(renderer.renderHtml("<p>Stalled.</p>", header));
        expect(stalled.message).toMatch(/^could not be .+: Chromium did not answer in 15 s$/);
        const opening = await failure(PaperRenderer.open(browser, undefined, LIMIT_MS));
        expect(opening.message).toBe("could not be rendered: Chromium did not answer in 15 s");
      } finally {
        signal("SIGCONT");
      }
      // Answering again, the same renderer prints (the page it gave up on is not reused).
      expect((await renderer.renderHtml("<p>After.</p>", header)).heightPx).toBeGreaterThan(0);
    } finally {
      await renderer.close();
    }
  }, 180_000);
});
