// A CUPS queue's state, as CUPS's own client tells it: `lpstat -l -p <queue>`
// (spawned with no shell, in the C locale so that its words are CUPS's
// English). Its first line says whether the queue is idle, printing, or
// stopped ("disabled since"); the next, tab-indented, its printer's message;
// the line "Alerts:" its printer-state-reasons, the keywords of RFC 8011
// section 5.4.12 with their -error, -warning or -report suffix. The reasons
// say what the printer said: paper out, cover open, offline. A stopped queue
// holds the job itself, so it is offline here until it is started again.
import { execFile } from "node:child_process";
import { noAnswer, type PrinterState } from "./printer-state.ts";

/** printer-state-reasons (less their suffix) and the state each means, first match first. */
const REASONS: [RegExp, PrinterState["state"], string][] = [
  [/^(cover-open|door-open|interlock-open)$/, "cover open", "the cover is open"],
  [/^(media-empty|media-needed)$/, "paper out", "out of paper"],
  [/^(offline|connecting-to-device|timed-out|shutdown)$/, "offline", "the printer is offline"],
  [/^(media-jam|marker-supply-empty)$/, "error", "the printer reports a fault"],
  [/^media-low$/, "paper near end", "paper near its end; it still prints"],
];

/** Asks CUPS (`lpstat`, or the program given) for `queue`'s state, waiting at most `timeoutMs`. */
export function cupsStatus(queue: string, timeoutMs: number, lpstat = "lpstat"): Promise<PrinterState> {
  return new Promise((resolve) => {
    const env = { ...process.env, LC_ALL: "C", LANG: "C" };
    execFile(lpstat, ["-l", "-p", queue], { env, timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (code === "ENOENT")
        return resolve({
          state: "not asked",
          detail: "lpstat is not installed (CUPS's client: apt-get install cups-client)",
        });
      if (error?.killed) return resolve(noAnswer(`lpstat gave no answer in ${timeoutMs} ms`));
      const said = String(stderr).trim().split("\n")[0];
      if (error) return resolve({ state: "error", detail: `CUPS: ${said || error.message}` });
      resolve(readLpstat(String(stdout), queue));
    });
  });
}

/** `lpstat -l -p <queue>`'s output, read as a state. */
export function readLpstat(output: string, queue: string): PrinterState {
  const lines = output.split("\n");
  const first = lines.find((l) => l.startsWith(`printer ${queue} `));
  if (!first) return { state: "error", detail: `lpstat said nothing of the queue ${queue}` };
  const message = lines[lines.indexOf(first) + 1]?.match(/^\t(?!Description:|Alerts:|Form mounted:)(.+)$/)?.[1];
  const alerts =
    lines
      .find((l) => l.startsWith("\tAlerts:"))
      ?.slice("\tAlerts:".length)
      .trim() ?? "";
  const reasons = alerts.split(/\s+/).map((r) => r.replace(/-(error|warning|report)$/, ""));
  const why = message ? `: ${message.trim()}` : "";
  for (const [pattern, state, detail] of REASONS)
    if (reasons.some((r) => pattern.test(r))) return { state, detail: `${detail} (CUPS: ${alerts})${why}` };
  if (/ disabled since /.test(first)) return { state: "offline", detail: `the CUPS queue is stopped${why}` };
  const doing = / now printing /.test(first) ? "printing" : "idle";
  return { state: "online", detail: `the CUPS queue is ${doing}${why}` };
}
