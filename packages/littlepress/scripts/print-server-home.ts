// `littlepress print-server` without --config: the household's print server
// (scripts/home/): the page, the store, a run every minute; printers.json
// imported with --import. One line per print on stdout; SIGTERM (systemd's
// stop) and Ctrl+C let the run in progress settle, then exit 0.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { shownLine } from "../lib/model/printer-name.ts";
import { stopOnSignals, ToolFailure, type Output } from "./cli.ts";
import { firstLine } from "./preview/errors.ts";

export const HOME_USAGE = `
Without --config, it is the household's print server: every printer you own
(ESC/POS over tcp://, a device file or CUPS, at 384 or 576 dots; Little
Printers by their sirius print key), any publication on the web, subscribed
from a page on the home network. The first run prints a setup code in this
log: open the page, set the household's passphrase with it.

  --db <file>          the store (default print-server.db in this folder)
  --port <n>           the page's port (default 8631)
  --listen <address>   the address to listen on (default 0.0.0.0: every interface; clients that are not
                       on the home network (private, loopback or link-local addresses) are refused)
  --host <name>        a name the page answers to besides addresses, localhost and *.local (repeatable)
  --allow-public       answer clients at public addresses too (behind your own proxy)
  --import <file>      add a printers.json's printers and publications to the store, then serve
  --interval <s>       seconds between runs (default 60)

As a systemd service (/etc/systemd/system/littlepress.service):

  [Unit]
  Description=littlepress print server
  After=network-online.target
  Wants=network-online.target

  [Service]
  User=littlepress
  WorkingDirectory=/var/lib/littlepress
  ExecStart=/usr/bin/npx littlepress print-server --db /var/lib/littlepress/print-server.db
  Restart=on-failure
  KillSignal=SIGTERM
  TimeoutStopSec=150

  [Install]
  WantedBy=multi-user.target

then: systemctl enable --now littlepress; journalctl -u littlepress -f`;

export interface HomeValues {
  db?: string;
  port?: string;
  listen?: string;
  host?: string[];
  "allow-public"?: boolean;
  import?: string;
  interval?: string;
}

/**
 * better-sqlite3 is an optional peer dependency: a native module that only the household's server
 * uses, so a site that only publishes never installs (or, offline, compiles) it.
 */
async function needSqlite(): Promise<void> {
  await import("better-sqlite3").catch(() => {
    throw new ToolFailure(
      "print-server keeps its state in SQLite, through the package better-sqlite3, which is not installed: " +
        'npm install better-sqlite3 (docs/print-server.md: "What you do")',
    );
  });
}

export async function mainHome(values: HomeValues, out: Output, usage: (problem: string) => number): Promise<number> {
  const port = Number(values.port ?? 8631);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return usage("--port is a port number, 0 to 65535");
  const interval = Number(values.interval ?? 60);
  if (!(interval >= 1 && interval <= 3600)) return usage("--interval is seconds from 1 to 3600");
  const file = path.resolve(values.db ?? "print-server.db");
  await needSqlite();
  if (values.import) {
    const problems = await importFile(file, values.import);
    for (const p of problems) out.stderr(`print-server: ${values.import}: ${p}\n`);
    if (problems.length) return 1;
  }
  const log = (line: string) => out.stdout(`${shownLine(line)}\n`);
  // The server, its store and its page load when it starts (--help answers at once).
  const { startHomeServer } = await import("./home/home-server.ts");
  const starting = startHomeServer({
    db: file,
    port,
    interval,
    log,
    allowPublic: values["allow-public"] ?? false,
    ...(values.listen ? { listen: values.listen } : {}),
    ...(values.host ? { hosts: values.host.map((h) => h.toLowerCase()) } : {}),
  });
  // Caught from the start: a SIGTERM while the server starts (systemd stopping it at once) still exits cleanly.
  stopOnSignals(async () => {
    log("print-server: stopping: the run in progress settles first");
    const started = await starting;
    if (!("problem" in started)) await started.close();
  });
  const server = await starting;
  if ("problem" in server) {
    out.stderr(`print-server: ${server.problem}\n`);
    return 1;
  }
  return new Promise<number>(() => undefined); // runs until a signal
}

async function importFile(dbFile: string, config: string): Promise<string[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(config, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return [code === "ENOENT" ? "no such file" : firstLine(error)];
  }
  const { openHomeDb } = await import("./home/home-db.ts");
  const { importPrintersJson } = await import("./home/home-server.ts");
  const db = openHomeDb(dbFile);
  try {
    return importPrintersJson(db, raw, new Date());
  } finally {
    db.close();
  }
}
