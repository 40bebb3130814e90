// A printer's name as the print key service chose it, cleaned for showing:
// in a terminal, a log, the desk, a page.
import { describe, expect, it } from "vitest";
import { PRINTER_NAME_LENGTH, printerName } from "../../lib/model/printer-name.ts";

/**
 * Anything that may not reach a terminal or a log line: C0, DEL, C1, line
 * separators, bidi controls, invisible format characters.
 */
const UNSHOWABLE = /[\p{Cc}\u2028\u2029\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]/u;

describe("a printer's name", () => {
  it("keeps an ordinary name, in any script, with its emoji", () => {
    for (const name of ["Kitchen", "Zoë's printer", "台所", "Küche 2", "مطبخ", "👩‍🍳 Chef", "می‌خواهم"])
      expect(printerName(name)).toBe(name);
  });

  it("loses the terminal's escape sequences' controls, and its line breaks become spaces", () => {
    const evil = "\u001b[2J\u001b[31mEvil\u0007\r\nLine";
    expect(printerName(evil)).toBe("[2J [31mEvil Line");
    expect(printerName(evil)).not.toMatch(UNSHOWABLE);
    expect(printerName("a\u0000b\u007fc\u0085d\u009be\u2028f\u2029g\tz")).toBe("a b c d e f g z");
  });

  it("loses bidi overrides, isolates and marks, and invisible characters", () => {
    expect(printerName("Kitchen\u202egnp.exe")).toBe("Kitchengnp.exe");
    expect(printerName("\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061cHall")).toBe("Hall");
    expect(printerName("Ha\u200bll\ufeff\u00ad\u2060\u2063")).toBe("Hall");
    expect(printerName("Ha\ud800ll")).toBe("Hall");
  });

  it("collapses white space and trims it", () => {
    expect(printerName("  Kitchen \u00a0\u3000  table\n")).toBe("Kitchen table");
  });

  it("is cut to 80 code points, never half a surrogate pair", () => {
    expect(printerName("x".repeat(200))).toBe("x".repeat(PRINTER_NAME_LENGTH));
    const emoji = printerName("😀".repeat(100));
    expect(Array.from(emoji)).toHaveLength(80);
    expect(emoji).toBe("😀".repeat(80));
    const edge = printerName(`${"x".repeat(79)}😀😀`);
    expect(edge).toBe(`${"x".repeat(79)}😀`);
    expect(edge).not.toMatch(/\p{Cs}/u);
    expect(printerName(`${"x".repeat(79)} y`)).toBe("x".repeat(79));
  });

  it("is 'Your printer' when there is nothing to show, or no string", () => {
    for (const raw of [
      undefined,
      null,
      7,
      {},
      ["Kitchen"],
      "",
      "   ",
      "\u001b\u0007\r\n",
      "\u202e\u200b",
      "\u200d\u200c",
    ])
      expect(printerName(raw)).toBe("Your printer");
  });

  it("is its own cleaning", () => {
    for (const raw of ["\u001b[2J\u001b[31mEvil\u0007\r\nLine", "😀".repeat(100), "  a  b  ", `${"x".repeat(79)} y`])
      expect(printerName(printerName(raw))).toBe(printerName(raw));
  });
});
