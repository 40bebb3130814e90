// What is POSTed to a print key is UTF-8. sirius reads every body as UTF-8,
// whatever charset its Content-Type names (get_data(as_text=True)), so an
// edition of a publication in windows-1251 would print its Cyrillic as
// replacement boxes. The publication still serves its own charset to others.
import { charsetOf, decodeHtml, isUtf8 } from "../../model/charset.ts";
import { charsetCodec } from "../../edge/charset-codec.ts";

/** A page as it is POSTed: its bytes and its Content-Type. */
export interface PostedPage {
  bytes: ArrayBuffer | Uint8Array;
  type: string;
}

/** The charset parameter of a Content-Type header, quoted or not (as charsetOf reads it). */
const CHARSET_PARAM = /(;\s*charset\s*=\s*)"?[\w.:-]+"?/i;
/** A `<meta>` tag of an HTML page. */
const META_TAG = /<meta\b[^>]*>/gi;

/**
 * The page in UTF-8: a text page whose Content-Type names another charset is
 * decoded from it and encoded in UTF-8, and its Content-Type and the charset
 * its HTML declares in `<meta>` made to say utf-8, so that nothing reading it
 * takes the new bytes for the old charset. Any other page is returned as it
 * is, and iconv-lite is imported only for a charset that needs it.
 */
export async function utf8Page(page: PostedPage): Promise<PostedPage> {
  const charset = charsetOf(page.type);
  if (!charset || isUtf8(charset) || !/^\s*text\//i.test(page.type)) return page;
  const text = decodeHtml(new Uint8Array(page.bytes), charset, await charsetCodec());
  const utf8 = /^\s*text\/html\b/i.test(page.type) ? text.replace(META_TAG, utf8Meta) : text;
  return { bytes: Buffer.from(utf8, "utf8"), type: page.type.replace(CHARSET_PARAM, "$1utf-8") };
}

/**
 * A `<meta>` tag saying utf-8 where it named a charset: `<meta charset=…>`,
 * or `<meta http-equiv="Content-Type" content="text/html; charset=…">`. Any
 * other `<meta>` (a description whose content mentions a charset) is left alone.
 */
function utf8Meta(tag: string): string {
  if (/\shttp-equiv\s*=\s*["']?content-type\b/i.test(tag))
    return tag.replace(/(;\s*charset\s*=\s*)[\w.:-]+/i, "$1utf-8");
  if (/\scontent\s*=/i.test(tag)) return tag;
  return tag.replace(/(\scharset\s*=\s*["']?)[\w.:-]+/i, "$1utf-8");
}
