// Text that someone else chose (a printer's name from a print key service, a
// publication's name, an ETag or a reason header from a remote publication),
// cleaned for showing in a terminal, a log, the desk or a page: one rule, here.

/** What a printer is called when its print key names it with nothing to show. */
export const UNNAMED_PRINTER = "Your printer";
/** The longest printer name shown, in code points. */
export const PRINTER_NAME_LENGTH = 80;

/**
 * A printer's name as it may be shown: in a terminal, a log, the desk, a
 * page. The name comes from the print key service's answer, so anyone who
 * runs one chooses it; cleaned here, it cannot move a terminal's cursor, clear
 * its screen or colour it (ESC and the other C0 and C1 controls, DEL), break a
 * log line in two (CR, LF, the Unicode line and paragraph separators), reorder
 * what follows it (the bidi embeddings, overrides, isolates and marks), or hide
 * text (zero-width spaces, the BOM, soft hyphens and the other invisible format
 * characters; the zero-width joiner and non-joiner stay, for emoji sequences
 * and the scripts that need them). Controls and line breaks become spaces,
 * runs of white space one space, the ends are trimmed and the name is cut to 80
 * code points (never half a surrogate pair). Not a string, or nothing left:
 * "Your printer". Idempotent: a cleaned name is its own cleaning.
 */
export function printerName(raw: unknown): string {
  if (typeof raw !== "string") return UNNAMED_PRINTER;
  const cut = shownText(raw, PRINTER_NAME_LENGTH);
  return /[^\s\u200c\u200d]/u.test(cut) ? cut : UNNAMED_PRINTER;
}

/**
 * Any text that another party chose, cleaned as printerName cleans a name
 * (controls and line breaks to spaces, the invisible format characters gone,
 * white space runs to one space, trimmed), and cut to `maxLength` code points
 * when given: shown in a terminal or a log, it is one line that cannot move the
 * cursor, clear the screen, colour what follows, or start a line of its own.
 * May be "" (nothing to show). Idempotent.
 */
export function shownText(raw: string, maxLength = Infinity): string {
  const cleaned = shownLine(raw).replace(/\s+/gu, " ").trim();
  if (maxLength === Infinity) return cleaned;
  return Array.from(cleaned).slice(0, maxLength).join("").trim();
}

/**
 * A whole line of a tool's output, some of it chosen by another party, made
 * inert as shownText makes a value (controls and line breaks to spaces, the
 * invisible format characters gone) but with its spacing kept: its indent and
 * its columns stay where the tool put them.
 */
export function shownLine(raw: string): string {
  return (
    raw
      .replace(/[\p{Cc}\u2028\u2029]/gu, " ")
      // Format characters (\p{Cf}: bidi controls, zero-width spaces, BOM, soft
      // hyphen, tags…) and lone surrogates go; ZWNJ and ZWJ stay.
      .replace(/(?![\u200c\u200d])[\p{Cf}\p{Cs}]/gu, "")
  );
}
