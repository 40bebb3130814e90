// A page that runs out of time in the preview (and so in verify) is tried once
// more, with twice the time, before it fails: on a busy machine PhantomJS ran
// tenfold slower, and a publication was failed for it. A page that runs out of
// time twice fails, saying so, and then no other page is tried again. Real
// PhantomJS 2.1.1 renders pages served over HTTP, as verify fetches them.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PhantomRenderer } from "../../scripts/preview/phantom.ts";
import { emptyResult, previewPublication, runState, type RunState } from "../../scripts/preview/publication-preview.ts";
import { RenderError } from "../../scripts/preview/render.ts";
import type { Target } from "../../scripts/preview/targets.ts";

const work = mkdtempSync(path.join(tmpdir(), "littlepress-late-pages-"));
/** Edition n's page: one that never finishes loading (a script that runs for ever), or a plain one. */
const page = (n: string) => (n === "0" ? "<p>Plain.</p>" : `<p>Busy ${n}.</p><script>for (;;);</script>`);
let editions: Server;
let base: string;

beforeAll(async () => {
  editions = createServer((req, res) => {
    const n = new URL(req.url ?? "/", "http://x").searchParams.get("delivery_count") ?? "0";
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: `"${n}"` });
    res.end(`<!doctype html><html><body>${page(n)}</body></html>`);
  });
  await new Promise<void>((resolve) => editions.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(editions.address() as AddressInfo).port}`;
});
afterAll(async () => {
  editions.closeAllConnections();
  await new Promise((resolve) => editions.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** Previews editions `keys` of a publication with `renderer`; the result and what it said. */
async function previewOf(renderer: PhantomRenderer, keys: string[], state?: RunState) {
  const said: string[] = [];
  const progress = (line: string) => said.push(line);
  const target: Target = { slug: "slow", name: "Slow", by: "delivery_count", keys, allKeys: keys, fields: [] };
  const result = emptyResult();
  const out = mkdtempSync(path.join(work, "out-"));
  const run = { site: mkdtempSync(path.join(work, "site-")), out, progress, partial: false, now: new Date() };
  await previewPublication(renderer, base, target, { ...run, state: state ?? runState(progress) }, result);
  return { result, said, errors: new Map(result.rows.map((r) => [r.key, r.error])) };
}

describe("a page that runs out of time in the preview", { timeout: 60_000 }, () => {
  it("is rendered again with twice the time, and passes when it loads then", async () => {
    // 10 s: a plain page takes half a second here alone, and this one must load in its second try.
    const renderer = await PhantomRenderer.open({ timeoutMs: 10_000 });
    // As on a busy machine: the first render runs out of time, whatever the page; the next is PhantomJS's own.
    const limits: number[] = [];
    const busyOnce = Object.create(renderer) as PhantomRenderer;
    busyOnce.renderPage = (printed, options, timeoutMs = renderer.timeoutMs) => {
      limits.push(timeoutMs);
      if (limits.length === 1) return Promise.reject(RenderError.late(timeoutMs));
      return renderer.renderPage(printed, options, timeoutMs);
    };
    try {
      const { result, said } = await previewOf(busyOnce, ["0"]);
      expect(result.failures, JSON.stringify(result.rows)).toBe(0);
      expect(result.rows[0]!.heightPx).toBeGreaterThan(0);
      expect(limits).toEqual([10_000, 20_000]);
      expect(said).toContain("a page did not load in 10 s; trying it again with 20 s");
    } finally {
      await renderer.close();
    }
  });

  it("fails when it runs out of time again, saying so; then no other page is tried again", async () => {
    const renderer = await PhantomRenderer.open({ timeoutMs: 1000 });
    try {
      // One render at a time: the second and third pages run out of time before the first is tried again.
      const said: string[] = [];
      const state = { ...runState((line) => said.push(line)), turns: pLimit(1) };
      const { result, errors } = await previewOf(renderer, ["1", "2", "3"], state);
      expect(result.failures).toBe(3);
      expect(errors.get("1")).toBe("the page did not load in 1 s, nor in 2 s when tried again; skipped");
      expect(errors.get("2")).toBe("the page did not load in 1 s; skipped");
      expect(errors.get("3")).toBe("the page did not load in 1 s; skipped");
      expect(said.filter((line) => line.includes("trying it again"))).toHaveLength(1);
    } finally {
      await renderer.close();
    }
  });
});
