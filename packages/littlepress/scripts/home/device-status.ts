// DLE EOT through a printer's device file (/dev/usb/lp0): Linux's usblp driver
// reads what the printer sends back, so the status request is written and its
// three bytes read on the same file, as over tcp://. The file is opened
// non-blocking, so a read that has nothing yet returns at once (EAGAIN) and is
// tried again until the time limit: a blocking read of a printer that never
// answers would hold one of Node's few file threads for good. Whatever an
// earlier, late answer left unread is read away before asking.
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { DLE_EOT_QUERY, noAnswer, readStatusBytes, type PrinterState } from "./printer-state.ts";

/** How often a device that has not answered yet is read again. */
const POLL_MS = 20;

/** Asks the printer behind the device file `path` with DLE EOT, waiting at most `timeoutMs` for its answer. */
export async function deviceStatus(path: string, timeoutMs: number): Promise<PrinterState> {
  let file: FileHandle;
  try {
    file = await open(path, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    return notOpened(path, error as NodeJS.ErrnoException);
  }
  try {
    await readWaiting(file);
    await file.write(DLE_EOT_QUERY);
    const got = await readFor(file, 3, timeoutMs);
    if (got.length < 3) return noAnswer(`it answered ${got.length} of 3 status bytes in ${timeoutMs} ms`);
    return readStatusBytes(got[0]!, got[1]!, got[2]!);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EAGAIN") return noAnswer(`${path} took no status request (busy)`);
    return { state: "offline", detail: `${path} failed (${code ?? (error as Error).message})` };
  } finally {
    await file.close().catch(() => undefined);
  }
}

function notOpened(path: string, error: NodeJS.ErrnoException): PrinterState {
  if (error.code === "ENOENT" || error.code === "ENODEV" || error.code === "ENXIO")
    return { state: "offline", detail: `no ${path} (the printer is unplugged or off)` };
  if (error.code === "EACCES")
    return { state: "error", detail: `permission denied on ${path} (its group, often lp, may read and write it)` };
  if (error.code === "EBUSY") return noAnswer(`${path} is open in another program`);
  return { state: "error", detail: `${path} could not be opened (${error.code ?? error.message})` };
}

/** What the device holds now, read without waiting (an answer that came after an earlier request's time). */
async function readWaiting(file: FileHandle): Promise<void> {
  const buffer = Buffer.alloc(256);
  for (let i = 0; i < 16; i++) if ((await readSome(file, buffer)) === 0) return;
}

/** Up to `count` bytes, read as they come, for at most `timeoutMs`. */
async function readFor(file: FileHandle, count: number, timeoutMs: number): Promise<number[]> {
  const got: number[] = [];
  const buffer = Buffer.alloc(16);
  const until = performance.now() + timeoutMs;
  while (got.length < count && performance.now() < until) {
    const n = await readSome(file, buffer);
    got.push(...buffer.subarray(0, n));
    if (n === 0) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return got;
}

/** Bytes read into `buffer` now; 0 when there are none yet. */
async function readSome(file: FileHandle, buffer: Buffer): Promise<number> {
  try {
    return (await file.read(buffer, 0, buffer.length, null)).bytesRead;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EAGAIN") return 0;
    throw error;
  }
}
