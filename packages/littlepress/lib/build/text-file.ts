import { readFileSync } from "node:fs";
import type { ContentProblem } from "../model/content-error.ts";

// Every text file an author writes (editions, publication.json, site.json) is
// read here. Node's "utf8" decoding turns bytes that are not UTF-8 into U+FFFD
// without a word, and the printer would print the replacement marks: so a file
// that is not UTF-8 is refused, naming the encoding it seems to be in.

const strict = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

/** What a text file holds, or why it is not UTF-8 text (`problem`, a sentence). */
export type DecodedText = { text: string } | { problem: string };

/** Decodes an author's file as UTF-8 (dropping a byte-order mark), or says which encoding it looks like. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const utf16 = utf16Kind(bytes);
  if (utf16) return { problem: `is saved as ${utf16}, not UTF-8` };
  if (bytes.includes(0)) {
    return { problem: "holds NUL bytes: it is not a text file, or not in an encoding littlepress reads" };
  }
  try {
    return { text: strict.decode(bytes) };
  } catch {
    // The strict decoder's error says only "invalid"; where the first bad byte is says more, below.
    const text = lossy.decode(bytes);
    const line = text.slice(0, text.indexOf("\uFFFD")).split("\n").length;
    return { problem: `is not valid UTF-8 (line ${line}); it looks like Latin-1/Windows-1252` };
  }
}

/**
 * "UTF-16 LE" or "UTF-16 BE" when the bytes say so: by a byte-order mark, or by
 * the NUL bytes that every ASCII character has beside it in UTF-16 text.
 */
function utf16Kind(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16 LE";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16 BE";
  if (!bytes.includes(0)) return undefined; // the common case, at once
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0) continue;
    if (i % 2) oddNuls++;
    else evenNuls++;
  }
  const pairs = bytes.length / 2;
  if (oddNuls > pairs / 4 && evenNuls < oddNuls / 8) return "UTF-16 LE";
  if (evenNuls > pairs / 4 && oddNuls < evenNuls / 8) return "UTF-16 BE";
  return undefined;
}

/** The fix for every file decodeText refuses. */
export const SAVE_AS_UTF8 = "save it as UTF-8 (in most editors: Save As… or Reopen with Encoding, then UTF-8)";

/**
 * Reads an author's text file as UTF-8; a file in another encoding is a problem
 * naming it. Other read errors (a missing file) are thrown as they are.
 */
export function readText(file: string): { text: string } | { problem: ContentProblem } {
  const decoded = decodeText(readFileSync(file));
  if ("text" in decoded) return decoded;
  return { problem: { file, field: "encoding", problem: decoded.problem, fix: SAVE_AS_UTF8 } };
}
