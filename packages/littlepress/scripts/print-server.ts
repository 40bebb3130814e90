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
import { answerUsage, EXIT, parseToolArgs, processOutput, runTool, stopOnSignals, type Output } from "./cli.ts";
import { Renderers } from "./print/escpos-print.ts";
import { readPrintersConfig, runHomePrinters } from "./print/home-printers.ts";
import { firstLine } from "./preview/errors.ts";
import { HOME_USAGE, mainHome, type HomeValues } from "./print-server-home.ts";

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
  -h, --help          show this text

Example:
  littlepress print-server --config printers.json --once`;

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

/** The printers' file, as read (scripts/print/home-printers.ts). */
type PrintersConfig = Exclude<ReturnType<typeof readPrintersConfig>, { problems: string[] }>;

/** What the arguments ask for, once they are known good. */
interface ServerArgs {
  config: string;
  interval: number;
  once: boolean;
  at: Date | undefined;
}

export async function main(argv: string[], out: Output = processOutput): Promise<number> {
  const args = serverArgs(argv, out);
  if (typeof args === "number") return args;
  if ("home" in args) return mainHome(args.home, out, args.usage); // no --config: the household's server
  const config = await readConfig(args.config, out);
  if (typeof config === "number") return config;
  const chromium = await startChromium();
  if ("problem" in chromium) {
    out.stderr(`print-server: ${chromium.problem}\n`);
    return EXIT.failed;
  }
  const { browser } = chromium;
  const renderers = new Renderers(browser);
  const store = fileStore(path.resolve(path.dirname(args.config), config.state ?? "print-state"));
  const run = async (now: Date) => {
    const statuses = await runHomePrinters(config.printers, { store, renderers, at: now });
    // A status line carries what the publication chose (its name, its ETag): one line, cleaned.
    for (const s of statuses) out.stdout(`${now.toISOString()} ${shownLine(s.line)}\n`);
  };
  const close = async () => {
    await renderers.close();
    await browser.close();
  };
  if (args.once) {
    try {
      await run(args.at ?? new Date());
      return EXIT.done;
    } finally {
      await close();
    }
  }
  out.stdout(`print-server: ${config.printers.length} printers, a run every ${args.interval} s; Ctrl+C stops\n`);
  runEvery(args.interval, run, close, out);
  return EXIT.done;
}

/** The arguments, or the exit code of --help or of a mistake in them (said). */
function serverArgs(
  argv: string[],
  out: Output,
): ServerArgs | { home: HomeValues; usage: (problem: string) => number } | number {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("print-server", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? EXIT.usage;
  const { values } = parsed;
  const usage = (problem: string) => answerUsage("print-server", { error: problem }, USAGE, out) ?? EXIT.usage;
  if (!values.config) return { home: values, usage };
  const interval = Number(values.interval ?? 60);
  if (!(interval >= 1 && interval <= 3600)) return usage("--interval is seconds from 1 to 3600");
  const at = values.at === undefined ? undefined : new Date(values.at);
  if (at && Number.isNaN(at.getTime())) return usage(`--at: "${values.at}" is not a time (ISO 8601)`);
  if (at && !values.once) return usage("--at goes with --once");
  return { config: values.config, interval, once: values.once ?? false, at };
}

/** The printers' file, or exit 1 with what is wrong with it (said). */
async function readConfig(file: string, out: Output): Promise<PrintersConfig | number> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    // No such file, or not JSON, is the person's to fix (exit 1); a file that is there and cannot be read
    // (a folder, no permission) is what the command did not expect: runTool says it, exit 3.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && code !== "ENOENT") throw error;
    out.stderr(`print-server: ${file}: ${code === "ENOENT" ? "no such file" : firstLine(error)}\n`);
    return EXIT.failed;
  }
  const config = readPrintersConfig(raw);
  if (!("problems" in config)) return config;
  for (const problem of config.problems) out.stderr(`print-server: ${file}: ${problem}\n`);
  return EXIT.failed;
}

/** Runs `run` now and `interval` seconds after each run ends, until Ctrl+C or SIGTERM (after the run in flight). */
function runEvery(interval: number, run: (now: Date) => Promise<void>, close: () => Promise<void>, out: Output) {
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
}

runTool("print-server", import.meta.url, main);
