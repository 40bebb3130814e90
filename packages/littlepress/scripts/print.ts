// littlepress print: today's edition of any publication, asked for as the
// platform asks (local_delivery_time, delivery_count, the settings), rendered
// as the printer prints it at the receipt printer's width, and printed now on
// an ESC/POS printer: over TCP (tcp://host:9100), to a device file
// (/dev/usb/lp0) or through CUPS (cups:<queue>). 204 and 410 print nothing,
// with a line each. Every expected failure is one line and exit code 1.
import type { Browser } from "playwright-core";
import { localDeliveryTime } from "../lib/model/delivery-time.ts";
import { BAND_ROWS, bandRowsProblem, PRINTER_WIDTHS } from "../lib/model/escpos-raster.ts";
import { shownText } from "../lib/model/printer-name.ts";
import { isTimeZone, todayIn, wallClock } from "../lib/model/time-zones.ts";
import { parseDestination } from "../lib/platform/printers/escpos-send.ts";
import {
  fetchEdition,
  publicationBase,
  publicationPolicy,
  readPublication,
} from "../lib/platform/printers/escpos-publication.ts";
import { startChromium } from "./browser.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, timeoutProblem, type Output } from "./cli.ts";
import { jobSummary, printPage, Renderers, type PrinterSettings } from "./print/escpos-print.ts";
import { RenderError } from "./preview/render.ts";

export const USAGE = `Usage: littlepress print <publication url> --to <printer> [options]

Asks the publication for today's edition as the printer platform does, renders
it as the printer prints it (sirius's page, Chromium at the paper's width, the
same black and white as the preview), and prints it now on an ESC/POS receipt
printer. A 204 prints nothing; a 410 prints nothing and says the series is over.

Printers (--to):
  tcp://host[:port]     a network printer's raw port (default 9100)
  /dev/usb/lp0          a device file (or any file), written raw
  cups:<queue>          a CUPS queue, as a raw job (lp -d <queue> -o raw)

Options:
  --to <printer>        where to print (required)
  --width 384|576       the paper's width in dots: 58 mm or 80 mm (default 384)
  --no-cut              feed, but do not cut (printers without a cutter)
  --band-rows <n>       rows per GS v 0 band, 24 to 255 (default 128)
  --count <n>           the delivery_count to send (default 0)
  --config NAME=VALUE   a subscriber setting, sent as a query parameter (repeatable)
  --tz <zone>           the printer's IANA time zone (default this machine's)
  --at <time>           print as if it were this instant (ISO 8601; default now)
  --retries <n>         tries after a failed one, each sending the job whole (default 2)
  --timeout <s>         seconds per request to the publication (default 10)
  -h, --help            show this text

Only the publication's own origin is asked; redirects are not followed; an
edition over 4 MiB or slower than the timeout is refused. A host name must
resolve to a public address; write a home server's address as an IP.

Nothing to print (204, 410) is done, exit 0; the publication or the printer
failing is exit 1.

Example:
  littlepress print https://press.example/almanac/ --to tcp://192.168.1.50:9100 --width 576`;

const OPTIONS = {
  to: { type: "string" },
  width: { type: "string" },
  "no-cut": { type: "boolean" },
  "band-rows": { type: "string" },
  count: { type: "string" },
  config: { type: "string", multiple: true },
  tz: { type: "string" },
  at: { type: "string" },
  retries: { type: "string" },
  "retry-wait": { type: "string" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** What a caller in the same process may hand main() instead of what the command line makes itself. */
export interface PrintUse {
  /** A Chromium to render in, left open (default: one started for this print, and closed). */
  browser?: Browser;
  /** Each try's limit to send the job (default: jobTimeoutMs of the job's size, escpos-send.ts). */
  sendTimeoutMs?: number;
  /** The most memory the page may hold, in MiB (default: PAGE_MEMORY_MIB, preview/memory-ceiling.ts). */
  memoryMiB?: number;
}

export async function main(argv: string[], out: Output = processOutput, use: PrintUse = {}): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS);
  const answered = answerUsage("print", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values, positionals } = parsed;
  const usage = (problem: string) => answerUsage("print", { error: problem }, USAGE, out) ?? 2;
  if (positionals.length !== 1) return usage("give one publication URL");
  const base = publicationBase(positionals[0]!);
  if ("problem" in base) return usage(base.problem);
  if (!values.to) return usage("--to names the printer (tcp://host:9100, a device file, or cups:<queue>)");
  const to = parseDestination(values.to);
  if ("problem" in to) return usage(to.problem);
  const width = Number(values.width ?? 384);
  if (!(PRINTER_WIDTHS as readonly number[]).includes(width))
    return usage(`--width is 384 (58 mm) or 576 (80 mm), not "${values.width}"`);
  const bandRows = Number(values["band-rows"] ?? BAND_ROWS);
  const bandProblem = bandRowsProblem(bandRows);
  if (bandProblem) return usage(`--band-rows: ${bandProblem}`);
  const count = Number(values.count ?? 0);
  if (!Number.isSafeInteger(count) || count < 0)
    return usage(`--count is a whole number from 0, not "${values.count}"`);
  const retries = Number(values.retries ?? 2);
  if (!Number.isInteger(retries) || retries < 0 || retries > 10)
    return usage(`--retries is a whole number from 0 to 10, not "${values.retries}"`);
  const retryWait = Number(values["retry-wait"] ?? 2);
  if (!(retryWait >= 0 && retryWait <= 600)) return usage(`--retry-wait is seconds from 0 to 600`);
  if (values.timeout !== undefined && timeoutProblem(values.timeout)) return usage(timeoutProblem(values.timeout)!);
  const zone = values.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!isTimeZone(zone)) return usage(`--tz: "${zone}" is not an IANA time zone`);
  const at = values.at === undefined ? new Date() : new Date(values.at);
  if (Number.isNaN(at.getTime())) return usage(`--at: "${values.at}" is not a time (ISO 8601)`);
  const settings: [string, string][] = [];
  for (const pair of values.config ?? []) {
    const eq = pair.indexOf("=");
    if (eq < 1) return usage(`--config takes NAME=VALUE, not "${pair}"`);
    settings.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  const printer: PrinterSettings = {
    to,
    width,
    cut: !values["no-cut"],
    bandRows,
    retries,
    retryWaitMs: retryWait * 1000,
    ...(use.sendTimeoutMs !== undefined && { timeoutMs: use.sendTimeoutMs }),
  };
  // Every line may carry what the publication chose (its name, its ETag, a page's error): one line each, cleaned.
  const say = (line: string) => out.stdout(`${shownText(line)}\n`);
  const fail = (line: string) => {
    out.stderr(`${shownText(`print: ${line}`)}\n`);
    return 1;
  };

  const policy = publicationPolicy(base, values.timeout ? Number(values.timeout) * 1000 : undefined);
  const meta = await readPublication(base, policy);
  if ("error" in meta) return fail(meta.error);
  // On the hour, as the platform delivered: this hour of today on the printer's clock.
  const date = todayIn(zone, at);
  const time = localDeliveryTime(date, wallClock(zone, at.getTime()).hour, zone);
  const edition = await fetchEdition(
    base,
    meta,
    { localDeliveryTime: time.text, deliveryCount: count, settings },
    policy,
  );
  if ("error" in edition) return fail(edition.error);
  const asked = `edition/${edition.url.search}`;
  if (edition.status === 204) {
    say(`print: ${meta.name}: ${asked} answered 204: nothing to print today; nothing printed`);
    return 0;
  }
  if (edition.status === 410) {
    say(`print: ${meta.name}: ${asked} answered 410: the series has ended for this subscriber; nothing printed`);
    return 0;
  }
  if (edition.status !== 200)
    return fail(`${meta.name}: ${asked} answered ${edition.status}; the spec allows only 200, 204 and 410`);
  say(`print: ${meta.name}: ${asked} answered 200, ETag ${edition.etag ?? "(none)"}, ${edition.bytes} bytes`);

  const chromium = use.browser ? { browser: use.browser } : await startChromium();
  if ("problem" in chromium) return fail(chromium.problem);
  const { browser } = chromium;
  const renderers = new Renderers(browser, values.timeout ? Number(values.timeout) * 1000 : undefined, use.memoryMiB);
  try {
    const header = { at: new Date(time.ms), from: meta.name, timeZone: zone };
    const printed = await printPage(renderers, printer, { html: edition.html!, origin: edition.url }, header, (line) =>
      say(`print: ${line}`),
    );
    const { job, report } = printed;
    if (!report.ok) {
      if (report.off) return fail(`${to.text}: ${report.error}; nothing printed (${report.tries} tries)`);
      if (report.unknown)
        return fail(
          `${to.text}: ${report.error}. Not sent again: the printer may have printed all of it ` +
            `(${report.tries} ${report.tries === 1 ? "try" : "tries"})`,
        );
      return fail(
        `${to.text}: ${report.error}; gave up after ${report.tries} tries. ` +
          "The printer may have printed part of the edition: see the lines above",
      );
    }
    const again =
      report.partial.length > 0
        ? `, whole, on try ${report.tries} (the printer may have printed part of an earlier try: see above)`
        : "";
    // What "sent" is known to mean: a network printer closed the connection once the whole job had left this
    // computer (what it read of it, TCP cannot tell: the system's buffers take a whole job); a device file took
    // every byte; CUPS queued it.
    const taken =
      to.kind === "tcp"
        ? "the whole job left this computer and the printer closed the connection " +
          "(whether it printed all of it is not known)"
        : to.kind === "device"
          ? "every byte written to the device"
          : "queued with CUPS";
    const seconds = (printed.sendMs / 1000).toFixed(1);
    say(`print: sent ${jobSummary(job, printer)} to ${to.text} in ${seconds} s: ${taken}${again}`);
    return 0;
  } catch (error) {
    if (error instanceof RenderError) return fail(`the edition ${error.message}; nothing printed`);
    throw error;
  } finally {
    await renderers.close();
    if (!use.browser) await browser.close();
  }
}

runTool("print", import.meta.url, main);
