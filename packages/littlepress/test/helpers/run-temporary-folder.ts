// Global setup: a temporary folder of the run's own, named by TMPDIR to the
// test workers and to every process they start, and removed when the run is
// over. Vitest stops its workers with SIGTERM, which runs no 'exit' handler and
// closes no browser: Playwright's folders for each worker's Chromium (its
// profile, its artifacts) were left in /tmp, two a worker a run. They are
// there now, with whatever else a program the tests start keeps in its
// temporary folder. The tests still remove what they make themselves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function runTemporaryFolder(): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), "littlepress-test-run-"));
  // Read by Node's os.tmpdir() (Playwright, netlify-cli, the tests' own mkdtemp) and by Chromium: not an option.
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
}
