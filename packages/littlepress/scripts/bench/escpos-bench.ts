// npm run bench:escpos [-- --editions N]: editions printed per second on an
// ESC/POS printer (the fake one of test/helpers/escpos-printer.ts, on
// loopback), the whole way as `littlepress print` does it (edition/ asked
// through the print keys' client, sirius's page rendered in Chromium at the
// paper's width, PIL's dither, GS v 0 bands, sent over TCP), side by side with
// sending the same precomputed jobs alone. Chromium is started once.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { encodeJob } from "../../lib/model/escpos-raster.ts";
import { sendJob, parseDestination, type Destination } from "../../lib/platform/printers/escpos-send.ts";
import { fetchEdition, publicationPolicy, readPublication } from "../../lib/platform/printers/escpos-publication.ts";
import { startEscPosPrinter } from "../../test/helpers/escpos-printer.ts";
import { launchChromium } from "../browser.ts";
import { answerUsage, parseToolArgs, processOutput, runTool } from "../cli.ts";
import { printPage, Renderers } from "../print/escpos-print.ts";

const USAGE = `Usage: npm run bench:escpos [-- --editions N]

Prints N editions of the example publication "lighthouse" (by delivery_count,
7 parts, cycled) to a fake ESC/POS printer on 127.0.0.1, at 384 and at 576 dots,
the whole way as littlepress print does; then sends the same jobs, precomputed,
with no rendering.

Options:
  --editions N    editions a width (default 30)
  -h, --help      show this text

Example:
  npm run bench:escpos -- --editions 20`;

async function main(argv: string[]): Promise<number> {
  const parsed = parseToolArgs(argv, { editions: { type: "string" }, help: { type: "boolean", short: "h" } }, false);
  const answered = answerUsage("bench", parsed, USAGE, processOutput);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const n = Number(parsed.values.editions ?? 30);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    return answerUsage("bench", { error: "--editions is 1 to 10000" }, USAGE, processOutput)!;
  const work = mkdtempSync(path.join(os.tmpdir(), "littlepress-escpos-bench-"));
  const printer = await startEscPosPrinter();
  const browser = await launchChromium();
  const renderers = new Renderers(browser);
  try {
    // The build and the server load when they run (seconds): --help answers at once.
    const { build } = await import("../../lib/build/build.ts");
    const { startServer } = await import("../../lib/server/server.ts");
    await build({ content: "test/fixtures/examples", output: path.join(work, "_site") });
    const server = await startServer({
      port: 0,
      siteDir: path.join(work, "_site"),
      stateDir: path.join(work, "state"),
    });
    try {
      const base = new URL(`${server.url}/lighthouse/`);
      const policy = publicationPolicy(base);
      const meta = await readPublication(base, policy);
      if ("error" in meta) throw new Error(meta.error);
      const to = parseDestination(printer.url) as Destination;
      const lines: string[] = [];
      for (const width of [384, 576]) {
        const settings = { to, width, cut: true, retries: 0 };
        // One unmeasured print first: the renderer's context and Chromium's caches.
        const warm = await fetchEdition(base, meta, { localDeliveryTime: "", deliveryCount: 0, settings: [] }, policy);
        if ("error" in warm) throw new Error(warm.error);
        await printPage(renderers, settings, { html: warm.html!, origin: base }, { at: new Date(), from: meta.name });
        const jobs = [];
        let bytes = 0;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          const edition = await fetchEdition(
            base,
            meta,
            { localDeliveryTime: "", deliveryCount: i % 7, settings: [] },
            policy,
          );
          if ("error" in edition || edition.status !== 200) throw new Error(`edition ${i % 7} did not answer 200`);
          const printed = await printPage(
            renderers,
            settings,
            { html: edition.html!, origin: base },
            { at: new Date(), from: meta.name },
          );
          if (!printed.report.ok) throw new Error(printed.report.error);
          jobs.push(printed.job);
          bytes += printed.job.bytes.length;
        }
        const whole = (performance.now() - t0) / 1000;
        const t1 = performance.now();
        for (const job of jobs) {
          const report = await sendJob(to, job, { retries: 0 });
          if (!report.ok) throw new Error(report.error);
        }
        const sendOnly = (performance.now() - t1) / 1000;
        const t2 = performance.now();
        for (const job of jobs)
          encodeJob({
            width,
            height: (job.bandEnds.length - 1) * 128 + 1,
            data: new Uint8Array(width * ((job.bandEnds.length - 1) * 128 + 1)),
          });
        const encodeOnly = (performance.now() - t2) / 1000;
        lines.push(
          `| ${width} | ${n} | ${(n / whole).toFixed(1)} (${((whole / n) * 1000).toFixed(0)} ms each) | ` +
            `${(n / sendOnly).toFixed(1)} (${((sendOnly / n) * 1000).toFixed(1)} ms each) | ` +
            `${((encodeOnly / n) * 1000).toFixed(2)} ms | ${Math.round(bytes / n / 1024)} KiB |`,
        );
      }
      const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})`;
      console.log(`bench:escpos: ${n} editions of lighthouse a width, one Chromium, on ${machine}\n`);
      console.log(
        "| dots wide | editions | whole print, editions/s | precomputed jobs sent, editions/s | " +
          "GS v 0 encoding alone (a blank picture as tall), per job | job size (mean) |",
      );
      console.log("|---|---|---|---|---|---|");
      for (const line of lines) console.log(line);
      if (printer.stream.jobs.length !== 4 * n + 2)
        throw new Error(`the printer got ${printer.stream.jobs.length} jobs, not ${4 * n + 2}`);
      return 0;
    } finally {
      await server.close();
    }
  } finally {
    await renderers.close();
    await browser.close();
    await printer.close();
    rmSync(work, { recursive: true, force: true });
  }
}

runTool("bench", import.meta.url, main);
