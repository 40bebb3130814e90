// Global setup: a temporary folder of the run's own, named by TMPDIR (and the
// XDG folders in it) to the test workers and to every process they start, and
// removed when the run is over, so that a run leaves nothing in the temporary
// folder or the user's home. Vitest stops its workers with SIGTERM, which runs
// no 'exit' handler and closes no browser: Playwright's folders for each
// worker's Chromium (its profile, its artifacts) were left in /tmp, two a
// worker a run. They are in this folder now, with whatever else a program the
// tests start keeps in its temporary folder. The tests still remove what they
// make themselves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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
    remove();
    // A worker's Chromium can outlive its worker for a moment (the SIGTERM reaches the worker, not its browser)
    // and write its profile folders again after the first removal: seen after a clean-clone CI run.
    await new Promise((settle) => setTimeout(settle, 3_000));
    remove();
  };
}
