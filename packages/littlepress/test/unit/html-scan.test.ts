import { describe, expect, it } from "vitest";
import { scanHtml, type ScannedPage } from "../../lib/model/html-scan.ts";

/** Each tag as `<name attr=value …>` (`</name>` for an end tag), values as written, quotes kept. */
function tags(html: string, foreign = false): string[] {
  return scanHtml(html, { foreign }).tags.map((t) => {
    const attributes = t.attributes.map((a) => {
      if (a.quote === undefined) return ` ${a.name}`;
      return ` ${a.name}=${a.quote}${html.slice(a.valueStart, a.valueEnd)}${a.quote}`;
    });
    return `<${t.closing ? "/" : ""}${t.name}${attributes.join("")}>`;
  });
}

/** The contents read as text: `element: text`. */
const contents = (html: string, page: ScannedPage = scanHtml(html)) =>
  page.contents.map((c) => `${c.element}: ${html.slice(c.start, c.end)}`);

describe("scanHtml", () => {
  it("reads tags and attributes: quoted either way, unquoted, without a value, names lower-cased", () => {
    expect(tags(`<P Class="a b" data-x='1' hidden ID=top>x</P><br/>`)).toEqual([
      `<p class="a b" data-x='1' hidden id=top>`,
      "</p>",
      "<br>",
    ]);
  });

  it("reads a tag as a browser does where it is malformed", () => {
    // A quoted ">" does not end the tag; a quote right after a value starts the next attribute.
    expect(tags(`<a title="a > b"href='x'>`)).toEqual([`<a title="a > b" href='x'>`]);
    // A "/" inside a tag separates attributes; an attribute's name may start with "=".
    expect(tags(`<svg/onload=go()>`)).toEqual(["<svg onload=go()>"]);
    expect(tags(`<p =x="1">`)).toEqual([`<p =x="1">`]);
    // Spaces around "=", and an unquoted value that runs up to a space or ">".
    expect(tags(`<img alt = "x" src=a"b'c>`)).toEqual([`<img alt="x" src=a"b'c>`]);
    // A tag the page does not finish runs to its end.
    expect(scanHtml(`<p>x<a title="x`).tags.at(-1)).toMatchObject({ name: "a", end: 15 });
  });

  it("leaves text, comments, doctypes and bogus comments out", () => {
    const html = `<!doctype html>a < b <3 <!-- <a href="x"> --> <? <b> ?> </ 3> <![CDATA[ > <i> ]]> <!--> <u>`;
    expect(tags(html)).toEqual(["<i>", "<u>"]); // the CDATA section is a bogus comment up to its first ">"
    expect(tags(`<!--- x --!> <s>`)).toEqual(["<s>"]);
  });

  it("reads the contents of <script>, <style>, <title>, <textarea> … as text, up to their own end tag", () => {
    const html =
      `<script>if (a<b) x("</p>")</script ><style>p > a { }</style>` +
      `<title><b>T</title><textarea></textarea x></textarea><noscript><i></noscript><xmp><a></XMP>`;
    expect(contents(html)).toEqual([
      'script: if (a<b) x("</p>")',
      "style: p > a { }",
      "title: <b>T",
      "textarea: ",
      "noscript: <i>",
      "xmp: <a>",
    ]);
    expect(tags(html).filter((t) => !t.startsWith("</"))).toEqual([
      "<script>",
      "<style>",
      "<title>",
      "<textarea>",
      "<noscript>",
      "<xmp>",
    ]);
    expect(contents(`<plaintext></plaintext><a>`)).toEqual(["plaintext: </plaintext><a>"]);
    expect(contents(`<script>x</scripts></script>`)).toEqual(["script: x</scripts>"]);
  });

  it("follows a script's escapes: inside <!-- <script> … -->, </script> does not end it", () => {
    expect(contents(`<script><!-- <script> </script> --></script><p>`)).toEqual([
      "script: <!-- <script> </script> -->",
    ]);
    expect(contents(`<script><!-- </script><p>`)).toEqual(["script: <!-- "]);
    expect(contents(`<script><!--><script></script><p>`)).toEqual(["script: <!--><script>"]);
  });

  it("read as SVG or MathML content: <title>, <textarea> … hold markup, CDATA is text", () => {
    const html = `<title><a href="x"></a></title><![CDATA[ > <b> ]]><i>`;
    expect(tags(html, true)).toEqual(["<title>", `<a href="x">`, "</a>", "</title>", "<i>"]);
    expect(contents(html, scanHtml(html, { foreign: true }))).toEqual([]);
    // <script> and <style> are text both ways.
    expect(contents(`<script><a></script>`, scanHtml(`<script><a></script>`, { foreign: true }))).toEqual([
      "script: <a>",
    ]);
  });
});
