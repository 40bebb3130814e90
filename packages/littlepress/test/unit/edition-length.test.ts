// The build's layout measure of an edition's printed length
// (lib/build/edition-length.ts), on pages shaped as the kit's layout makes
// them (layouts/edition.njk with layouts/print.css). How close it comes to
// Chromium is tested in test/preview/edition-length.test.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LengthEstimator, lengthWarnings } from "../../lib/build/edition-length.ts";
import { headStyles } from "../../lib/build/page-tree.ts";
import { slotToken } from "../../lib/model/text-slots.ts";

const CSS = readFileSync("layouts/print.css", "utf8");

/** An edition's page as layouts/edition.njk renders it. */
const page = (body: string, css = CSS) =>
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=384">\n' +
  `<title>T</title>\n<style>${css}</style>\n</head>\n<body>\n<main class="paper">\n<h1>A title</h1>\n` +
  `${body}\n</main>\n</body>\n</html>\n`;

const paragraphs = (n: number, text = "Paragraph") =>
  Array.from({ length: n }, (_, i) => `<p>${text} ${i + 1}.</p>`).join("\n");

const estimate = (html: string) => new LengthEstimator().estimate(html);

describe("LengthEstimator", () => {
  it("measures a normal edition (a few paragraphs and a 384x600 image) well under the cut", () => {
    const html = page(
      `${paragraphs(3, "Good morning. The weather is fine today, with a light wind from the west. Item")}\n` +
        '<p><img src="http://127.0.0.1:8080/pub/img/pic-384.png" alt="a picture" width="384" height="600"></p>',
    );
    const height = estimate(html);
    expect(height).toBeGreaterThan(600 + 3 * 30);
    expect(height).toBeLessThan(1500);
  });

  it("measures 400 paragraphs past the printer's 10,000 px", () => {
    expect(estimate(page(paragraphs(400)))).toBeGreaterThan(10_000);
  });

  it("grows with the text: a line per paragraph, more lines for longer ones", () => {
    const short = estimate(page(paragraphs(20)));
    const longer = estimate(
      page(paragraphs(20, "A paragraph long enough to need more than one line on the paper, item")),
    );
    expect(estimate(page(paragraphs(40)))).toBeGreaterThan(short + 20 * 22);
    expect(longer).toBeGreaterThan(short + 20 * 22);
  });

  it("counts fixed heights, line breaks and images scaled to the paper", () => {
    const base = estimate(page("<p>x</p>"));
    expect(estimate(page('<p>x</p><div style="height: 10400px"></div>'))).toBeGreaterThanOrEqual(base + 10_400);
    expect(estimate(page(`<p>${"line<br>\n".repeat(50)}</p>`))).toBeGreaterThanOrEqual(base + 49 * 29);
    // 768 x 2000 fits the paper at half its size.
    const image = estimate(page('<p>x</p><img src="a.png" width="768" height="2000">'));
    expect(image).toBeGreaterThanOrEqual(base + 1000);
    expect(image).toBeLessThan(base + 1100);
  });

  it("leaves out what is not shown: display none, hidden, <head>, <script>, comments", () => {
    const base = estimate(page("<p>x</p>"));
    const unseen =
      `<div style="display:none">${paragraphs(100)}</div><div hidden>${paragraphs(100)}</div>` +
      `<script>${"document.write('x');\n".repeat(100)}</script><!-- ${paragraphs(100)} -->`;
    expect(estimate(page(`<p>x</p>${unseen}`))).toBe(base);
  });

  it("reads font sizes and margins from the page's CSS, and leaves @media rules out", () => {
    const big = CSS + "\np { font-size: 44px; margin: 0 0 40px; }\n@media (min-width: 1px) { p { font-size: 200px } }";
    const normal = estimate(page(paragraphs(50)));
    const larger = estimate(page(paragraphs(50), big));
    expect(larger).toBeGreaterThan(normal + 50 * 40);
    expect(larger).toBeLessThan(normal * 3);
  });

  it("counts a text setting's slot as an empty value", () => {
    const slot = slotToken("name");
    expect(estimate(page(`<p>Hello ${slot.repeat(100)}</p>`))).toBe(estimate(page("<p>Hello</p>")));
  });
});

describe("lengthWarnings", () => {
  it("warns once per file, naming its longest copy's settings, the estimate, the cut and the fix", () => {
    const long = page(paragraphs(400));
    const warnings = lengthWarnings([
      { source: "content/p/editions/0.md", html: page(paragraphs(3)), variant: { id: "size=s" } },
      { source: "content/p/editions/1.md", html: page(paragraphs(3)), variant: { id: "size=s" } },
      { source: "content/p/editions/1.md", html: long, variant: { id: "size=l&lang=fr" } },
    ]);
    expect(warnings).toEqual([
      {
        file: "content/p/editions/1.md",
        field: "length",
        problem: expect.stringMatching(
          new RegExp(
            /^the edition \(with size=l, lang=fr\) is about [\d,]+ px long on paper, /.source +
              /and the printer cuts every print at 10,000 px: the rest is never printed \(a layout estimate/.source,
          ),
        ) as string,
        fix: expect.stringMatching(
          /^split it into several editions.*npm run verify and npm run preview measure it exactly/,
        ) as string,
      },
    ]);
  });

  it("says nothing about editions within the cut", () => {
    expect(lengthWarnings([{ source: "a.md", html: page(paragraphs(50)) }])).toEqual([]);
  });
});

describe("the head's style sheets, read apart from the parse (page-tree.ts's headStyles)", () => {
  const head = (inside: string) => `<!doctype html><html><head><meta charset="utf-8">${inside}</head>`;
  const body = `<body><h1 class="big">Title</h1>${paragraphs(6)}</body></html>`;
  const sheet = "h1.big { margin-top: 300px } p { margin-bottom: 40px }";

  it("takes out each <style> of the head, in order, and leaves the rest of the page as it was", () => {
    const html = `${head(`<title>News</title><style>${sheet}</style><style media=print>p{x:y}</style>`)}${body}`;
    expect(headStyles(html)).toEqual({
      rest: `${head("<title>News</title>")}${body}`,
      sheets: [sheet, "p{x:y}"],
    });
  });

  it("gives the same estimate as a parse of the whole page", () => {
    const html = `${head(`<style>${sheet}</style>`)}${body}`;
    // A comment in the head makes it parse the page whole.
    const whole = new LengthEstimator().estimate(`<!---->${html}`);
    expect(headStyles(`<!---->${html}`)).toBeUndefined();
    expect(new LengthEstimator().estimate(html)).toBe(whole);
    expect(whole).toBeGreaterThan(new LengthEstimator().estimate(`${head("")}${body}`) + 250);
  });

  it.each([
    ["a comment", `<!-- <style>h1{}</style> -->`],
    ["a script", `<script>"<style>"</script>`],
    ["a title with markup in its text", `<title>a <style>b</style></title>`],
    [
      "a style start tag with quotes, which would change the sheets' order",
      `<style media="x">a{}</style><style>b{}</style>`,
    ],
    ["a style that does not end", `<style>a{}`],
  ])("parses the page whole when the head holds %s", (_, inside) => {
    expect(headStyles(`${head(inside)}${body}`)).toBeUndefined();
  });

  it("parses the page whole when it has no <body> tag", () => {
    expect(headStyles(`<style>${sheet}</style><p>Text</p>`)).toBeUndefined();
  });
});
