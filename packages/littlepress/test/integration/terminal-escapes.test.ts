// What a publication chose never drives the terminal of whoever runs a tool
// against it: a publication over HTTP (test/helpers/hostile-publication.ts)
// whose meta.json name carries escape sequences (a window title, a screen
// clear, a colour), a CR, a newline, a line separator, a bidi override and a
// fake "print: sent 0 bytes" line, and whose ETag and x-littlepress-reason carry
// the C1 controls a header can. littlepress print, print-server and check show
// its name and its ETag as one inert line each.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inertOutput } from "../../scripts/cli.ts";
import { main as check } from "../../scripts/check.ts";
import { main as print } from "../../scripts/print.ts";
import { main as printServer } from "../../scripts/print-server.ts";
import { shownLine, shownText } from "../../lib/model/printer-name.ts";
import { startEscPosPrinter, type FakeEscPosPrinter } from "../helpers/escpos-printer.ts";
import { HOSTILE, startHostilePublication, type HostilePublication } from "../helpers/hostile-publication.ts";

const AT = "2026-11-23T06:00:00Z";

function capture() {
  const out = { stdout: "", stderr: "" };
  return { out, output: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t) } };
}

/** Nothing a terminal or a log would act on: no C0 or C1 control but the line ends, no separator, no bidi control. */
function expectInert(text: string) {
  // eslint-disable-next-line no-control-regex -- the controls are what is looked for
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
}

/** The lines of `text` that name the publication: exactly one, and no fake status line of its own. */
function nameLines(text: string) {
  const lines = text.split("\n").filter((l) => l.includes("Almanac"));
  expect(lines).toHaveLength(1);
  expect(text.split("\n").filter((l) => l.startsWith("print: sent 0 bytes"))).toEqual([]);
  return lines;
}

let pub: HostilePublication | undefined;
let printer: FakeEscPosPrinter;
beforeEach(async () => {
  printer = await startEscPosPrinter();
});
afterEach(async () => {
  await pub?.close();
  pub = undefined;
  await printer.close();
});

describe("the one rule (lib/model/printer-name.ts)", () => {
  it("makes the hostile name one inert line; shownLine keeps a line's spacing", () => {
    const shown = shownText(HOSTILE);
    expectInert(shown);
    expect(shown).not.toContain("\n");
    expect(shown).toBe("]0;owned Almanac [2J [H [31m red [0m print: sent 0 bytes 2J");
    expect(shownLine("  PASS  a\x1b[2J\r")).toBe("  PASS  a [2J ");
    const written: string[] = [];
    inertOutput({ stdout: (t) => written.push(t), stderr: () => undefined }).stdout("a\x1b[31m\nb\r\n");
    expect(written).toEqual(["a [31m\nb \n"]);
  });
});

describe("littlepress print", () => {
  it.each([204, 410])("shows the name as one inert line on a %i", async (status) => {
    pub = await startHostilePublication({ status });
    const { out, output } = capture();
    expect(await print([pub.url, "--to", printer.url, "--at", AT, "--tz", "UTC"], output)).toBe(0);
    expectInert(out.stdout + out.stderr);
    expect(out.stdout.split("\n")).toHaveLength(2);
    nameLines(out.stdout);
  });

  it("shows the name and the ETag inert on a 200, and on a status the spec does not allow", async () => {
    pub = await startHostilePublication({ status: 200 });
    const ok = capture();
    expect(await print([pub.url, "--to", printer.url, "--at", AT, "--tz", "UTC"], ok.output)).toBe(0);
    expectInert(ok.out.stdout + ok.out.stderr);
    const [line] = nameLines(ok.out.stdout);
    expect(line).toMatch(/answered 200, ETag " 2J 31mprint: sent 0 bytes print: sent 0 bytes", \d+ bytes$/);
    expect(printer.stream.jobs).toHaveLength(1);
    await pub.close();
    pub = await startHostilePublication({ status: 500 });
    const bad = capture();
    expect(await print([pub.url, "--to", printer.url, "--at", AT, "--tz", "UTC"], bad.output)).toBe(1);
    expectInert(bad.out.stderr);
    expect(bad.out.stderr.split("\n")).toHaveLength(2);
    nameLines(bad.out.stderr);
  });
});

describe("littlepress print-server", () => {
  it("shows the name and the ETag in one inert status line", async () => {
    pub = await startHostilePublication({ status: 200 });
    const dir = await mkdtemp(path.join(tmpdir(), "lp-escapes-"));
    try {
      const config = path.join(dir, "printers.json");
      const printers = [{ id: "desk", to: printer.url, publication: pub.url, hour: 6, zone: "UTC" }];
      await writeFile(config, JSON.stringify({ printers }));
      const { out, output } = capture();
      expect(await printServer(["--config", config, "--once", "--at", AT], output)).toBe(0);
      expectInert(out.stdout + out.stderr);
      expect(out.stdout.split("\n")).toHaveLength(2);
      expect(out.stdout).toMatch(/^2026-11-23T06:00:00.000Z desk: 2026-11-23 delivery_count 0: .*ETag " 2J 31mprint/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("littlepress check", () => {
  it("shows the name and every detail inert, as text and as JSON", async () => {
    pub = await startHostilePublication({ status: 200 });
    const text = capture();
    await check([pub.url, "--days", "2", "--start", "2026-11-23"], text.output);
    expectInert(text.out.stdout + text.out.stderr);
    expect(text.out.stdout).toContain("publication: ]0;owned Almanac [2J");
    expect(text.out.stdout.split("\n").filter((l) => l.includes("print: sent 0 bytes")).length).toBeGreaterThan(0);
    expect(text.out.stdout.split("\n").filter((l) => /^\s*print: sent/.test(l))).toEqual([]);
    const json = capture();
    await check([pub.url, "--days", "2", "--start", "2026-11-23", "--json"], json.output);
    expectInert(json.out.stdout);
    // The data is the publication's own, escaped: read back, the name is what it sent.
    expect((JSON.parse(json.out.stdout) as { publication: { name: string } }).publication.name).toBe(HOSTILE);
  }, 60_000);
});
