import iconv from "iconv-lite";

export const isUtf8 = (charset: string) => /^utf-?8$/i.test(charset);

/**
 * Encodes an HTML page in the publication's charset. A character the charset
 * lacks becomes a numeric character reference, which every browser and the
 * printer's renderer read back as the same character.
 */
export function encodeHtml(html: string, charset: string): Buffer {
  if (isUtf8(charset)) return Buffer.from(html, "utf8");
  let safe = "";
  for (const ch of html) {
    safe += ch.charCodeAt(0) < 0x80 || encodable(ch, charset) ? ch : `&#x${ch.codePointAt(0)!.toString(16)};`;
  }
  return iconv.encode(safe, charset);
}

function encodable(ch: string, charset: string): boolean {
  return iconv.decode(iconv.encode(ch, charset), charset) === ch;
}

/**
 * Reads a page sent in `charset` (the one its Content-Type names), as a
 * sender does before passing the text on; a missing or unknown charset reads
 * as UTF-8, the web's default.
 */
export function decodeHtml(bytes: Uint8Array, charset: string | undefined): string {
  if (!charset || isUtf8(charset) || !iconv.encodingExists(charset)) return Buffer.from(bytes).toString("utf8");
  return iconv.decode(Buffer.from(bytes), charset);
}
