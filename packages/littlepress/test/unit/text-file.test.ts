import { describe, expect, it } from "vitest";
import { decodeText } from "../../lib/build/text-file.ts";

const problem = (bytes: Uint8Array) => {
  const r = decodeText(bytes);
  if (!("problem" in r)) throw new Error(`expected a problem, got ${JSON.stringify(r.text)}`);
  return r.problem;
};

describe("decodeText", () => {
  it("reads UTF-8, dropping a byte-order mark", () => {
    expect(decodeText(Buffer.from("number: 0\nCafé ☕\n"))).toEqual({ text: "number: 0\nCafé ☕\n" });
    expect(decodeText(Buffer.from("\uFEFF{}"))).toEqual({ text: "{}" });
  });

  it("names UTF-16 by its byte-order mark", () => {
    expect(problem(Buffer.from("\uFEFF---\nnumber: 0\n", "utf16le"))).toBe("is saved as UTF-16 LE, not UTF-8");
    expect(problem(Buffer.from("\uFEFF---\nnumber: 0\n", "utf16le").swap16())).toBe("is saved as UTF-16 BE, not UTF-8");
  });

  it("names UTF-16 without a byte-order mark by its NUL bytes (valid UTF-8 otherwise)", () => {
    expect(problem(Buffer.from("---\nnumber: 0\n---\nHi\n", "utf16le"))).toBe("is saved as UTF-16 LE, not UTF-8");
    expect(problem(Buffer.from("---\nnumber: 0\n---\nHi\n", "utf16le").swap16())).toBe(
      "is saved as UTF-16 BE, not UTF-8",
    );
  });

  it("says a file that is not UTF-8 looks like Latin-1, with the line of the first bad byte", () => {
    expect(problem(Buffer.from("---\nnumber: 0\n---\nCaf\xe9\n", "latin1"))).toBe(
      "is not valid UTF-8 (line 4); it looks like Latin-1/Windows-1252",
    );
  });

  it("refuses NUL bytes in a file that is not UTF-16", () => {
    expect(problem(Uint8Array.from([0x61, 0, 0, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68]))).toMatch(/holds NUL bytes/);
  });
});
