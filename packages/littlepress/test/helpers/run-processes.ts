// The processes of one test run, found by its temporary folder (run-temporary-folder.ts): every process the
// tests start inherits the folder as its TMPDIR, and the ones started with an environment of their own name it
// on their command line (Chromium's profile, --user-data-dir=<folder>/playwright_chromiumdev_profile-…;
// PhantomJS's script). Vitest ends its workers with SIGTERM, and a worker's Chromium, told only by its pipe
// closing, shuts down in its own time, writing its profile (Local State, Default/…) as it goes: after the run's
// folder was removed, it made it again. So the run ends what is left of its own processes first, then removes
// the folder. Read from Linux's /proc; where there is none, nothing is found and the folder is removed as it is.
import { readdirSync, readFileSync } from "node:fs";

/** The processes (ids) that carry `folder` in their environment's TMPDIR or on their command line. */
export function processesOf(folder: string): number[] {
  let ids: string[];
  try {
    ids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    // No /proc (not Linux): no process can be told to be the run's.
    return [];
  }
  return ids.map(Number).filter((id) => id !== process.pid && carries(id, folder));
}

/** Whether a process names `folder`: as its TMPDIR, or on its command line. */
function carries(id: number, folder: string): boolean {
  const read = (file: string) => {
    try {
      return `\0${readFileSync(`/proc/${id}/${file}`, "latin1")}`;
    } catch {
      // Gone since the listing, or another user's: not one of the run's.
      return "";
    }
  };
  return read("environ").includes(`\0TMPDIR=${folder}\0`) || read("cmdline").includes(`${folder}/`);
}

/**
 * Ends the processes of `folder`'s run that are still running: SIGTERM, then SIGKILL for those still there
 * after `graceMs`; resolves once none is left (or after a bound), with the command names of those it killed.
 */
export async function endProcessesOf(folder: string, graceMs = 5_000): Promise<string[]> {
  const signal = (ids: number[], name: NodeJS.Signals) => {
    for (const id of ids) {
      try {
        process.kill(id, name);
      } catch {
        // Gone already: nothing to end.
      }
    }
  };
  signal(processesOf(folder), "SIGTERM");
  const left = await until(() => processesOf(folder), graceMs);
  if (!left.length) return [];
  const names = left.map((id) => commandName(id));
  signal(left, "SIGKILL");
  await until(() => processesOf(folder), 5_000);
  return names;
}

/** Polls `alive` every 100 ms until it is empty or `ms` have passed; resolves to what it last found. */
async function until(alive: () => number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = alive();
    if (!found.length || Date.now() > deadline) return found;
    await new Promise((settle) => setTimeout(settle, 100));
  }
}

function commandName(id: number): string {
  try {
    return `${readFileSync(`/proc/${id}/comm`, "utf8").trim()} (${id})`;
  } catch {
    // Gone meanwhile: its id says which it was.
    return String(id);
  }
}
