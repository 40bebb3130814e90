// Sending an ESC/POS job to a receipt printer: over TCP to its raw port
// (9100), written to a device file (/dev/usb/lp0), or handed to CUPS as a raw
// job (`lp -d <queue> -o raw`, spawned with no shell). A job that fails is sent
// again whole, at most `retries` more times; when the first try had reached the
// printer, the retry starts with a band's worth of NUL bytes (escpos-raster.ts's
// resendPrefix), so a printer left waiting inside a band finishes it blank
// instead of reading the new job as dots.
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { connect } from "node:net";
import { bandsWithin, resendPrefix, type EscPosJob } from "../../model/escpos-raster.ts";
import { quotedUrl } from "../../model/shown-url.ts";

export type Destination =
  | { kind: "tcp"; host: string; port: number; text: string }
  | { kind: "device"; path: string; text: string }
  | { kind: "cups"; queue: string; text: string };

/** `tcp://host:9100`, `cups:<queue>`, or a device file's path; or what is wrong with the text. */
export function parseDestination(text: string): Destination | { problem: string } {
  if (text.startsWith("tcp:")) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { problem: `${quotedUrl(text)} is not a tcp://host:port address` };
    }
    const port = url.port === "" ? 9100 : Number(url.port);
    if (!url.hostname || url.pathname.replace(/^\/$/, "") !== "" || url.search || url.username)
      return { problem: `${quotedUrl(text)} is not a tcp://host:port address` };
    return { kind: "tcp", host: url.hostname.replace(/^\[|\]$/g, ""), port, text };
  }
  if (text.startsWith("cups:")) {
    const queue = text.slice("cups:".length);
    // CUPS queue names: printable characters other than space, "/", "\\", "#", quotes and ",".
    if (!/^[A-Za-z0-9_.@+-]+$/.test(queue)) return { problem: `"${queue}" is not a CUPS queue name` };
    return { kind: "cups", queue, text };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text))
    return { problem: `"${text}" is not a destination: use tcp://host:9100, cups:<queue> or a device file's path` };
  if (!text) return { problem: "the destination is empty" };
  return { kind: "device", path: text, text };
}

/**
 * One try's outcome. `sent`: over TCP, the printer read the whole job and closed its side; to a device file, every
 * byte was written; to CUPS, lp took the job. `reached`: some bytes went out to the printer before the failure (it
 * may have printed some); `bytesOut`: how many left this computer, at most (the printer may have read fewer).
 */
export type SendOutcome =
  | { sent: true }
  | {
      error: string;
      reached: boolean;
      bytesOut: number;
      /** Connected, and the printer neither took the job nor refused it (no close, no reset): it may be printing. */
      unanswered?: true;
    };

export interface SendOptions {
  /** Connect, write and the printer's close, in all (default: jobTimeoutMs of the job's size). */
  timeoutMs?: number;
}

/** The least time a job is given: to connect, and for the printer to start. */
export const SEND_TIMEOUT_MS = 5_000;
/**
 * A conservative printer's speed, in bytes a second: 8 KiB is about 170 rows of 384 dots (21 mm a second), or 115
 * of 576 (14 mm); receipt printers print 50 to 250 mm a second, and read ahead of what they print.
 */
export const PRINTER_BYTES_PER_SECOND = 8 * 1024;

/** How long a job of `size` bytes may take, from the connection to the printer's close: 5 s + size at 8 KiB/s. */
export function jobTimeoutMs(size: number): number {
  return SEND_TIMEOUT_MS + Math.ceil((size * 1000) / PRINTER_BYTES_PER_SECOND);
}

/** Sends `bytes` once to `dest`; never throws. */
export function sendOnce(dest: Destination, bytes: Uint8Array, options: SendOptions = {}): Promise<SendOutcome> {
  const timeoutMs = options.timeoutMs ?? jobTimeoutMs(bytes.length);
  if (dest.kind === "tcp") return sendTcp(dest, bytes, timeoutMs);
  if (dest.kind === "device") return writeDevice(dest.path, bytes);
  return sendCups(dest.queue, bytes, timeoutMs);
}

/**
 * Over TCP, a write that returns, or end() that finishes, only means the operating system took the bytes (its
 * buffers hold megabytes). So the job is written and the connection half-closed (end()), and the job counts as
 * taken only when the printer, having read to that end, closes its side cleanly within the time limit. A printer
 * that stops reading, never reads, or closes or resets before the end is a failure, with what left this computer.
 */
function sendTcp(dest: { host: string; port: number }, bytes: Uint8Array, timeoutMs: number): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let connected = false;
    let finished = false;
    let done = false;
    const socket = connect({ host: dest.host, port: dest.port });
    const settle = (outcome: SendOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const fail = (error: string, unanswered = false) =>
      settle({
        error,
        reached: connected,
        bytesOut: Math.min(socket.bytesWritten, bytes.length),
        ...(unanswered && { unanswered }),
      });
    const seconds = `${Math.round(timeoutMs / 100) / 10} s`;
    const timer = setTimeout(
      () =>
        !connected
          ? fail(`no answer in ${seconds}`)
          : fail(
              `the printer did not take the whole job in ${seconds} ` +
                "(it stopped reading, or kept the connection open: out of paper, cover open, or busy)",
              true,
            ),
      timeoutMs,
    );
    // Whatever the printer sends back is read (and ignored), so that its close and its reset are seen.
    socket.resume();
    socket.once("connect", () => {
      connected = true;
      socket.end(bytes, () => {
        finished = true;
      });
    });
    socket.once("end", () => {
      // The printer closed its side. Before our end was written: it did not take the job.
      if (!finished || socket.bytesWritten < bytes.length)
        return fail("the printer closed the connection before it took the whole job");
      settle({ sent: true });
    });
    socket.once("close", (hadError) => {
      if (!hadError) fail("the connection closed before the printer took the whole job");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? "";
      if (!connected && code === "ECONNREFUSED") return fail("nothing is listening there (is the printer on?)");
      if (!connected) return fail(`could not connect (${code || error.message})`);
      fail(`the connection dropped mid-job (${code || error.message})`);
    });
  });
}

async function writeDevice(path: string, bytes: Uint8Array): Promise<SendOutcome> {
  let written = 0;
  try {
    const file = await open(path, "w");
    try {
      while (written < bytes.length) written += (await file.write(bytes, written)).bytesWritten;
    } finally {
      await file.close();
    }
    return { sent: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why =
      code === "ENOENT"
        ? "no such device or folder"
        : code === "EACCES"
          ? "permission denied (the printer's device file needs its group, often lp)"
          : code || String(error);
    return { error: `could not write to ${path}: ${why}`, reached: written > 0, bytesOut: written };
  }
}

function sendCups(queue: string, bytes: Uint8Array, timeoutMs: number): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const child = spawn("lp", ["-d", queue, "-o", "raw"], { stdio: ["pipe", "ignore", "pipe"], timeout: timeoutMs });
    let stderr = "";
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(0, 2000);
    });
    child.once("error", (error: NodeJS.ErrnoException) =>
      settle({
        error:
          error.code === "ENOENT"
            ? "lp is not installed (CUPS's client: apt-get install cups-client)"
            : `lp did not run (${error.code ?? error.message})`,
        reached: false,
        bytesOut: 0,
      }),
    );
    child.stdin.once("error", () => undefined); // lp gone early: its exit says why
    child.once("close", (code, signal) => {
      if (code === 0) return settle({ sent: true });
      const line = stderr.trim().split("\n")[0] ?? "";
      const why = signal ? `was stopped (${signal})` : `failed (exit ${code})`;
      settle({ error: `lp -d ${queue} ${why}${line ? `: ${line}` : ""}`, reached: false, bytesOut: 0 });
    });
    child.stdin.end(bytes);
  });
}

export interface SendJobOptions extends SendOptions {
  /** Tries after the first (default 2). */
  retries?: number;
  /** The wait before each retry (default 2 s). */
  retryWaitMs?: number;
  /** One line per failed try, said as it happens. */
  log?: (line: string) => void;
}

export interface JobReport {
  ok: boolean;
  /** Tries made. */
  tries: number;
  /** The last try's error, when none succeeded. */
  error?: string;
  /** Tries that reached the printer and failed: it may have printed part of them (what is said of each). */
  partial: string[];
  /** Nothing ever connected: the printer is off, or not there. */
  off: boolean;
  /**
   * The last try's whole job left this computer and the printer never said it took it (it kept the connection
   * open, or closed it mid-way): it may have printed all of it, so the job is not sent again (print-job.ts's rule).
   */
  unknown?: boolean;
}

/**
 * What a failed try may have printed, in bands: no more than the bands whose every byte left this computer. The
 * printer may have read fewer (what it read is not known: the operating system's buffers took the rest), and it
 * prints only whole bands.
 */
export function tookAtMost(job: EscPosJob, bytesOut: number): string {
  const n = job.bandEnds.length;
  const bands = bandsWithin(job, bytesOut);
  if (bytesOut >= job.bytes.length)
    return (
      `the printer took at most all ${n} bands ` +
      "(the whole job left this computer; how much the printer read is not known)"
    );
  const left = `${bytesOut.toLocaleString("en")} of ${job.bytes.length.toLocaleString("en")} bytes`;
  return `the printer took at most ${bands} of ${n} bands (${left} left this computer)`;
}

/**
 * Sends `job` to `dest`, again whole after a failure that left part of it here, at most `retries` more times;
 * never after a try whose whole job left this computer (unknown: the printer may have printed it). Never throws.
 */
export async function sendJob(dest: Destination, job: EscPosJob, options: SendJobOptions = {}): Promise<JobReport> {
  const retries = options.retries ?? 2;
  const partial: string[] = [];
  let reachedBefore = false;
  let lastError = "";
  for (let tries = 1; tries <= retries + 1; tries++) {
    const bytes = reachedBefore ? concat(resendPrefix(job), job.bytes) : job.bytes;
    const prefix = bytes.length - job.bytes.length;
    const last = await sendOnce(dest, bytes, options);
    if ("sent" in last) return { ok: true, tries, partial, off: false };
    lastError = last.error;
    if (last.reached) {
      reachedBefore = true;
      const ofJob = Math.max(0, Math.min(last.bytesOut - prefix, job.bytes.length));
      lastError = `${last.error}: ${tookAtMost(job, ofJob)}`;
      partial.push(`try ${tries}: ${lastError}`);
      options.log?.(`try ${tries}: ${lastError}`);
      // Nothing says the printer stopped short of the end (it neither closed nor reset): it may have printed it all.
      if (last.unanswered && ofJob >= job.bytes.length)
        return { ok: false, tries, error: lastError, partial, off: false, unknown: true };
    } else options.log?.(`try ${tries}: ${last.error}`);
    if (tries <= retries) await new Promise((r) => setTimeout(r, options.retryWaitMs ?? 2000));
  }
  return { ok: false, tries: retries + 1, error: lastError, partial, off: partial.length === 0 };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
