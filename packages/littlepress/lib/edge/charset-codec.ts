// iconv-lite, imported the first time a page in a charset other than UTF-8 is
// met: a publication in one opened (publication-store.ts), an edition in one
// sent to a print key (lib/platform/printers/utf8-page.ts). A site whose
// publications are all in UTF-8 never loads it. Both callers are asynchronous
// anyway; encoding and decoding a page stay synchronous.
import type { CharsetCodec } from "../model/charset.ts";

let iconv: Promise<CharsetCodec> | undefined;

/** iconv-lite's codec, imported once, on first call. */
export const charsetCodec = () => (iconv ??= import("iconv-lite").then((m) => m.default));
