// tidyPage reads a page without parse5 only where the two trees are the same:
// on editions rendered from Markdown (the fixtures' and the examples'), and on
// generated markup made of the pieces that make a browser's parser close, move
// or read things otherwise (misnested tags, a <p> left open, tables, entities,
// comments, stray whitespace). Whenever it gives a tree, that tree must be
// parse5's, node for node.
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import markdownItAttrs from "markdown-it-attrs";
import { parse, type DefaultTreeAdapterTypes as T } from "parse5";
import { describe, expect, it } from "vitest";
import { parsePage } from "../../lib/build/page-tree.ts";
import { tidyPage } from "../../lib/build/tidy-page.ts";
import { FIXTURES } from "../helpers/sites.ts";

// As lib/build/edition-engines.ts adds it (its types are of markdown-it's CommonJS build).
const attrs = markdownItAttrs as unknown as (md: MarkdownIt) => void;

/** A tree as plain data: what each node is, its attributes in order, its text, its children. */
function dump(node: T.Node): unknown {
  if (node.nodeName === "#text") return (node as T.TextNode).value;
  if (node.nodeName === "#comment") return { comment: (node as T.CommentNode).data };
  if (node.nodeName === "#documentType") {
    const { name, publicId, systemId } = node as T.DocumentType;
    return { doctype: [name, publicId, systemId] };
  }
  const children = (node as T.ParentNode).childNodes.map(dump);
  if (node.nodeName === "#document") return { mode: (node as T.Document).mode, children };
  const el = node as T.Element;
  return { tag: el.tagName, ns: el.namespaceURI, attrs: el.attrs, children };
}

const HEAD = '<meta charset="utf-8">\n<title>An edition</title>';
const page = (body: string, head = HEAD) =>
  `<!doctype html>\n<html lang="en">\n<head>\n${head}\n</head>\n` +
  `<body>\n<main class="paper">\n${body}</main>\n</body>\n</html>\n`;

/** The same tree as parse5's, when it gives one; says whether it did. */
function sameTree(html: string): boolean {
  const tidy = tidyPage(html);
  if (tidy) expect(dump(tidy), html).toEqual(dump(parse(html)));
  return tidy !== undefined;
}

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => path.join(folder, f));
}

describe("tidyPage", () => {
  it("reads the fixtures' Markdown editions, rendered as the kit renders them, as parse5 does", () => {
    const md = new MarkdownIt({ html: true }).use(attrs);
    const files = markdownFiles(FIXTURES);
    let read = 0;
    for (const file of files) {
      const source = readFileSync(file, "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
      if (sameTree(page(md.render(source)))) read++;
    }
    // Most editions are tidy: the quick path is the one builds take.
    expect(files.length).toBeGreaterThan(20);
    expect(read / files.length).toBeGreaterThan(0.7);
  });

  it("reads what Markdown makes: headings, lists, quotes, code, emphasis, links, images, breaks", () => {
    const md = new MarkdownIt({ html: true, breaks: true }).use(attrs);
    const source = [
      "# A title {.centred}",
      'Some *emphasis*, **strong** and `code`, a [link](https://example.com/?a=1&b=2 "it\'s") & more.',
      "- one\n- two\n  1. nested\n  2. list",
      "> quoted\n> twice",
      "```\nconst x = 1 < 2;\n```",
      "![a picture](https://example.com/a.png){width=200}",
      "line one\nline two",
      "---",
      'A "quote", an apostrophe\'s, <span class="x">inline HTML</span>.',
    ].join("\n\n");
    expect(sameTree(page(md.render(source)))).toBe(true);
  });

  it("leaves to parse5 every page it does not read as parse5 would", () => {
    const untidy = [
      "<p>open<p>twice</p>", // a <p> closed by the next one
      "<p>a<div>block in a paragraph</div></p>",
      "<ul><li>one<li>two</ul>",
      "<b><i>misnested</b></i>",
      "<table><tr><td>cell</td></tr></table>", // an implied <tbody>
      "<p>x &copy; y</p>", // a named character not read here
      "<p>a &amp b</p>", // no semicolon
      "<!-- a comment -->",
      "<svg><circle/></svg>",
      "<script>x()</script>",
      "<pre>\nthe newline after pre is dropped</pre>",
      "<a href=x>one <a href=y>two</a></a>",
      "<h1>a<h2>b</h2></h1>",
      "<p>x</p></div>",
      "text\r\nwith a carriage return",
      "<br></br>",
      "<p title=a title=b>twice</p>",
      "<p\u00a0class=x>a no-break space is no space in a tag</p>",
    ];
    for (const body of untidy) expect(tidyPage(page(body)), body).toBeUndefined();
    expect(tidyPage("<html><head></head><body></body></html>"), "quirks mode").toBeUndefined();
    for (const head of ["<style>p {}</style x>", "<style>a\r\nb</style>", "<style>never ended", "<script></script>"])
      expect(tidyPage(page("x", head)), head).toBeUndefined();
  });

  it("reads a head's style sheets as the raw text they are, as parse5 does", () => {
    const css = readFileSync("layouts/print.css", "utf8");
    for (const head of [
      `<meta charset="utf-8">\n<title>T</title>\n<style>${css}</style>`,
      '<style media="print">p > a { content: "</b>"; }</STYLE >\n<style></style>',
      "<style>/* </styles are not its end */ p {}</style>",
    ])
      expect(sameTree(page("<p>text</p>", head)), head).toBe(true);
  });

  it("gives parse5's tree whenever it gives one, on generated markup", () => {
    const names = ["p", "div", "span", "em", "strong", "b", "a", "ul", "ol", "li", "dl", "dt", "dd", "h1", "h2"];
    const more = ["pre", "code", "blockquote", "table", "tr", "td", "img", "br", "hr", "section", "figure", "q"];
    const tag = fc.constantFrom(...names, ...more, "P", "Em");
    const attr = fc.constantFrom(
      "",
      ' class="x"',
      " id=y",
      " title='a &amp; b'",
      ' data-x="&lt;"',
      " hidden",
      "\u00a0id=z",
      " id=a\vb",
    );
    const text = fc.constantFrom("word", " ", "\n", "a &amp; b", "&nbsp;", "&copy;", "x & y", "\t", "<", "&#39;");
    const piece = fc.oneof(
      fc.tuple(tag, attr).map(([t, a]) => `<${t}${a}>`),
      tag.map((t) => `</${t}>`),
      text,
      fc.constantFrom("<br/>", "<img src=x />", "<!-- c -->", "</p>", "<p>", "</body>", "</html>"),
    );
    const balanced = fc.letrec<{ node: string }>((self) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        text,
        fc
          .tuple(tag, attr, fc.array(self("node"), { maxLength: 4 }))
          .map(([t, a, children]) => `<${t}${a}>${children.join("")}</${t}>`),
      ),
    })).node;
    let read = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, balanced), { maxLength: 12 }), (pieces) => {
        if (sameTree(page(pieces.join("")))) read++;
      }),
      { numRuns: 3_000 },
    );
    expect(read).toBeGreaterThan(100); // it was asked about markup it reads, not only about markup it leaves
  });

  it("is what parsePage gives, with parse5 for the rest", () => {
    const tidy = page("<p>plain</p>");
    const untidy = page("<p>open<p>twice");
    expect(dump(parsePage(tidy))).toEqual(dump(parse(tidy)));
    expect(dump(parsePage(untidy))).toEqual(dump(parse(untidy)));
  });
});
