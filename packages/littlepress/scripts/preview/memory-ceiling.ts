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
//   program, which every process shares), and one past the ceiling is killed,
//   so that a page that caught its RangeError does not print as if nothing
//   happened: its render fails with one line that says why.
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

/** Watches the renderer processes of `browser` while a render runs; see the top of this file. */
export class MemoryCeiling {
  private session: Promise<CDPSession | undefined> | undefined;
  /** Whether a renderer was killed for its memory since watch() began. */
  tripped = false;
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
    this.tripped = false;
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
      this.seen.add(pid);
      const dataKiB = await statusKiB(pid, ["VmData"]);
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

  private async killOverCeiling(): Promise<void> {
    for (const pid of await this.rendererPids()) {
      const kib = await statusKiB(pid, ["RssAnon", "RssShmem"]);
      if (kib === undefined || kib / 1024 <= this.ceilingMiB) continue;
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

/** The sum of `fields` of /proc/<pid>/status (each in kB), or undefined without /proc. */
export async function statusKiB(pid: number, fields: string[]): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  if (!status) return undefined;
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return fields.reduce((sum, field) => sum + kib(field), 0);
}
