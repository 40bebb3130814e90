// littlepress print against the fake ESC/POS printer (test/helpers/escpos-printer.ts)
// and publications served by the kit's server: the printer gets exactly the
// preview's picture, a dropped job is printed again whole, a printer that is
// off is one line and exit 1, 204 and 410 print nothing, and the device-file
// and CUPS destinations get the same bytes.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { main, type PrintUse } from "../../scripts/print.ts";
import { pngDots, printImage } from "../../scripts/preview/print-image.ts";
import { PaperRenderer } from "../../scripts/preview/render.ts";
import { workerBrowser } from "../helpers/browser.ts";
import { EscPosStream, jobDots, startEscPosPrinter, type FakeEscPosPrinter } from "../helpers/escpos-printer.ts";
import { withServer } from "../helpers/server.ts";

const AT = "2026-11-23T06:00:00Z";

function capture() {
  const out = { stdout: "", stderr: "" };
  return { out, output: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t) } };
}

/** `littlepress print` in this process, in this file's one Chromium (`use` may shorten the send's time limit). */
async function print(args: string[], use: PrintUse = {}) {
  const { out, output } = capture();
  const code = await main([...args, "--at", AT, "--tz", "UTC", "--retry-wait", "0.05"], output, { browser, ...use });
  return { code, ...out };
}

/** The preview's picture of an edition: the preview's own fetch, render and PIL dither, read back from its PNG. */
async function previewDots(browser: Browser, url: string, width: number, from: string) {
  const renderer = await PaperRenderer.open(browser, undefined, undefined, width);
  try {
    const render = await renderer.render(url, { at: new Date(AT), from, timeZone: "UTC" });
    return await pngDots(await printImage(render.png, width));
  } finally {
    await renderer.close();
  }
}

const examples = withServer("examples");
const basic = withServer("basic");
let browser: Browser;
let printer: FakeEscPosPrinter;

beforeAll(async () => {
  browser = await workerBrowser();
});
beforeEach(async () => {
  printer = await startEscPosPrinter();
});
afterEach(async () => {
  await printer.close();
});

describe("littlepress print to a network printer", () => {
  it.each([384, 576])("prints exactly the preview's picture at %i dots", async (width) => {
    const pub = `${examples.url}/lighthouse/`;
    const r = await print([pub, "--to", printer.url, "--width", String(width), "--count", "1"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/answered 200, ETag "1-/);
    expect(r.stdout).toMatch(new RegExp(`rendered ${width} x \\d+ dots`));
    expect(printer.stream.jobs).toHaveLength(1);
    const job = printer.stream.jobs[0]!;
    expect(job.cut).toBe(true);
    expect(job.unknown).toBe(0);
    const got = jobDots(job);
    const want = await previewDots(browser, `${pub}edition/?delivery_count=1`, width, "The Lighthouse Cat");
    expect([got.width, got.height]).toEqual([want.width, want.height]);
    expect(want.height).toBeGreaterThan(500);
    expect(Buffer.from(got.data).equals(Buffer.from(want.data))).toBe(true);
  });

  it("lays the page out at the full 576 dots of 80 mm paper, not as a 384 px strip on a desk", async () => {
    const r = await print([`${examples.url}/lighthouse/`, "--to", printer.url, "--width", "576", "--count", "1"]);
    expect(r.code).toBe(0);
    const got = jobDots(printer.stream.jobs[0]!);
    expect(got.width).toBe(576);
    const black = (x: number, y: number) => got.data[y * got.width + x] === 0;
    // The title's 3 px rule runs the paper's width but its 6 px margins (a 384 px strip's would be 372 px long).
    let longest = 0;
    for (let y = 0; y < got.height; y++)
      for (let x = 0, run = 0; x < got.width; x++) longest = Math.max(longest, (run = black(x, y) ? run + 1 : 0));
    expect(longest).toBeGreaterThan(540);
    // No desk around it: the right margin is white paper, not the desk's dithered grey.
    let margin = 0;
    for (let y = 0; y < got.height; y++) for (let x = 570; x < 576; x++) margin += black(x, y) ? 1 : 0;
    expect(margin).toBe(0);
  });

  it("with --no-cut feeds but does not cut", async () => {
    const r = await print([`${examples.url}/lighthouse/`, "--to", printer.url, "--no-cut"]);
    expect(r.code).toBe(0);
    expect(printer.stream.jobs[0]!.cut).toBe(false);
    expect(printer.stream.jobs[0]!.feeds).toEqual([4]);
  });

  it("sends a dropped job again whole, says the first may be partly printed, and it prints once in full", async () => {
    printer.dropAfter.push(9000); // the first connection is reset after 9,000 bytes
    const pub = `${examples.url}/lighthouse/`;
    const r = await print([pub, "--to", printer.url]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /try 1: the connection dropped mid-job .*: the printer took at most (all \d+|\d+ of \d+) bands/,
    );
    expect(r.stdout).toMatch(/whole, on try 2/);
    expect(printer.connections).toHaveLength(2);
    expect(printer.connections[0]).toBe(9000);
    // The first try stops inside its second band; the resend's NULs finish it blank, then the whole job prints.
    expect(printer.stream.jobs).toHaveLength(2);
    expect(printer.stream.jobs[0]!.cut).toBe(false);
    expect(printer.stream.jobs[0]!.bands).toEqual([128, 128]);
    const whole = jobDots(printer.stream.jobs[1]!);
    const want = await previewDots(browser, `${pub}edition/?delivery_count=0`, 384, "The Lighthouse Cat");
    expect(Buffer.from(whole.data).equals(Buffer.from(want.data))).toBe(true);
    expect(printer.stream.jobs[1]!.cut).toBe(true);
  });

  // "Sent" is the printer's word, not the operating system's: its buffers take a whole job from a printer that
  // never reads it. A job counts only when the printer closed the connection after the whole job left, and even
  // then what it read of it is not known: the words say no more than that.
  it("says the whole job left and the printer closed, and no more, when it read it to the end and closed", async () => {
    const r = await print([`${examples.url}/lighthouse/`, "--to", printer.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        "print: sent [\\d,]+ bytes in \\d+ bands .* s: the whole job left this computer and the printer closed " +
          "the connection \\(whether it printed all of it is not known\\)\n$",
      ),
    );
  });

  it("never sends again a job that left whole to a printer that kept its connection open", async () => {
    printer.plans.push({ kind: "keep", after: 0 });
    const before = printer.connections.length;
    const r = await print([`${examples.url}/lighthouse/`, "--to", printer.url, "--retries", "2"], {
      sendTimeoutMs: 2_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the whole job left this computer/);
    expect(r.stderr).toMatch(/Not sent again: the printer may have printed all of it \(1 try\)\n$/);
    // One connection, the whole job read once: not three copies.
    expect(printer.connections.length - before).toBe(1);
  });

  it.each([
    [
      "stops reading after 9,000 bytes (out of paper)",
      { kind: "stop", after: 9_000 },
      /did not take the whole job in [\d.]+ s/,
    ],
    ["never reads", { kind: "stop", after: 0 }, /did not take the whole job in [\d.]+ s/],
    [
      "closes a second after reading 9,000 bytes",
      { kind: "close", after: 9_000 },
      /the connection dropped mid-job \(ECONNRESET\)|closed the connection before it took the whole job/,
    ],
  ] as const)(
    "fails, exit 1, when the printer %s, and says how much it took at most, in bands",
    async (_, plan, why) => {
      printer.plans.push({ ...plan });
      // A printer that stops reading is found out by the send's time limit, waited out here: 2 s, not the default
      // 5 s and more for the job's size. A closing printer closes a second in, within the default limit.
      const use = plan.kind === "stop" ? { sendTimeoutMs: 2_000 } : {};
      const r = await print([`${examples.url}/lighthouse/`, "--to", printer.url, "--retries", "0"], use);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/print: sent/);
      expect(r.stderr.split("\n")).toHaveLength(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toMatch(
        new RegExp(
          "the printer took at most (all \\d+ bands \\(the whole job left this computer; how much the printer read " +
            "is not known\\)|\\d+ of \\d+ bands \\([\\d,]+ of [\\d,]+ bytes left this computer\\))",
        ),
      );
      // The whole job may have left for the system's buffers (unknown: never sent again), or part of it (failed).
      expect(r.stderr).toMatch(
        /gave up after 1 tries|Not sent again: the printer may have printed all of it \(1 try\)/,
      );
      expect(printer.connections[0]).toBe(plan.after);
    },
    60_000,
  );

  it("says so in one line, exit 1, when the printer is off", async () => {
    await printer.switchOff();
    const r = await print([`${examples.url}/lighthouse/`, "--to", printer.url, "--retries", "1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `print: ${printer.url}: nothing is listening there (is the printer on?); nothing printed (2 tries)\n`,
    );
    expect(r.stdout).toMatch(/try 1: nothing is listening there/);
  });
});

describe("littlepress print: what the publication answers", () => {
  it("prints nothing on a 204", async () => {
    const r = await print([`${basic.url}/serial/`, "--to", printer.url, "--count", "3"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "print: Serial: edition/?delivery_count=3 answered 204: nothing to print today; nothing printed\n",
    );
    expect(printer.connections).toEqual([]);
  });

  it("prints nothing on a 410 and says the series ended", async () => {
    const r = await print([`${basic.url}/serial/`, "--to", printer.url, "--count", "5"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/answered 410: the series has ended for this subscriber; nothing printed\n$/);
    expect(printer.connections).toEqual([]);
  });

  it("sends local_delivery_time on the hour and the settings, as the platform does", async () => {
    const r = await print([`${basic.url}/daily/`, "--to", printer.url]);
    expect(r.stdout).toContain("edition/?local_delivery_time=2026-11-23T06%3A00%3A00%2B00%3A00");
  });

  it("says in one line, exit 1, when the publication cannot be reached", async () => {
    const port = new URL(basic.url).port;
    const named = await print([`http://localhost.localdomain.invalid:${port}/serial/`, "--to", printer.url]);
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/^print: .*could not be reached/);
    expect(named.stderr.split("\n")).toHaveLength(2);
  });

  it("answers bad arguments with one line and exit 2", async () => {
    for (const args of [
      ["not a url", "--to", printer.url],
      [`${basic.url}/serial/`],
      [`${basic.url}/serial/`, "--to", "http://x"],
      [`${basic.url}/serial/`, "--to", printer.url, "--width", "500"],
    ]) {
      const r = await print(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^print: .*; see --help\n$/);
    }
  });

  it("warns that a page wider than the paper is clipped, and still prints it", async () => {
    const server: Server = createServer((req, res) => {
      if (req.url === "/meta.json") {
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(JSON.stringify({ name: "Wide" }));
      }
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ETag: '"w"' });
      res.end('<div style="width:700px;height:40px;background:#000"></div>');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const r = await print([url, "--to", printer.url]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /^print: the page is wider than the paper's 384 px: what lies right of that is not printed$/m,
      );
      expect(printer.stream.jobs).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("refuses --band-rows over 255, which some printers print as garbage, and sends nothing", async () => {
    const r = await print([`${basic.url}/serial/`, "--to", printer.url, "--band-rows", "256"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "print: --band-rows: 256 rows is too tall a band: some printers print an image taller than 255 rows as " +
        "garbage; give 24 to 255; see --help\n",
    );
    expect(printer.connections).toEqual([]);
  });
});

describe("littlepress print to a device file and to CUPS", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "littlepress-escpos-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes to a device file the very bytes the network printer gets", async () => {
    const pub = `${examples.url}/lighthouse/`;
    const file = path.join(dir, "lp0");
    expect((await print([pub, "--to", file])).code).toBe(0);
    expect((await print([pub, "--to", printer.url])).code).toBe(0);
    const bytes = await readFile(file);
    const stream = new EscPosStream();
    stream.push(bytes);
    expect(jobDots(stream.jobs[0]!)).toEqual(jobDots(printer.stream.jobs[0]!));
    expect(bytes.length).toBe(printer.connections[0]);
  });

  it("says why a device cannot be written", async () => {
    const r = await print([`${examples.url}/lighthouse/`, "--to", path.join(dir, "no", "lp0"), "--retries", "0"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no such device or folder; nothing printed \(1 tries\)\n$/);
  });

  it("hands CUPS a raw job through lp, with no shell", async () => {
    const bin = path.join(dir, "bin");
    await import("node:fs/promises").then((fs) => fs.mkdir(bin, { recursive: true }));
    const lp = path.join(bin, "lp");
    await writeFile(lp, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/lp-args"\ncat > "${dir}/lp-job"\n`);
    await chmod(lp, 0o755);
    const before = process.env.PATH;
    process.env.PATH = `${bin}:${before}`;
    try {
      const r = await print([`${examples.url}/lighthouse/`, "--to", "cups:Receipt_58"]);
      expect(r.code).toBe(0);
    } finally {
      process.env.PATH = before;
    }
    expect(await readFile(path.join(dir, "lp-args"), "utf8")).toBe("-d\nReceipt_58\n-o\nraw\n");
    const stream = new EscPosStream();
    stream.push(await readFile(path.join(dir, "lp-job")));
    expect(stream.jobs).toHaveLength(1);
    expect(stream.jobs[0]!.width).toBe(384);
  });
});
