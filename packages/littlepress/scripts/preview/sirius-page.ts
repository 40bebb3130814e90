// The page a print key prints. sirius does not print an edition's HTML alone:
// it pastes it into the <body> of its own page (sirius/coding/
// default_template.html), under a header line of its own, writes that page to
// a temporary file and opens it from there. The style below is that page's
// style, declaration for declaration, since the edition inherits it unless it
// sets its own (the font size of 30 px and the 80 px of paper after the text
// are the ones authors notice).

/** What sirius prints above every edition: the time it was sent and who sent it. */
export interface PrintHeader {
  /** When the print was sent; shown as the sender's wall-clock time. */
  at: Date;
  /** The `from` of the print key request: here the publication's name. */
  from: string;
  /**
   * Paste `from` as it is, markup and all, as sirius's template does (the stand-in, given `from` as sent:
   * the kit sends the name as HTML text, lib/model/print-url.ts). Default: `from` is the name, escaped.
   */
  fromAsSent?: boolean;
  /** Show `at` in this IANA time zone (default: the machine's). */
  timeZone?: string;
}

const STYLE = `
html, body { margin: 0; padding: 0; background-color: white; overflow-x: hidden; word-wrap: break-word; }
body { margin-top: 1px; margin-bottom: 80px; border: 1px; font-family: Helvetica, Arial, sans-serif; font-size: 30px; }
h1, h2, h3, h4, h5, h6 { margin-bottom: 20px; }
li { margin-bottom: 0.5em; }
.header { font-weight: 800; text-transform: uppercase; font-size: 18px; margin-bottom: 18px; text-align: center; }
img { max-width: 100%; }`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** sirius's header text, strftime('%H:%M | %d-%b-%Y') and the sender's name: `06:00 | 23-Nov-2026 | The Almanac`. */
export function headerText(header: PrintHeader): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: header.timeZone,
      year: "numeric",
      month: "numeric",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(header.at)
      .map((p) => [p.type, p.value]),
  );
  const month = MONTHS[Number(parts.month) - 1];
  const when = `${parts.hour}:${parts.minute} | ${parts.day}-${month}-${parts.year}`;
  return header.from ? `${when} | ${header.from}` : when;
}

/** The header line's HTML: the text escaped, but a `from` as sent pasted as it is, as sirius does. */
function headerHtml(header: PrintHeader): string {
  if (!header.fromAsSent || !header.from) return escapeText(headerText(header));
  return `${escapeText(headerText({ ...header, from: "" }))} | ${header.from}`;
}

const escapeText = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/**
 * The whole page sirius renders for `editionHtml`. The edition goes in as it
 * is, a full document included: the browser drops its nested <html>, <head>
 * and <body> tags and keeps their content, as it did on sirius.
 */
export function siriusPage(editionHtml: string, header: PrintHeader): string {
  return `<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <style>${STYLE}
    </style>
  </head>
  <body>
    <div class="header">
      ${headerHtml(header)}
    </div>
    ${editionHtml}
  </body>
</html>
`;
}
