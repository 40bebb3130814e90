// A fake USB receipt printer behind a device file: a pseudo-terminal pair in
// raw mode (no echo, no line editing, bytes through unchanged), its slave's
// path standing for /dev/usb/lp0, and a printer on its master side, which
// reads what is written to the device file and writes back what a read of it
// returns, as usblp passes a printer's bytes both ways. Written in Python (its
// pty module opens the pair; Node has no pseudo-terminal of its own), run by
// the system's /usr/bin/python3. A write that is only DLE EOT n requests is a
// status query, answered one byte each as Epson documents (escpos-status-printer.ts's
// statusByte); any other write is a job, read by EscPosStream.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { EscPosStream } from "./escpos-printer.ts";

const PRINTER = String.raw`
import os, pty, select, sys, tty
master, slave = pty.openpty()
tty.setraw(slave)
print(os.ttyname(slave), flush=True)
state = {"paper_out": 0, "cover_open": 0, "silent": 0}
def status(n):
    p, c = state["paper_out"], state["cover_open"]
    if n == 1: return 0x12 | (0x08 if p or c else 0)
    if n == 2: return 0x12 | (0x04 if c else 0) | (0x20 if p else 0)
    if n == 4: return 0x12 | (0x6c if p else 0)
    return 0x12
while True:
    ready, _, _ = select.select([master, sys.stdin], [], [])
    if sys.stdin in ready:
        line = sys.stdin.readline()
        if not line: break
        name, value = line.split()
        state[name] = int(value)
        print("set", name, flush=True)
    if master in ready:
        data = os.read(master, 65536)
        if len(data) % 3 == 0 and all(data[i:i + 2] == b"\x10\x04" for i in range(0, len(data), 3)):
            queries = [data[i + 2] for i in range(0, len(data), 3)]
            print("query", len(queries), flush=True)
            if not state["silent"]: os.write(master, bytes(status(n) for n in queries))
        else:
            print("job", data.hex(), flush=True)
`;

export interface DevicePrinter {
  /** The device file's path (the pseudo-terminal's slave). */
  path: string;
  stream: EscPosStream;
  /** Status queries read. */
  queries: number;
  /** Sets its paper out, its cover open, or its silence (it reads status requests and answers none). */
  set(what: "paper_out" | "cover_open" | "silent", on: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startDevicePrinter(): Promise<DevicePrinter> {
  const child: ChildProcessWithoutNullStreams = spawn("/usr/bin/python3", ["-c", PRINTER]);
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  const printer: DevicePrinter = {
    path: "",
    stream: new EscPosStream(),
    queries: 0,
    set: async (what, on) => {
      const said = new Promise<string>((resolve) => waiting.push(resolve));
      child.stdin.write(`${what} ${on ? 1 : 0}\n`);
      await said;
    },
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }
    },
  };
  const started = new Promise<string>((resolve, reject) => {
    waiting.push(resolve);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the device printer exited (${code}): is /usr/bin/python3 there?`)));
  });
  lines.on("line", (line) => {
    const [word, rest] = line.split(" ", 2) as [string, string | undefined];
    if (word === "job") printer.stream.push(Buffer.from(rest ?? "", "hex"));
    else if (word === "query") printer.queries++;
    else waiting.shift()?.(line);
  });
  printer.path = await started;
  return printer;
}
