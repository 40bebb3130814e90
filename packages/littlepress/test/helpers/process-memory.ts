// What this process's children (Chromium's processes) hold, as ps tells it:
// the tests' own measure of a page's memory, apart from the kit's. It waits
// for ps without blocking: a test that samples it often would otherwise hold
// up the event loop, and with it the kit's own watch of memory.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** Resident memory of this process's children, and theirs, in MiB. */
export async function childrenRssMiB(): Promise<number> {
  return (await descendantsRssMiB()).reduce((sum, mib) => sum + mib, 0);
}

/** Resident memory of the largest of them (a page's renderer, when a page holds much), in MiB. */
export async function largestChildRssMiB(): Promise<number> {
  return Math.max(0, ...(await descendantsRssMiB()));
}

/**
 * Samples `measure` every `everyMs` until stopped, one sample at a time (on a starved machine, ps started on a
 * timer would pile up and starve it more); `stop` waits for the last sample and gives the largest seen.
 */
export function watchPeak(measure: () => Promise<number>, everyMs: number): { stop: () => Promise<number> } {
  let peak = 0;
  const watch = { sampling: true };
  const samples = (async () => {
    while (watch.sampling) {
      peak = Math.max(peak, await measure().catch(() => 0));
      await new Promise((next) => setTimeout(next, everyMs));
    }
  })();
  return {
    stop: async () => {
      watch.sampling = false;
      await samples;
      return peak;
    },
  };
}

async function descendantsRssMiB(): Promise<number[]> {
  const { stdout: table } = await promisify(execFile)("ps", ["-eo", "pid=,ppid=,rss="], { encoding: "utf8" });
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const line of table.trim().split("\n")) {
    const [pid, ppid, kb] = line.trim().split(/\s+/).map(Number) as [number, number, number];
    parent.set(pid, ppid);
    rss.set(pid, kb);
  }
  const mine: number[] = [];
  for (const [pid, kb] of rss) {
    let p: number | undefined = parent.get(pid);
    for (let hops = 0; p && p !== process.pid && hops < 20; hops++) p = parent.get(p);
    if (p === process.pid) mine.push(kb / 1024);
  }
  return mine;
}
