// npm run bench:verify: the print preview that verify runs (every edition with
// every setting a subscriber can have, identical pages rendered once),
// measured in distinct pages rendered per second, against its limit side by
// side in the same run: a plain playwright-core loop that opens the same
// distinct pages (the same HTML files, sirius's page around each edition) in
// the same Chromium and takes a full-page screenshot of each, with nothing of
// the kit around it (no server, no fetch, no measuring, no dithering, no PNGs
// written). The publications are synthetic, written into a temporary folder.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PAPER_WIDTH_PX } from "../../lib/model/paper.ts";
import { CHROMIUM } from "../browser.ts";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import { median } from "./util.ts";

export const USAGE = `Usage: npm run bench:verify [-- options]

Times verify's print preview (every edition with every setting, identical pages
once) in distinct pages rendered per second, and side by side a plain
playwright-core loop screenshotting the same pages in the same Chromium.
Prints the figures.

Options:
  --editions <n>  editions per publication (default 20)
  --rounds <n>    runs of each side, alternating (default 2)
  -h, --help      show this text

Example:
  npm run bench:verify -- --editions 20 --rounds 2`;

/** Issue 38's: verify's print preview at least this share of a bare Chromium loop's pages per second. */
const VERIFY_TARGET = 0.8;

/** The same header time on both sides, so the pages are the same bytes. */
const NOW = new Date("2026-06-01T06:00:00Z");

/**
 * Three publications of `n` editions each: "plain" (no settings), "choices"
 * (a select of four options, two of which print the same page, and a name of
 * at most 40 characters printed in the text) and "unused" (a select of three
 * the editions never print: every variant is the same page).
 */
function writeContent(dir: string, n: number): void {
  const pub = (slug: string, fields: object[], body: (i: number) => string) => {
    mkdirSync(path.join(dir, slug, "editions"), { recursive: true });
    const meta = { name: slug, description: slug, owner_email: "b@example.com", delivered_on: "Daily" };
    const json = { ...meta, editions: { by: "delivery_count", ends: true }, config: { fields } };
    writeFileSync(path.join(dir, slug, "publication.json"), JSON.stringify(json));
    for (let i = 0; i < n; i++) {
      const text = `---\nnumber: ${i}\ntitle: ${slug} ${i + 1}\n---\n${body(i)}\n`;
      writeFileSync(path.join(dir, slug, "editions", `${i}.md`), text);
    }
  };
  const prose = (i: number) =>
    Array.from({ length: 4 }, (_, p) => `Paragraph ${p + 1} of edition ${i + 1}: the tide, the wind, the lamp.`).join(
      "\n\n",
    );
  pub("plain", [], prose);
  const lang = {
    type: "select",
    name: "lang",
    label: "Language",
    options: [
      ["English", "en"],
      ["British", "gb"],
      ["Français", "fr"],
      ["Deutsch", "de"],
    ],
  };
  const name = { type: "text", name: "name", label: "Name", required: false, default: "friend", max_length: 40 };
  pub(
    "choices",
    [lang, name],
    (i) =>
      `{% if config.lang == "fr" %}Bonjour{% elsif config.lang == "de" %}Hallo{% else %}Hello{% endif %}, ` +
      `{{ config.name }}.\n\n${prose(i)}`,
  );
  const unused = { ...lang, options: lang.options.slice(0, 3) };
  pub("unused", [unused], prose);
}

/** The distinct pages the preview renders, written as HTML files: what the plain loop opens. */
async function distinctPages(
  content: string,
  site: string,
  folder: string,
): Promise<{ files: string[]; variants: number }> {
  // What the bench runs loads when it runs (seconds): --help answers at once.
  const { startServer } = await import("../../lib/server/server.ts");
  const { subscriberSettings } = await import("../preview/settings.ts");
  const { siriusPage } = await import("../preview/sirius-page.ts");
  const { chooseTargets, editionUrl, printHeader, readPublications } = await import("../preview/targets.ts");
  const server = await startServer({ port: 0, siteDir: site });
  try {
    const seen = new Set<string>();
    const files: string[] = [];
    let variants = 0;
    for (const target of chooseTargets(readPublications(content), [])) {
      for (const key of target.keys) {
        for (const s of subscriberSettings(target.fields)) {
          variants++;
          const response = await fetch(editionUrl(server.url, target.slug, target.by, key, s.values));
          const printed = siriusPage(await response.text(), printHeader(target, key, NOW));
          const hash = createHash("sha256").update(printed).digest("hex");
          if (seen.has(hash)) continue;
          seen.add(hash);
          const file = path.join(folder, `${hash}.html`);
          writeFileSync(file, printed);
          files.push(file);
        }
      }
    }
    return { files, variants };
  } finally {
    await server.close();
  }
}

/** Chromium alone: launch, then open each file and screenshot its full length. */
async function plainLoop(files: string[]): Promise<number> {
  const { chromium } = await import("playwright-core"); // loaded before the clock starts, as the kit's preview is
  const started = performance.now();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: PAPER_WIDTH_PX, height: 1 }, deviceScaleFactor: 1 });
    for (const file of files) {
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      await page.screenshot({ fullPage: true });
    }
  } finally {
    await browser.close();
  }
  return (performance.now() - started) / 1000;
}

export async function benchVerify(editions: number, rounds: number, log: (line: string) => void): Promise<string> {
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-bench-verify-"));
  try {
    const content = path.join(work, "content");
    const site = path.join(work, "site");
    const pages = path.join(work, "pages");
    mkdirSync(pages);
    writeContent(content, editions);
    log(`building ${editions} editions × 3 publications`);
    // The build, the server and the preview load when they run (seconds): --help answers at once.
    const { build } = await import("../../lib/build/build.ts");
    const { preview } = await import("../preview/run.ts");
    await build({ content, output: site, url: "http://127.0.0.1:8080" });
    const { files, variants } = await distinctPages(content, site, pages);
    const rows: string[] = [];
    const ratios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round}: the kit's preview`);
      const started = performance.now();
      const result = await preview({ content, site, build: false, out: path.join(work, "out"), now: NOW });
      const kit = (performance.now() - started) / 1000;
      if (result.rendered !== files.length)
        throw new Error(`the preview rendered ${result.rendered} pages, the plain loop has ${files.length}`);
      log(`round ${round}: plain playwright-core`);
      const plain = await plainLoop(files);
      const rate = (seconds: number) => (files.length / seconds).toFixed(1);
      ratios.push(plain / kit);
      rows.push(
        `| ${round} | ${result.variants} | ${files.length} | ${kit.toFixed(2)} | ${rate(kit)} | ` +
          `${plain.toFixed(2)} | ${rate(plain)} | ${(plain / kit).toFixed(2)} |`,
      );
    }
    const cpus = os.cpus();
    return [
      `verify's print preview: ${variants} variants (edition × settings) of 3 publications of ${editions} editions ` +
        `-> ${files.length} distinct pages; ${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}`,
      "",
      "| round | variants | distinct pages | kit s | kit pages/s | plain s | plain pages/s | kit/plain pages/s |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
      `Target (issue 38): the preview at least ${VERIFY_TARGET}x the plain loop's pages per second; ` +
        `median ${median(ratios).toFixed(2)}x: ${median(ratios) >= VERIFY_TARGET ? "met" : "missed"}.`,
    ].join("\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function main(argv: string[], out = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, {
    editions: { type: "string", default: "20" },
    rounds: { type: "string", default: "2" },
    help: { type: "boolean", short: "h", default: false },
  });
  const answered = answerUsage("bench", parsed, USAGE, out);
  if (answered !== undefined || !("values" in parsed)) return answered ?? 2;
  const { editions, rounds } = parsed.values;
  if (![editions, rounds].every((v) => /^[1-9]\d{0,3}$/.test(v))) {
    out.stderr("bench: --editions and --rounds are whole numbers from 1 to 9999; see --help\n");
    return 2;
  }
  const log = (line: string) => out.stderr(`bench:verify: ${line}\n`);
  out.stdout(`${await benchVerify(Number(editions), Number(rounds), log)}\n`);
  return 0;
}

runTool("bench", import.meta.url, main);
