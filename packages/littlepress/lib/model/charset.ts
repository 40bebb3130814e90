// Pages in a publication's charset. UTF-8 needs nothing but Buffer; any other
// charset needs a codec (iconv-lite), which the model never imports: it is
// passed in, so the edition function loads it only for a publication whose
// charset needs it (lib/edge/publication-store.ts).

/** What encodes and decodes a charset other than UTF-8: iconv-lite's own functions. */
export interface CharsetCodec {
  encode(text: string, charset: string): Buffer;
  decode(bytes: Buffer, charset: string): string;
  encodingExists(charset: string): boolean;
}

export const isUtf8 = (charset: string) => /^utf-?8$/i.test(charset);

/** The charset a Content-Type names ("text/html; charset=Shift_JIS"), or undefined. */
export const charsetOf = (contentType: string): string | undefined =>
  /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];

/**
 * Encodes an HTML page in the publication's charset. A character the charset
 * lacks becomes a numeric character reference, which every browser and the
 * printer's renderer read back as the same character. `codec` is needed for
 * any charset but UTF-8.
 */
export function encodeHtml(html: string, charset: string, codec: CharsetCodec | undefined): Buffer {
  if (isUtf8(charset)) return Buffer.from(html, "utf8");
  if (!codec) throw new Error(`a page in ${charset} cannot be encoded without a codec (iconv-lite)`);
  let safe = "";
  for (const ch of html) {
    safe += ch.charCodeAt(0) < 0x80 || encodable(ch, charset, codec) ? ch : `&#x${ch.codePointAt(0)!.toString(16)};`;
  }
  return codec.encode(safe, charset);
}

function encodable(ch: string, charset: string, codec: CharsetCodec): boolean {
  return codec.decode(codec.encode(ch, charset), charset) === ch;
}

/**
 * Reads a page sent in `charset` (the one its Content-Type names), as a
 * sender does before passing the text on; a missing or unknown charset reads
 * as UTF-8, the web's default.
 */
export function decodeHtml(bytes: Uint8Array, charset: string | undefined, codec: CharsetCodec): string {
  if (!charset || isUtf8(charset) || !codec.encodingExists(charset)) return Buffer.from(bytes).toString("utf8");
  return codec.decode(Buffer.from(bytes), charset);
}
