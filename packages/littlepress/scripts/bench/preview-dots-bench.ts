// npm run bench:preview-dots: the preview against the stand-in for sirius, on
// a publication of the bench's own (text, headings, a photo and a grey box, a
// table, characters DejaVu lacks). Each edition is previewed as `npm run
// preview` does it, and sent to `littlepress sirius` as the platform sends it
// (the page's HTML, POSTed with the publication's name as `from`); the two
// prints are compared dot by dot (target: 0 differing). It also times one
// render of each page in PhantomJS (the preview's and the stand-in's browser)
// and in Chromium (the preview's before), and counts how many dots Chromium's
// print differed by.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Dots } from "../../lib/model/bilevel.ts";
import { launchChromium } from "../browser.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, type Output } from "../cli.ts";
import { PhantomRenderer } from "../preview/phantom.ts";
import { pngDots, printDots } from "../preview/print-image.ts";
import { PaperRenderer } from "../preview/render.ts";
import { siriusPage } from "../preview/sirius-page.ts";
import { editionUrl } from "../preview/targets.ts";
import { startSirius } from "../sirius.ts";
import { printUrl } from "../../lib/model/print-url.ts";

export const USAGE = `Usage: npm run bench:preview-dots

Previews each edition of the bench's own publication as npm run preview does,
sends it to the stand-in for sirius (littlepress sirius) as the platform sends
it, and prints a table: the dots that differ between the two prints (target 0),
and the time of one render in PhantomJS (sirius's browser, which both use) and
in Chromium (the preview's before), with the dots Chromium's print differs by.
Exits 1 when a print differs.

Options:
  -h, --help   show this text

Example:
  npm run bench:preview-dots`;

const SLUG = "dots";
const NAME = "Dots & Co";
const AT = new Date("2026-11-29T06:00:00Z");
const LOREM =
  "The lighthouse keeper wound the clock at six, as every morning, and wrote the wind in the book: " +
  "north-west, a fresh breeze, the sea moderate and the visibility good.";

/** The bench's editions: each a shape authors write. */
export const EDITIONS: Record<string, string> = {
  "1": `# Sunday 29 November\n\n${LOREM}\n\n${LOREM}`,
  "2": "## Today\n\n- Bins out\n- Call the plumber, about the boiler\n- *Swim* at **seven**\n\n> A quoted line.",
  "3": `![A photo](photo.png)\n\n<div style="height: 60px; background: #888"></div>\n\n${LOREM}`,
  "4": "| Tide | Time |\n|---|---|\n| High | 06:12 |\n| Low | 12:31 |\n| High | 18:40 |",
  "5": `<div style="display: -webkit-flex"><span>Rain 🌧</span><span style="margin-left: 20px">日曜日</span></div>`,
};

export interface DotsRow {
  key: string;
  previewPx: number;
  standInPx: number;
  /** Dots that differ between the preview's print and the stand-in's (rows only one has count whole). */
  differing: number;
  phantomMs: number;
  chromiumMs: number;
  /** Dots that differ between Chromium's print of the same page and PhantomJS's. */
  chromiumDiffering: number;
}

/** Writes the bench's publication under `content`, for a site at `url`. */
async function writeFixture(content: string, url: string): Promise<void> {
  const editions = path.join(content, SLUG, "editions");
  mkdirSync(editions, { recursive: true });
  writeFileSync(path.join(content, "site.json"), JSON.stringify({ url }));
  const publication = { name: NAME, description: "d", owner_email: "d@example.com", delivered_on: "Daily" };
  const json = { ...publication, editions: { by: "delivery_count" } };
  writeFileSync(path.join(content, SLUG, "publication.json"), JSON.stringify(json));
  const gradient = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="384" height="200"><defs><linearGradient id="g">' +
      '<stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient></defs>' +
      '<rect width="384" height="200" fill="url(#g)"/><circle cx="192" cy="100" r="60" fill="#555"/></svg>',
  );
  await sharp(gradient).png().toFile(path.join(editions, "photo.png"));
  for (const [key, body] of Object.entries(EDITIONS))
    writeFileSync(path.join(editions, `${key}.md`), `---\nnumber: ${key}\ntitle: Edition ${key}\n---\n${body}\n`);
}

/** Dots that differ between two prints; rows only one of them has count whole. */
export function differingDots(a: Dots, b: Dots): number {
  let differing = Math.abs(a.height - b.height) * Math.max(a.width, b.width);
  const rows = Math.min(a.height, b.height);
  for (let i = 0; i < rows * Math.min(a.width, b.width); i++) if (a.data[i] !== b.data[i]) differing++;
  return differing;
}

export async function benchPreviewDots(): Promise<DotsRow[]> {
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-dots-"));
  try {
    const content = path.join(work, "content");
    const site = path.join(work, "_site");
    mkdirSync(site);
    const { startServer } = await import("../../lib/server/server.ts");
    // The site is served first, so that it is built for its own address, as a deployed site is: the stand-in
    // loads its images from there (--site), as sirius loads a deployed site's.
    const server = await startServer({ port: 0, siteDir: site, stateDir: path.join(work, "state") });
    try {
      await writeFixture(content, server.url);
      const { build } = await import("../../lib/build/build.ts");
      const { preview } = await import("../preview/run.ts");
      await build({ content, output: site });
      await preview({ content, site, build: false, out: path.join(work, "preview"), now: AT });
      const prints = await standInPrints(work, server.url);
      const timed = await timeRenders(site, server.url);
      const keys = Object.keys(EDITIONS);
      return await Promise.all(
        keys.map(async (key) => ({ ...(await compare(work, key, prints.get(key)!)), ...timed.get(key)! })),
      );
    } finally {
      await server.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Each edition sent to the stand-in as the platform sends it: its print's file, by key. */
async function standInPrints(work: string, base: string): Promise<Map<string, string>> {
  const out = path.join(work, "stand-in");
  const printer = { key: "bench", name: "Bench", online: true };
  const sirius = await startSirius({ out, port: 0, printers: [printer], log: () => {}, now: () => AT, sites: [base] });
  const files = new Map<string, string>();
  try {
    for (const key of Object.keys(EDITIONS)) {
      const before = new Set(readdirSync(out));
      const html = await (await fetch(editionUrl(base, SLUG, "delivery_count", key))).text();
      const url = printUrl(new URL(sirius.keyUrl(printer.key)), NAME);
      const headers = { "Content-Type": "text/html; charset=utf-8" };
      const answer = await fetch(url, { method: "POST", headers, body: html });
      if (answer.status !== 200) throw new Error(`the stand-in answered ${answer.status} to edition ${key}`);
      const made = readdirSync(out).find((f) => !before.has(f) && f.endsWith(".png"));
      if (!made) throw new Error(`the stand-in wrote no print for edition ${key}`);
      files.set(key, path.join(out, made));
    }
  } finally {
    await sirius.close();
  }
  return files;
}

/** The preview's print of `key` against the stand-in's. */
async function compare(work: string, key: string, standIn: string) {
  const previewed = await pngDots(readFileSync(path.join(work, "preview", SLUG, `${key}.png`)));
  const printed = await pngDots(readFileSync(standIn));
  return { key, previewPx: previewed.height, standInPx: printed.height, differing: differingDots(previewed, printed) };
}

/** One render of each edition's page in PhantomJS and in Chromium: times, and how far Chromium's print is. */
async function timeRenders(site: string, base: string) {
  const phantom = await PhantomRenderer.open({ site: { dir: site, url: base } });
  const browser = await launchChromium();
  const chromium = await PaperRenderer.open(browser, { dir: site, url: base });
  const timed = new Map<string, { phantomMs: number; chromiumMs: number; chromiumDiffering: number }>();
  try {
    for (const key of Object.keys(EDITIONS)) {
      const page = siriusPage(await phantom.fetch(editionUrl(base, SLUG, "delivery_count", key)), {
        at: AT,
        from: NAME,
      });
      let started = performance.now();
      const inPhantom = await phantom.renderPage(page);
      const phantomMs = performance.now() - started;
      started = performance.now();
      const inChromium = await chromium.renderPage(page);
      const chromiumMs = performance.now() - started;
      const chromiumDiffering = differingDots(await printDots(inPhantom.png), await printDots(inChromium.png));
      timed.set(key, { phantomMs, chromiumMs, chromiumDiffering });
    }
  } finally {
    await phantom.close();
    await chromium.close();
    await browser.close();
  }
  return timed;
}

export function dotsTable(rows: DotsRow[]): string {
  return [
    `${new Date().toISOString()}: the preview against the stand-in for sirius, ${os.cpus().length} cores, ` +
      `load average ${os.loadavg()[0]!.toFixed(1)}`,
    "",
    "| edition | preview px | stand-in px | differing dots (target 0) | PhantomJS ms | Chromium ms | " +
      "Chromium's differing dots |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.key} | ${r.previewPx} | ${r.standInPx} | ${r.differing} ${r.differing ? "FAIL" : "ok"} | ` +
        `${Math.round(r.phantomMs)} | ${Math.round(r.chromiumMs)} | ${r.chromiumDiffering} |`,
    ),
  ].join("\n");
}

export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, { help: { type: "boolean", short: "h" } } as const, false);
  const answered = answerUsage("bench", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const rows = await benchPreviewDots();
  out.stdout(dotsTable(rows) + "\n");
  return rows.some((r) => r.differing) ? 1 : 0;
}

runTool("bench", import.meta.url, (argv) => main(argv));
