// The print preview on test/fixtures/preview (one publication, "sampler": a
// short edition, one far over 800 px, one with a grey photograph and a grey
// class="dither" band), rendered from the site the global setup built.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../scripts/browser.ts";
import { preview, type PreviewResult } from "../../scripts/preview/run.ts";
import { PaperRenderer, RenderError } from "../../scripts/preview/render.ts";
import { formatSummary } from "../../scripts/preview/summary.ts";
import { builtSite, FIXTURES } from "../helpers/sites.ts";

/** preview/index.json, as the test reads it (the shape it checks is the documented one). */
interface PreviewIndexJson {
  contactSheet: string;
  editions: PreviewEditionJson[];
}
interface PreviewEditionJson {
  key: string;
  file: string;
  heightPx: number;
  heightMm: number;
  tooLong: boolean;
}

const run = promisify(execFile);
const CONTENT = `${FIXTURES}/preview`;
const work = path.join(".test-work", `preview-${process.pid}`);
const out = path.join(work, "out");
const dir = path.join(out, "sampler");

let result: PreviewResult;
const progress: string[] = [];

beforeAll(async () => {
  result = await preview({
    content: CONTENT,
    site: builtSite("preview"),
    build: false,
    out,
    progress: (line) => progress.push(line),
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function pixels(file: string) {
  const { data, info } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe("npm run preview on a small publication", () => {
  it("renders every edition into a 384 px wide PNG of pure black and white", async () => {
    expect(result.failures).toBe(0);
    for (const key of ["0", "1", "2"]) {
      const file = path.join(dir, `${key}.png`);
      const meta = await sharp(file).metadata();
      expect(meta.width).toBe(384);
      expect(meta.bitsPerSample).toBe(1);
      const { data } = await pixels(file);
      expect(new Set(data)).toEqual(new Set([0, 255]));
    }
  });

  it("writes index.json in the documented shape, lengths in px and mm, too long over 800 px", async () => {
    const index = JSON.parse(await readFile(path.join(dir, "index.json"), "utf8")) as PreviewIndexJson;
    expect(Object.keys(index).sort()).toEqual(["contactSheet", "editions"]);
    expect(index.contactSheet).toBe("contact-sheet.png");
    expect(index.editions.map((e: { key: string }) => e.key)).toEqual(["0", "1", "2"]);
    for (const e of index.editions) {
      expect(Object.keys(e).sort()).toEqual(["file", "heightMm", "heightPx", "key", "tooLong"]);
      expect(e.file).toBe(`${e.key}.png`);
      expect(Number.isInteger(e.heightPx)).toBe(true);
      expect(e.heightMm).toBe(e.heightPx / 8);
      expect(e.tooLong).toBe(e.heightPx > 800);
      expect((await sharp(path.join(dir, e.file)).metadata()).height).toBe(e.heightPx);
    }
    const [short, long] = index.editions as [PreviewEditionJson, PreviewEditionJson];
    expect(short.tooLong).toBe(false);
    expect(short.heightPx).toBeLessThan(400); // the length of the content, not of a viewport
    expect(long.tooLong).toBe(true);
    expect(long.heightPx).toBeGreaterThan(800);
  });

  it("prints a summary that marks only the long edition", () => {
    const lines = formatSummary(result.rows).trimEnd().split("\n");
    expect(lines[0]).toMatch(/^publication\s+edition\s+px\s+mm$/);
    const row = (key: string) => lines.find((l) => new RegExp(`^sampler\\s+${key}\\s`).test(l))!;
    expect(row("1")).toMatch(/\d+ px\s+[\d.]+ mm\s+⚠ longer than the advised 800 px \(100 mm\)$/);
    expect(row("0")).not.toMatch(/advised/);
    expect(row("2")).not.toMatch(/advised/);
  });

  it("makes a contact sheet wider than one strip", async () => {
    const meta = await sharp(path.join(dir, "contact-sheet.png")).metadata();
    expect(meta.width).toBeGreaterThan(384);
  });

  it('dithers the photograph and the class="dither" band, and thresholds the text', async () => {
    const boxes = result.publications[0]!.ditherBoxes["2"]!;
    expect(boxes).toHaveLength(2); // the <img> and the grey band
    const page = await pixels(path.join(dir, "2.png"));
    for (const box of boxes) {
      const inside = [];
      for (let y = Math.ceil(box.y) + 1; y < Math.floor(box.y + box.height) - 1; y++)
        for (let x = Math.ceil(box.x) + 1; x < Math.floor(box.x + box.width) - 1; x++)
          inside.push(page.data[y * page.width + x]!);
      const white = inside.filter((v) => v === 255).length / inside.length;
      expect(white).toBeGreaterThan(0.2); // a mix of dots, not a solid block
      expect(white).toBeLessThan(0.8);
    }
    // The image was linked by the site's public address (https://press.example/...) and still came from the built site.
    expect(result.rows.find((r) => r.key === "2")?.blocked).toEqual([]);
  });

  it("shows progress and copies the folder into the built site", () => {
    expect(progress).toEqual(expect.arrayContaining(["sampler 1/3 (edition 0)", "sampler 3/3 (edition 2)"]));
    expect(existsSync(path.join(builtSite("preview"), "sampler", "preview", "index.json"))).toBe(true);
  });

  it("renders one edition with --edition and keeps the others in index.json", async () => {
    const again = await preview({ content: CONTENT, site: builtSite("preview"), build: false, out, edition: "0" });
    expect(again.rows.map((r) => r.key)).toEqual(["0"]);
    const index = JSON.parse(await readFile(path.join(dir, "index.json"), "utf8")) as PreviewIndexJson;
    expect(index.editions.map((e: { key: string }) => e.key)).toEqual(["0", "1", "2"]);
  });
});

describe("a page that does not load", () => {
  let hanging: Server;
  beforeAll(async () => {
    hanging = createServer(() => undefined); // accepts and never answers
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => {
    hanging.closeAllConnections();
    return new Promise<void>((resolve) => hanging.close(() => resolve()));
  });

  it("is given up after the timeout with a RenderError, not waited on", async () => {
    const { port } = hanging.address() as { port: number };
    const browser = await launchChromium();
    try {
      const renderer = await PaperRenderer.open(
        browser,
        { dir: builtSite("preview"), url: `http://127.0.0.1:${port}` },
        1000,
      );
      const started = performance.now();
      const error = await renderer.render(`http://127.0.0.1:${port}/sampler/edition/`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect((error as Error).message).toBe("did not load in 1 s");
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await browser.close();
    }
  });
});

describe("the command line", () => {
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    run(process.execPath, ["--import", "tsx", "scripts/preview.ts", ...args], {
      env: { ...process.env, ...env },
      timeout: 20_000,
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const site = ["--site", builtSite("preview"), "--content", CONTENT, "--out", out];

  it("refuses an unknown slug with a sentence naming the publications", async () => {
    const { code, stderr } = await cli(["nope", ...site]);
    expect(code).not.toBe(0);
    expect(stderr).toBe('preview: there is no publication "nope"; the publications are: sampler\n');
  });

  it("says how to install Chromium when it is missing", async () => {
    const { code, stderr } = await cli(site, { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^preview: there is no Chromium at \/nonexistent\/chromium\. Install it with `apt-get install chromium`/,
    );
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
