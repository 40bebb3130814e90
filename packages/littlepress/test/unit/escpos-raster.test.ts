// The ESC/POS encoder, read back by the fake printer's stream reader, dot for dot.
import { describe, expect, it } from "vitest";
import type { Dots } from "../../lib/model/bilevel.ts";
import { BAND_ROWS, bandsWithin, encodeJob, packRows, resendPrefix } from "../../lib/model/escpos-raster.ts";
import { parseDestination } from "../../lib/platform/printers/escpos-send.ts";
import { EscPosStream, jobDots } from "../helpers/escpos-printer.ts";

/** Random dots, from a seed (a small LCG), so a failure reproduces. */
function randomDots(width: number, height: number, seed = 1): Dots {
  let s = seed;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = s & 0x10000 ? 0 : 255;
  }
  return { data, width, height };
}

describe("ESC/POS raster", () => {
  it("packs eight dots a byte, the leftmost in the highest bit, a black dot as 1", () => {
    const data = new Uint8Array(16).fill(255);
    data[0] = 0; // leftmost dot of the first byte
    data[15] = 0; // rightmost of the second
    expect([...packRows({ data, width: 16, height: 1 })]).toEqual([0x80, 0x01]);
  });

  it("starts with ESC @, bands the raster with GS v 0, feeds and cuts", () => {
    const dots = randomDots(384, 300);
    const { bytes, bandEnds } = encodeJob(dots);
    expect([...bytes.subarray(0, 10)]).toEqual([0x1b, 0x40, 0x1d, 0x76, 0x30, 0x00, 48, 0, BAND_ROWS, 0]);
    expect([...bytes.subarray(-6)]).toEqual([0x1b, 0x64, 4, 0x1d, 0x56, 0x01]);
    expect(bandEnds).toHaveLength(3);
    expect(bandEnds.at(-1)).toBe(bytes.length - 6);
  });

  it.each([
    [384, 1001, 128],
    [576, 700, 24],
    [576, 256, 255],
    [384, 255, 255],
    [384, 1, 128],
  ])("reads back at %i x %i dots in bands of %i rows, bit for bit", (width, height, bandRows) => {
    const dots = randomDots(width, height, width + height);
    const stream = new EscPosStream();
    stream.push(encodeJob(dots, { bandRows }).bytes);
    expect(stream.jobs).toHaveLength(1);
    const job = stream.jobs[0]!;
    expect(job.bands).toEqual(
      Array.from({ length: Math.ceil(height / bandRows) }, (_, i) => Math.min(bandRows, height - i * bandRows)),
    );
    expect(job.cut).toBe(true);
    expect(job.unknown).toBe(0);
    const back = jobDots(job);
    expect([back.width, back.height]).toEqual([width, height]);
    expect(Buffer.from(back.data).equals(Buffer.from(dots.data))).toBe(true);
  });

  it("leaves the cut out when told", () => {
    const stream = new EscPosStream();
    stream.push(encodeJob(randomDots(384, 10), { cut: false }).bytes);
    expect(stream.jobs[0]!.cut).toBe(false);
    expect(stream.jobs[0]!.feeds).toEqual([4]);
  });

  it("refuses band heights outside 24 to 255 rows and widths that are not whole bytes", () => {
    // Some printers print an image taller than 255 rows (yH > 0) as garbage: no band is.
    expect(() => encodeJob(randomDots(384, 10), { bandRows: 256 })).toThrow(
      /256 rows is too tall a band: some printers print an image taller than 255 rows as garbage; give 24 to 255/,
    );
    expect(() => encodeJob(randomDots(384, 10), { bandRows: 300 })).toThrow(/give 24 to 255/);
    expect(() => encodeJob(randomDots(384, 10), { bandRows: 23 })).toThrow(/a whole number from 24 to 255, not 23/);
    expect(() => encodeJob(randomDots(383, 10))).toThrow(/whole number of bytes/);
  });

  it("a job sent again after a drop inside a band prints whole: the NUL prefix finishes the band blank", () => {
    const dots = randomDots(384, 500, 7);
    const job = encodeJob(dots);
    const stream = new EscPosStream();
    const cutAt = job.bandEnds[1]! + 1000; // two bands and part of the third
    stream.push(job.bytes.subarray(0, cutAt));
    expect(stream.waiting).toBeGreaterThan(0); // the printer waits for the rest of the band
    expect(bandsWithin(job, cutAt)).toBe(2);
    stream.push(resendPrefix(job));
    stream.push(job.bytes);
    expect(stream.jobs).toHaveLength(2);
    const [first, second] = stream.jobs as [(typeof stream.jobs)[0], (typeof stream.jobs)[0]];
    expect(first.bands).toEqual([128, 128, 128]); // the third band finished with blank rows
    expect(first.unknown).toBe(0);
    const back = jobDots(second);
    expect(Buffer.from(back.data).equals(Buffer.from(dots.data))).toBe(true);
    expect(second.unknown).toBe(0);
  });
});

describe("destinations", () => {
  it("reads tcp, cups and device destinations", () => {
    expect(parseDestination("tcp://192.168.1.50:9100")).toMatchObject({
      kind: "tcp",
      host: "192.168.1.50",
      port: 9100,
    });
    expect(parseDestination("tcp://printer.local")).toMatchObject({ kind: "tcp", host: "printer.local", port: 9100 });
    expect(parseDestination("cups:Receipt_58")).toMatchObject({ kind: "cups", queue: "Receipt_58" });
    expect(parseDestination("/dev/usb/lp0")).toMatchObject({ kind: "device", path: "/dev/usb/lp0" });
  });

  it("refuses what is none of them", () => {
    expect(parseDestination("http://printer:9100")).toHaveProperty("problem");
    expect(parseDestination("tcp://printer:9100/x")).toHaveProperty("problem");
    expect(parseDestination("cups:a b;rm")).toHaveProperty("problem");
    expect(parseDestination("tcp://")).toHaveProperty("problem");
  });
});
