import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { decodeHtml, encodeHtml } from "../../lib/model/charset.ts";

const PAGE = "<p>日本語のお知らせ: 東京 ☃ 😀 &amp; é</p>";

describe("encodeHtml: utf-8", () => {
  it.each(["utf-8", "UTF-8", "utf8", "Utf8"])("passes %s through unchanged, emoji included", (charset) => {
    const bytes = encodeHtml(PAGE, charset, undefined); // UTF-8 needs no codec
    expect(bytes.equals(Buffer.from(PAGE, "utf8"))).toBe(true);
    expect(bytes.toString("utf8")).toBe(PAGE);
    expect(encodeHtml(PAGE, charset, iconv).equals(bytes)).toBe(true);
  });
});

describe("encodeHtml: shift_jis", () => {
  it("encodes Japanese so that iconv-lite decodes it back", () => {
    const html = "<p>日本語のお知らせ: 東京</p>";
    const bytes = encodeHtml(html, "shift_jis", iconv);
    expect(bytes.equals(Buffer.from(html, "utf8"))).toBe(false);
    expect(iconv.decode(bytes, "shift_jis")).toBe(html);
  });

  it("encodes 日 as the Shift_JIS bytes 93 FA", () => {
    expect([...encodeHtml("日", "shift_jis", iconv)]).toEqual([0x93, 0xfa]);
  });

  it("accepts the charset name in any case", () => {
    expect(iconv.decode(encodeHtml("東京", "Shift_JIS", iconv), "shift_jis")).toBe("東京");
  });

  it("turns characters Shift_JIS lacks into numeric character references", () => {
    const bytes = encodeHtml("雪☃だるま😀", "shift_jis", iconv);
    const text = iconv.decode(bytes, "shift_jis");
    expect(text).toBe("雪&#x2603;だるま&#x1f600;");
    expect(bytes.includes(Buffer.from("?"))).toBe(false);
  });

  it("writes one reference per astral character, not one per surrogate", () => {
    expect(iconv.decode(encodeHtml("😀", "shift_jis", iconv), "shift_jis")).toBe("&#x1f600;");
  });

  it("keeps ASCII as it is", () => {
    const ascii = '<a href="https://example.com/?a=1&b=2">x</a>\n';
    expect(encodeHtml(ascii, "shift_jis", iconv).toString("latin1")).toBe(ascii);
  });
});

describe("encodeHtml: other single-byte charsets", () => {
  it("encodes Cyrillic in windows-1251 and references what it lacks", () => {
    const bytes = encodeHtml("Привет ☃", "windows-1251", iconv);
    expect(bytes[0]).toBe(0xcf); // П
    expect(iconv.decode(bytes, "windows-1251")).toBe("Привет &#x2603;");
  });

  it("references Japanese in latin1", () => {
    expect(encodeHtml("é日", "latin1", iconv).toString("latin1")).toBe("é&#x65e5;");
  });
});

describe("the codec", () => {
  it("is needed for any charset but UTF-8, and is named when missing", () => {
    expect(() => encodeHtml("東京", "shift_jis", undefined)).toThrow(/shift_jis .*without a codec \(iconv-lite\)/);
  });
});

describe("decodeHtml", () => {
  it("reads a page in the charset its Content-Type names", () => {
    expect(decodeHtml(iconv.encode("東京", "shift_jis"), "Shift_JIS", iconv)).toBe("東京");
  });

  it("reads a missing or unknown charset as UTF-8", () => {
    const bytes = Buffer.from("東京 ☃", "utf8");
    expect(decodeHtml(bytes, undefined, iconv)).toBe("東京 ☃");
    expect(decodeHtml(bytes, "no-such-charset", iconv)).toBe("東京 ☃");
  });
});
