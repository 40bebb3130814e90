// npm run deliver: one delivery run by hand, on the local subscriptions
// (.littlepress/state, made through the subscribe pages under `npm start`),
// against the built site served for the run. --dry-run says what would be
// sent and to whom, and sends and writes nothing. Print keys are never shown:
// a subscription is named by its id and its printer's name.
import path from "node:path";
import { printKeyOriginsOf } from "../lib/platform/printers/print-key-origins.ts";
import { endNoticesOf } from "../lib/platform/delivering/end-notices.ts";
import { siteIndexOf } from "../lib/edge/site-index.ts";
import { runDeliveries, type DeliveryReport } from "../lib/platform/delivering/run.ts";
import { runPushes } from "../lib/platform/pushing/push-run.ts";
import { pushReportText } from "./push.ts";
import { LOCAL_STATE, SEAL_KEY_VARIABLE, stateForTool } from "../lib/platform/stores/state-setup.ts";
import { printerName, shownText } from "../lib/model/printer-name.ts";
import { plural } from "../lib/model/words.ts";
import { answerUsage, parseToolArgs, processOutput, runTool, type Output } from "./cli.ts";

export const USAGE = `Usage: npm run deliver -- [--dry-run] [--at <time>] [options]

Runs the deliveries due now, as the scheduled function does on Netlify every
15 minutes: for each subscription due, asks the publication's edition/ as the
platform did and POSTs what is to print to the printer's print key. The
subscriptions are the local ones (made on the subscribe pages of npm start);
the publications are served from the built site for the run. Like the
background function behind the scheduled one, a run starts no delivery it could
not finish within 14 minutes; what it leaves is taken by the next run (the
report says how many).
Then it prints the site's push editions to the subscribers who have not had
them yet (npm run push -- --help).

Options:
  --dry-run          say what would be sent and to whom; send and write nothing
  --at <time>        run as if it were this instant (ISO 8601 with Z or an
                     offset, like 2026-11-23T06:00:00Z); default: now
  --site <dir>       the built site (default _site/)
  --state <dir>      the subscriptions' folder (default ${LOCAL_STATE}/)
  --key-file <file>  the file that keeps their sealing key (default: the one
                     made for the state folder in ~/.config/littlepress/keys/,
                     or $XDG_CONFIG_HOME/littlepress/keys/ when that is set)
  --origin <url>     ask the publications at this address instead of serving --site
                     (print keys are still sent only to --site's print_key_origins)
  -h, --help         show this text

Print keys are sealed with $${SEAL_KEY_VARIABLE} when it is set (base64 of 32
random bytes: openssl rand -base64 32), else with the local key, made on first
use and kept outside the state folder (--key-file).

Example:
  npm run deliver -- --dry-run --at 2026-11-23T06:00:00+01:00`;

const OPTIONS = {
  "dry-run": { type: "boolean" },
  at: { type: "string" },
  site: { type: "string" },
  state: { type: "string" },
  "key-file": { type: "string" },
  origin: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function main(argv: string[], out: Output = processOutput, env = process.env): Promise<number> {
  const parsed = parseToolArgs(argv, OPTIONS, false);
  const answered = answerUsage("deliver", parsed, USAGE, out);
  if (answered !== undefined || "error" in parsed) return answered ?? 2;
  const { values } = parsed;
  const at = values.at === undefined ? new Date() : parseInstant(values.at);
  if (!at) {
    out.stderr(
      `deliver: --at takes an ISO 8601 time with Z or an offset, like 2026-11-23T06:00:00Z, ` +
        `not "${values.at}"; see --help\n`,
    );
    return 2;
  }
  const state = stateForTool(values, env);
  if ("error" in state) {
    out.stderr(`deliver: ${state.error}\n`);
    return 2;
  }
  const site = values.site ?? "_site";
  // The server loads only when the run needs one (no --origin): --help and a bad argument answer at once.
  const server = values.origin
    ? undefined
    : await (await import("../lib/server/server.ts")).startServer({ port: 0, siteDir: site });
  try {
    const origin = values.origin ?? server!.url;
    const printKeys = { allowed: printKeyOriginsOf(path.resolve(site)) };
    // The end slip's subscribe link: the publications' address for people, not the run's own server.
    const publicOrigin = values.origin ?? siteIndexOf(path.resolve(site)).url ?? origin;
    const endNotice = endNoticesOf(path.resolve(site));
    const dryRun = values["dry-run"] === true;
    const report = await runDeliveries({ ...state, origin, publicOrigin, endNotice, printKeys, at, dryRun });
    out.stdout(reportText(report, dryRun));
    // Then the site's push editions, as the scheduled function does after its deliveries.
    const pushes = await runPushes({ ...state, site: path.resolve(site), printKeys, at, dryRun });
    if (pushes.lines.length || pushes.left) out.stdout(pushReportText(pushes, dryRun));
    return [...report.lines, ...report.notices, ...pushes.lines].some((l) => l.outcome === "error") ? 1 : 0;
  } finally {
    await server?.close();
  }
}

/** An instant written with its zone: a bare local time would be read in this machine's zone, silently. */
function parseInstant(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

export function reportText(report: DeliveryReport, dryRun: boolean): string {
  const done = report.due - report.lines.length - report.left;
  const head =
    `deliver: ${dryRun ? "dry run " : ""}at ${report.at}: ` +
    `${plural(report.subscriptions, "subscription")}, ${report.due} due` +
    (done > 0 ? `, ${done} of them delivered already today (or held by another run)` : "") +
    (report.left ? `, ${report.left} of them left for the next run (this run's time was up)` : "") +
    (report.paused.length ? `, ${report.paused.length} paused (their print keys kept failing)` : "") +
    (report.unchecked
      ? `; ${plural(report.unchecked, "subscription")} not read (this run's time was up), left for the next run`
      : "") +
    (report.pruned ? `; ${plural(report.pruned, "old entry", "old entries")} pruned` : "") +
    (report.unknown
      ? `; ${plural(report.unknown, "page")} sent with no answer ` +
        "(unknown: they may have printed, and are not sent again)"
      : "") +
    "\n";
  const lines = [...report.lines, ...report.paused].map(
    (l) =>
      `  ${l.slug || "/"}  ${l.subscription} (${printerName(l.printer)})  ${l.date} ` +
      `delivery_count ${l.deliveryCount}: ` +
      `${dryRun && l.outcome !== "paused" ? shownText(l.detail) : `${l.outcome} (${shownText(l.detail)})`}` +
      `${l.etag ? `, ETag ${shownText(l.etag)}` : ""}\n`,
  );
  const notices = report.notices.map(
    (l) =>
      `  ${l.slug || "/"}  ${l.subscription} (${printerName(l.printer)})  ` +
      `end slip: ${l.outcome} (${shownText(l.detail)})\n`,
  );
  const tail = dryRun ? "Dry run: nothing was sent or written.\n" : "";
  return head + lines.join("") + notices.join("") + tail;
}

runTool("deliver", import.meta.url, (argv) => main(argv));
