// A page is someone else's, and its script may allocate without end: one that
// kept 60 arrays of 64 MiB made a renderer hold 4 GiB, on the machine that
// runs print-server all day. Time and requests are bounded by the renderer
// (render.ts); memory is bounded here, three ways:
// - The kernel's: a renderer's private writable memory (RLIMIT_DATA, set with
//   util-linux's prlimit when its page opens) may grow by the ceiling and no
//   more, so a typed array past it fails to allocate (RangeError) and V8's heap
//   past it ends the renderer. This holds however busy the machine is.
// - Ours: while a render runs, the renderers' memory is read from /proc every
//   POLL_MS (what they hold themselves, RssAnon and RssShmem, not Chromium's
//   program, which every process shares), and one past the ceiling that the
//   kernel does not bound is killed. One that it bounds is not: Chromium's
//   browser process crashed (SIGSEGV, every page with it) once in 5 to 37
//   times when such a renderer, at its limit, was killed, by SIGKILL or
//   SIGTERM; never in 50 renders when the renderers had no limit, nor in 30
//   when none was killed. Instead each render measures its own page at its end
//   (pageOver), so that a page that caught its RangeError does not print as if
//   nothing happened: its render fails with one line that says why, and its
//   page is closed, which Chromium ends in its own way. And V8, its heap at
//   the kernel's limit, may collect garbage for longer than the page's time
//   before it ends the renderer (10 s here with the CPU busy, over 20 s in CI):
//   a render that timed out while a limited renderer held more than the
//   ceiling, and whose page no longer answers, fails for its memory too; as
//   does one whose page, answering, holds more than the ceiling itself.
// - V8's: Chromium is started with --max-old-space-size (CHROMIUM_ARGS), for
//   where there is no prlimit or no /proc (not Linux).
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Browser, CDPSession } from "playwright-core";

/**
 * The most memory one page's renderer may hold, in MiB: an edition needs 100 to 300 (a page 2,000,000 px long, ~600).
 */
export const PAGE_MEMORY_MIB = 1024;
/**
 * How often the renderers' memory is read while a page renders (the kernel's limit holds between; check() ends a
 * render).
 */
const POLL_MS = 100;
/**
 * Room above the ceiling for the kernel's limit, so that a page at its limit holds more than the ceiling and is
 * stopped.
 */
const SLACK_MIB = 64;

/**
 * A renderer's private writable memory once it has started: measured, 15 to 75 MiB while it starts, then 590 to
 * 670 MiB, before any page's own (Chromium 156). One below it is still starting.
 */
const STARTED_MIB = 256;

/** Watches the renderer processes of `browser` while a render runs; see the top of this file. */
export class MemoryCeiling {
  private session: Promise<CDPSession | undefined> | undefined;
  /** Whether a renderer was killed for its memory since watch() began. */
  tripped = false;
  /** Whether a renderer the kernel bounds held more than the ceiling since watch() began (it is not killed). */
  reached = false;
  /** The renderers looked at, and those given the kernel's limit; false once there is no prlimit or no /proc. */
  private readonly seen = new Set<number>();
  private readonly limited = new Set<number>();
  private canLimit = true;

  constructor(
    private readonly browser: Browser,
    readonly ceilingMiB = PAGE_MEMORY_MIB,
  ) {}

  /** Starts watching, for one render; the function it returns stops. */
  watch(): () => void {
    this.tripped = this.reached = false;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      await this.killOverCeiling().catch(() => undefined);
      if (!stopped) timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /**
   * Gives every renderer not yet limited the kernel's limit: its private
   * writable memory now, plus the ceiling (called once a page opens, before it
   * loads). Every renderer of the browser, not the page's alone: Chromium does
   * not say which process a page is in, and it keeps a spare renderer for the
   * next page. So one browser's renderers share one ceiling, as the tools' do.
   */
  async limitNew(): Promise<void> {
    if (!this.canLimit) return;
    const pids = await this.rendererPids().catch((): number[] => []);
    for (const set of [this.seen, this.limited]) for (const gone of set) if (!pids.includes(gone)) set.delete(gone);
    for (const pid of pids.filter((p) => !this.seen.has(p))) {
      const dataKiB = await statusKiB(pid, ["VmData"]);
      // A renderer still starting is left for the next look (the watch bounds it meanwhile): limited at what it
      // holds then, it could not finish starting, and the page opening in it crashed.
      if (dataKiB !== undefined && dataKiB / 1024 < STARTED_MIB) continue;
      this.seen.add(pid);
      // No /proc (not Linux), or no prlimit (no util-linux): V8's cap and the watch remain. A renderer
      // that ended in between is no reason to stop limiting the others.
      if (dataKiB === undefined) continue;
      const bytes = dataKiB * 1024 + (this.ceilingMiB + SLACK_MIB) * 2 ** 20;
      await promisify(execFile)("prlimit", ["--pid", String(pid), `--data=${bytes}`]).then(
        () => this.limited.add(pid),
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") this.canLimit = false;
        },
      );
    }
  }

  /** Whether the kernel's limit is on a renderer: one that ends under it reached the ceiling. */
  get limiting(): boolean {
    return this.limited.size > 0;
  }

  async close(): Promise<void> {
    const session = await this.session;
    await session?.detach().catch(() => undefined);
  }

  /**
   * Looks once more, after a render: a page that caught the RangeError of an
   * allocation past the kernel's limit, and finished, still holds what it had.
   */
  async check(): Promise<boolean> {
    await this.killOverCeiling().catch(() => undefined);
    return this.tripped;
  }

  /**
   * Whether the page's own renderer holds more than the ceiling: its JavaScript heap, its DOM's and its array
   * buffers', as its isolate counts them (a page's renderer is its context's alone). Asked once its render is
   * done, when the page answers at once.
   */
  async pageOver(page: CDPSession): Promise<boolean> {
    const usage = (await page.send("Runtime.getHeapUsage")) as {
      usedSize: number;
      embedderHeapUsedSize?: number;
      backingStorageSize?: number;
    };
    const bytes = usage.usedSize + (usage.embedderHeapUsedSize ?? 0) + (usage.backingStorageSize ?? 0);
    return bytes / 2 ** 20 > this.ceilingMiB;
  }

  private async killOverCeiling(): Promise<void> {
    for (const pid of await this.rendererPids()) {
      const kib = await statusKiB(pid, ["RssAnon", "RssShmem"]);
      if (kib === undefined || kib / 1024 <= this.ceilingMiB) continue;
      if (await kernelLimited(pid)) {
        this.reached = true;
        continue;
      }
      this.tripped = true;
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
  }

  /**
   * The process ids of the browser's renderers, from Chromium itself (the browser's own process is not a child we
   * know).
   */
  private async rendererPids(): Promise<number[]> {
    this.session ??= this.browser.newBrowserCDPSession().catch(() => undefined);
    const session = await this.session;
    if (!session) return [];
    const { processInfo } = (await session.send("SystemInfo.getProcessInfo")) as {
      processInfo: { type: string; id: number }[];
    };
    return processInfo.filter((p) => p.type === "renderer").map((p) => p.id);
  }
}

/** Whether the kernel bounds a process's data (RLIMIT_DATA, as limitNew sets it, by any ceiling of the browser). */
async function kernelLimited(pid: number): Promise<boolean> {
  const limits = await readFile(`/proc/${pid}/limits`, "utf8").catch(() => "");
  return /^Max data size\s+\d+/m.test(limits);
}

/** The sum of `fields` of /proc/<pid>/status (each in kB), or undefined without /proc. */
export async function statusKiB(pid: number, fields: string[]): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  if (!status) return undefined;
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return fields.reduce((sum, field) => sum + kib(field), 0);
}
