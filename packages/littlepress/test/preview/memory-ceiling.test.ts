// A page that allocates without end, rendered as the print tools render it,
// under a ceiling of 256 MiB: in typed arrays (outside V8's heap, 64 MiB at a
// time, as the review's page did) and in plain objects. Each render fails
// with one line that says so, its renderer stays near the ceiling (each page
// would take 2 GiB), and the same renderer then prints an ordinary page.
// littlepress print says so in its one line, and prints nothing.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../scripts/browser.ts";
import { main as print } from "../../scripts/print.ts";
import { PaperRenderer, RenderError } from "../../scripts/preview/render.ts";
import { largestChildRssMiB, watchPeak } from "../helpers/process-memory.ts";

const header = { at: new Date("2026-11-23T06:00:00Z"), from: "Greedy", timeZone: "UTC" };
const CEILING_MIB = 256;
const TIMEOUT = 60_000;

/** 32 x 64 MiB, each filled so that it is really held. */
const TYPED = `<p>Greedy.</p><script>
  const kept = [];
  for (let i = 0; i < 32; i++) { const a = new Uint8Array(64 << 20); a.fill(i + 1); kept.push(a); }
  document.body.append(String(kept.length));
</script>`;

/** Objects and strings in V8's heap, 2 GiB of them and more. */
const OBJECTS = `<p>Greedy.</p><script>
  const kept = [];
  for (let i = 0; i < 25e6; i++) kept.push({ i, s: "entry " + i });
  document.body.append(String(kept.length));
</script>`;

// A Chromium of its own, not the worker's: the kernel's limit is set on every renderer the ceiling sees, and
// Chromium keeps a spare renderer for the next page, which another test file's page would get with this test's
// 256 MiB (the tools use one ceiling throughout).
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, TIMEOUT);
afterAll(() => browser?.close());

/**
 * Renders `html` under the ceiling, noting Chromium's largest process every 25 ms or so: the render's error and that
 * peak.
 */
async function renderGreedy(renderer: PaperRenderer, html: string): Promise<{ error: unknown; peakMiB: number }> {
  const watch = watchPeak(largestChildRssMiB, 25);
  const error = await renderer.renderHtml(html, header).then(
    () => undefined,
    (failed: unknown) => failed,
  );
  return { error, peakMiB: await watch.stop() };
}

describe("a page that allocates without end", () => {
  it(
    "fails its render with one line, stays near the ceiling, and the renderer goes on",
    async () => {
      const renderer = await PaperRenderer.open(browser, undefined, 20_000, undefined, CEILING_MIB);
      try {
        for (const html of [TYPED, OBJECTS]) {
          const { error, peakMiB } = await renderGreedy(renderer, html);
          expect(error).toBeInstanceOf(RenderError);
          expect((error as Error).message).toBe(`used more than ${CEILING_MIB} MiB of memory`);
          // The renderer's largest: the ceiling, the kernel's 64 MiB of slack, and Chromium's own program and
          // data (about 100 MiB resident in every renderer); 360 to 380 MiB here. Unbounded, 2 GiB.
          expect(peakMiB).toBeLessThan(CEILING_MIB + 256);
        }
        const render = await renderer.renderHtml("<p>An ordinary edition.</p>", header);
        expect(render.heightPx).toBeGreaterThan(0);
      } finally {
        await renderer.close();
      }
    },
    // Two renders that may each take their 20 s (V8 at the kernel's limit, on a starved machine): 67 s in a loaded run.
    TIMEOUT * 4,
  );
});

describe("a page that holds more than its ceiling, and then runs on", () => {
  // As V8 does when its heap reaches the kernel's limit: it collects garbage, and goes on, for longer than the page's
  // time (over 20 s in CI). Its render times out; why it did is its memory, and the one line says so.
  const HELD = `<p>Greedy.</p><script>
    const kept = [];
    try { for (;;) { const a = new Uint8Array(16 << 20); a.fill(1); kept.push(a); } } catch {}
    for (;;);
  </script>`;
  it(
    "fails its render for its memory; a page that only runs on did not load",
    async () => {
      const renderer = await PaperRenderer.open(browser, undefined, 10_000, undefined, CEILING_MIB);
      const failure = (html: string) =>
        renderer.renderHtml(html, header).then(
          () => "printed",
          (error: unknown) => (error as Error).message,
        );
      try {
        expect(await failure(HELD)).toBe(`used more than ${CEILING_MIB} MiB of memory`);
        expect(await failure("<p>Busy.</p><script>for (;;);</script>")).toBe("did not load in 10 s");
        expect(await failure("<p>An ordinary edition.</p>")).toBe("printed");
      } finally {
        await renderer.close();
      }
    },
    TIMEOUT,
  );
});

describe("two pages rendered at once, one of them allocating without end", () => {
  // Six times over: Chromium's browser process crashed, with every page in it, once in 5 to 37 such renders when
  // the greedy page's renderer was killed at the kernel's limit (memory-ceiling.ts).
  it(
    "fails the greedy one and renders the other (every render watches all the renderers), and Chromium stays up",
    async () => {
      const open = () => PaperRenderer.open(browser, undefined, 20_000, undefined, CEILING_MIB);
      // Busy for 1 s while it loads, so that the greedy page is stopped while this one is watched.
      const slow = `<p>An ordinary edition.</p><script>const t = Date.now(); while (Date.now() - t < 1000);</script>`;
      const said = (r: PromiseSettledResult<unknown>) => (r.status === "fulfilled" ? "printed" : String(r.reason));
      for (let round = 1; round <= 6; round++) {
        const [greedy, ordinary] = [await open(), await open()];
        try {
          const results = await Promise.allSettled([
            greedy.renderHtml(TYPED, header),
            ordinary.renderHtml(slow, header),
          ]);
          expect(results.map(said), `round ${round}`).toEqual([
            `Error: used more than ${CEILING_MIB} MiB of memory`,
            "printed",
          ]);
        } finally {
          await Promise.all([greedy.close(), ordinary.close()]);
        }
        expect(browser.isConnected(), `Chromium after round ${round}`).toBe(true);
      }
    },
    TIMEOUT * 4, // 67 s in a loaded run (npm start and a CPU-bound process beside npm test)
  );
});

describe("littlepress print, given a page that allocates without end", () => {
  let site: Server;
  const dir = mkdtempSync(path.join(tmpdir(), "littlepress-greedy-"));
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === "/greedy/meta.json") return res.end(JSON.stringify({ name: "Greedy" }));
      if (req.url?.startsWith("/greedy/edition/")) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: '"1"' });
        return res.end(TYPED);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => {
    site.closeAllConnections();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "fails in one line and prints nothing",
    async () => {
      const out = { stdout: "", stderr: "" };
      const device = path.join(dir, "lp0");
      const { port } = site.address() as AddressInfo;
      const code = await print(
        [`http://127.0.0.1:${port}/greedy/`, "--to", device, "--at", "2026-11-23T06:00:00Z", "--tz", "UTC"],
        { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) },
        { browser, memoryMiB: CEILING_MIB },
      );
      expect(code).toBe(1);
      expect(out.stderr).toBe(`print: the edition used more than ${CEILING_MIB} MiB of memory; nothing printed\n`);
      expect(existsSync(device)).toBe(false);
    },
    TIMEOUT,
  );
});
