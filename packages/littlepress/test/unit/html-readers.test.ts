// Where a simpler reader (node-html-parser, which the kit read descriptions
// and images with before parse5 became its one parser) reads a page otherwise
// than a browser, and parse5 (lib/build/page-tree.ts, lib/model/description.ts)
// as a browser does. Each case is one a check of the build must not miss: an
// event handler, a link a text setting is printed in, a script's extent. The
// build's checks are tested on the same cases in test/unit/text-slots.test.ts
// and test/unit/print-checks.test.ts.
import { describe, expect, it } from "vitest";
import { elements, parsePage, textOf } from "../../lib/build/page-tree.ts";

/** Each element with an href or on… attribute, as `tag attr=value`. */
function browserReading(html: string): string[] {
  return elements(parsePage(html)).flatMap((el) =>
    el.attrs.filter((a) => /^(href|on)/.test(a.name)).map((a) => `${el.tagName} ${a.name}=${a.value}`),
  );
}

const script = (html: string) =>
  elements(parsePage(html))
    .filter((e) => e.tagName === "script")
    .map(textOf);

describe("parse5 reads as a browser where node-html-parser did not", () => {
  it.each([
    ["a '/' for a space after the tag name", "<svg/onload=go()>", ["svg onload=go()"]],
    ["an end tag with a space before its '>'", "<script>x</script ><p onclick=go()>", ["p onclick=go()"]],
    ["<title> text that looks like a tag", `<title><b title="</title><a href=x>">`, ["a href=x"]],
    ["a CDATA section in HTML (a bogus comment to the first '>')", "<![CDATA[ > <a href=x> ]]>", ["a href=x"]],
    ["<!--> (a comment that ends at once)", "<!--> <a href=x> -->", ["a href=x"]],
    ["--!> (ends a comment)", "<!-- x --!> <a href=x> -->", ["a href=x"]],
    ["a quoted '>'", `<a title="a > b" href=x>`, ["a href=x"]],
    ["no space after a quoted value", `<a title="x"href=x>`, ["a href=x"]],
  ])("on %s: the browser sees the tag", (_, html, seen) => {
    expect(browserReading(html)).toEqual(seen);
  });

  it("on a script's <!-- <script> … --> escape, where </script> does not end it", () => {
    const html = "<script><!-- <script></script> x --></script><p>";
    expect(script(html)).toEqual(["<!-- <script></script> x -->"]);
  });
});

/** Each element the page holds (not the <html>, <head> and <body> the parser adds) as `<tag attr=value …>`. */
const read = (html: string) =>
  elements(parsePage(html))
    .filter((e) => !["html", "head", "body"].includes(e.tagName))
    .map((e) => `<${e.tagName}${e.attrs.map((a) => ` ${a.name}=${a.value}`).join("")}>`);

/** The text of the elements whose contents are text: `tag: text`. */
const contents = (html: string) =>
  elements(parsePage(html))
    .filter((e) => /^(script|style|title|textarea|noscript|xmp|plaintext)$/.test(e.tagName))
    .map((e) => `${e.tagName}: ${textOf(e)}`);

// The cases of test/unit/html-scan.test.ts (lib/model/html-scan.ts, the hand-written tokenizer parse5 replaced).
describe("parse5 reads a page as the HTML tokenizer does", () => {
  it("reads tags and attributes: quoted either way, unquoted, without a value, names lower-cased", () => {
    expect(read(`<P Class="a b" data-x='1' hidden ID=top>x</P><br/>`)).toEqual([
      "<p class=a b data-x=1 hidden= id=top>",
      "<br>",
    ]);
  });

  it("reads a tag as a browser does where it is malformed", () => {
    expect(read(`<a title="a > b"href='x'>`)).toEqual(["<a title=a > b href=x>"]);
    expect(read(`<svg/onload=go()>`)).toEqual(["<svg onload=go()>"]);
    expect(read(`<p =x="1">`)).toEqual(["<p =x=1>"]);
    expect(read(`<img alt = "x" src=a"b'c>`)).toEqual([`<img alt=x src=a"b'c>`]);
    expect(read(`<p>x<a title="x`)).toEqual(["<p>"]); // a tag the page does not finish is dropped
  });

  it("leaves text, comments, doctypes and bogus comments out", () => {
    const html = `<!doctype html>a < b <3 <!-- <a href="x"> --> <? <b> ?> </ 3> <![CDATA[ > <i> ]]> <!--> <u>`;
    expect(read(html)).toEqual(["<i>", "<u>"]);
    expect(read(`<!--- x --!> <s>`)).toEqual(["<s>"]);
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

  it("in SVG or MathML content, <title> holds markup and CDATA is text", () => {
    expect(read(`<svg><title><a href="x"></a></title><![CDATA[ > <b> ]]><i>`)).toEqual([
      "<svg>",
      "<title>",
      "<a href=x>",
      "<i>",
    ]);
    expect(read(`<math><title><a href="x"></a></title></math>`)).toEqual(["<math>", "<title>", "<a href=x>"]);
  });
});
