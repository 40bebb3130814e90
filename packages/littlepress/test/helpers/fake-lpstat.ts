// A stand-in for CUPS's lpstat, for a machine where cupsd does not run (a
// container, CI): a shell script that answers `lpstat -l -p <queue>` with what
// the test wrote for that queue, in the shape CUPS's own lpstat prints
// (OpenPrinting's commands/lpstat.c, show_printers: "printer <queue> is idle.
// enabled since <date>", or "now printing <queue>-<job>.", or "disabled since
// <date> -"; then the printer's message, tab-indented; then, with -l,
// "\tDescription: ..." and "\tAlerts: <printer-state-reasons>"); and a queue
// it does not know as lpstat does, on stderr with exit status 1.
import { chmod, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const SCRIPT = `#!/bin/sh
[ "$1" = "-l" ] && [ "$2" = "-p" ] || { echo "lpstat: unexpected arguments: $*" >&2; exit 2; }
queue="$(dirname "$0")/queues/$3"
[ -f "$queue" ] || { echo "lpstat: Invalid destination name in list \\"$3\\"." >&2; exit 1; }
cat "$queue"
`;

export interface QueueState {
  state: "idle" | "printing" | "stopped";
  /** printer-state-reasons, e.g. ["media-empty-error"] (default ["none"]). */
  reasons?: string[];
  /** printer-state-message. */
  message?: string;
}

export interface FakeLpstat {
  /** The program to run in lpstat's place. */
  command: string;
  /** What lpstat says of `queue` from now on. */
  setQueue(queue: string, state: QueueState): Promise<void>;
  close(): Promise<void>;
}

const SINCE = "Sun 29 Nov 2026 07:00:00 AM UTC";

/** lpstat -l -p's lines for one queue. */
export function lpstatLines(queue: string, q: QueueState): string {
  const first =
    q.state === "idle"
      ? `printer ${queue} is idle.  enabled since ${SINCE}`
      : q.state === "printing"
        ? `printer ${queue} now printing ${queue}-12.  enabled since ${SINCE}`
        : `printer ${queue} disabled since ${SINCE} -`;
  const message = q.message ? `\t${q.message}` : q.state === "stopped" ? "\treason unknown" : undefined;
  const alerts = `\tAlerts: ${(q.reasons ?? ["none"]).join(" ")}`;
  return [first, message, `\tDescription: ${queue}`, alerts].filter((l) => l !== undefined).join("\n") + "\n";
}

export async function startFakeLpstat(): Promise<FakeLpstat> {
  const dir = await mkdtemp(path.join(tmpdir(), "littlepress-lpstat-"));
  await mkdir(path.join(dir, "queues"));
  const command = path.join(dir, "lpstat");
  await writeFile(command, SCRIPT);
  await chmod(command, 0o755);
  return {
    command,
    setQueue: (queue, state) => writeFile(path.join(dir, "queues", queue), lpstatLines(queue, state)),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
