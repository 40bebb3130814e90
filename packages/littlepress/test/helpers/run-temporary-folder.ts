// Global setup: a temporary folder of the run's own, named by TMPDIR (and the
// XDG folders in it) to the test workers and to every process they start, and
// removed when the run is over, so that a run leaves nothing in the temporary
// folder or the user's home. Vitest stops its workers with SIGTERM, which runs
// no 'exit' handler and closes no browser: Playwright's folders for each
// worker's Chromium (its profile, its artifacts) were left in /tmp, two a
// worker a run. They are in this folder now, with whatever else a program the
// tests start keeps in its temporary folder; and the run's processes that are
// still running when it ends are ended before the folder is removed (a
// Chromium shutting down wrote its profile into the folder again). The tests
// still remove what they make themselves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { endProcessesOf } from "./run-processes.ts";

export default function runTemporaryFolder(): () => Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), "littlepress-test-run-"));
  // Read by Node's os.tmpdir() (Playwright, netlify-cli, the tests' own mkdtemp) and by Chromium: not an option.
  process.env.TMPDIR = folder;
  // The user's XDG folders, else ~/.config and ~/.cache: Chromium keeps its crash reports and caches there,
  // and littlepress the sealing key of a state folder given no key file (state-setup.ts; the tests give one).
  process.env.XDG_CONFIG_HOME = path.join(folder, "config");
  process.env.XDG_CACHE_HOME = path.join(folder, "cache");
  const remove = () => rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  return async () => {
    // What the run started and left running is ended first (run-processes.ts): a worker's Chromium outlives
    // its worker for a while and wrote its profile into the folder again after it was removed.
    const killed = await endProcessesOf(folder);
    if (killed.length)
      console.warn(`littlepress tests: ended ${killed.length} processes the run left running: ${killed.join(", ")}`);
    remove();
  };
}
