// littlepress print-server: a home print server. For each ESC/POS printer in
// printers.json, subscribed to one publication, it plays the platform's side
// on schedule (the delivery is due at the printer's hour, once a day; the same
// ETag prints nothing; 204 nothing; 410 ends it, with the end slip printed; a
// printer that is off is tried again by a later run, backing off), with one
// Chromium for every printer and the state in a folder (delivery_count, the
// last ETag, the end). One status line per printer per run.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { shownLine, shownText } from "../lib/model/printer-name.ts";
import { fileStore } from "../lib/platform/stores/state-store.ts";
import { startChromium } from "./browser.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, stopOnSignals, type Output } from "./cli.ts";
import { Renderers } from "./print/escpos-print.ts";
import { readPrintersConfig, runHomePrinters } from "./print/home-printers.ts";
import { firstLine } from "./preview/errors.ts";
import { HOME_USAGE, mainHome } from "./print-server-home.ts";

export const USAGE = `Usage: littlepress print-server [--db print-server.db] [options]
       littlepress print-server --config printers.json [options]
${HOME_USAGE}

With --config (the earlier, page-less mode, kept for existing setups):

Prints publications on schedule on home ESC/POS receipt printers, as the
printer platform delivered them: each printer's edition at its hour, once a
day; the same ETag twice prints once; 204 prints nothing; 410 ends the
subscription and prints the end slip; a printer that is off is tried again
(after 15 minutes, then 30, 60, 120). One status line per printer per run.

printers.json:
  {
    "state": "print-state",
    "printers": [
      { "id": "kitchen", "name": "Kitchen", "to": "tcp://192.168.1.50:9100", "width": 576,
        "publication": "https://press.example/almanac/", "hour": 6, "zone": "Europe/London",
        "settings": { "lang": "en" } },
      { "id": "desk", "to": "/dev/usb/lp0", "cut": false, "publication": "http://192.168.1.2:8080/lighthouse/" }
    ]
  }
  to: tcp://host[:port], a device file, or cups:<queue>; width 384 (default) or 576;
  cut (default true); band_rows 24 to 255 (default 128); hour 0-23 (default 6);
  zone (default this machine's); state: a folder, beside the config (default print-state).

Options of --config:
  --config <file>     the printers
  --interval <s>      seconds between runs (default 60)
  --once              one run, then exit
  --at <time>         with --once: run as if it were this instant (ISO 8601)
  -h, --help          show this text`;

const OPTIONS = {
  config: { type: "string" },
  interval: { type: "string" },
  once: { type: "boolean" },
  at: { type: "string" },
  help: { type: "boolean", short: "h" },
  db: { type: "string" },
  port: { type: "string" },
  listen: { type: "string" },
  host: { type: "string", multiple: true },
  "allow-public": { type: "boolean" },
  import: { type: "string" },
} as const;

export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("print-server", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values } = parsed;
  const usage = (problem: string) => answerUsage("print-server", { error: problem }, USAGE, out) ?? 2;
  if (!values.config) return mainHome(values, out, usage);
  const interval = Number(values.interval ?? 60);
  if (!(interval >= 1 && interval <= 3600)) return usage("--interval is seconds from 1 to 3600");
  const at = values.at === undefined ? undefined : new Date(values.at);
  if (at && Number.isNaN(at.getTime())) return usage(`--at: "${values.at}" is not a time (ISO 8601)`);
  if (at && !values.once) return usage("--at goes with --once");
  const fail = (line: string) => {
    out.stderr(`print-server: ${line}\n`);
    return 1;
  };
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(values.config, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(`${values.config}: ${code === "ENOENT" ? "no such file" : firstLine(error)}`);
  }
  const config = readPrintersConfig(raw);
  if ("problems" in config) {
    for (const problem of config.problems) out.stderr(`print-server: ${values.config}: ${problem}\n`);
    return 1;
  }
  const chromium = await startChromium();
  if ("problem" in chromium) return fail(chromium.problem);
  const { browser } = chromium;
  const renderers = new Renderers(browser);
  const store = fileStore(path.resolve(path.dirname(values.config), config.state ?? "print-state"));
  const run = async (now: Date) => {
    const statuses = await runHomePrinters(config.printers, { store, renderers, at: now });
    // A status line carries what the publication chose (its name, its ETag): one line, cleaned.
    for (const s of statuses) out.stdout(`${now.toISOString()} ${shownLine(s.line)}\n`);
  };
  const close = async () => {
    await renderers.close();
    await browser.close();
  };
  if (values.once) {
    try {
      await run(at ?? new Date());
      return 0;
    } finally {
      await close();
    }
  }
  out.stdout(`print-server: ${config.printers.length} printers, a run every ${interval} s; Ctrl+C stops\n`);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  stopOnSignals(async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
    await close();
  });
  const loop = () => {
    running = run(new Date()).catch((error: unknown) =>
      out.stderr(`print-server: run failed: ${shownText(firstLine(error))}\n`),
    );
    void running.then(() => {
      if (!stopped) timer = setTimeout(loop, interval * 1000);
    });
  };
  loop();
  return new Promise<number>(() => undefined); // runs until a signal
}

runTool("print-server", import.meta.url, main);
