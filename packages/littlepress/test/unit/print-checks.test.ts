import { describe, expect, it } from "vitest";
import {
  descriptionWarnings,
  EDITION_BUDGET_BYTES,
  PrintChecker,
  printWarnings,
} from "../../lib/build/print-checks.ts";

const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const problems = (html: string) => printWarnings(html, "content/x/editions/a.md").map((w) => w.problem);

describe("printWarnings", () => {
  it("finds nothing wrong in a plain page with absolute images", () => {
    expect(
      problems(
        page(
          "<style>body{font-size:22px;width:384px}</style>",
          '<img src="https://x.example/a.png" width="384"><a href="page.html">x</a>',
        ),
      ),
    ).toEqual([]);
  });

  it("warns about relative asset URLs, naming the file", () => {
    const w = printWarnings(
      page("", '<img src="cat.png"><img src="/dog.png"><img src="data:image/png;base64,AA==">'),
      "content/x/editions/a.md",
    );
    expect(w.map((p) => p.problem)).toEqual([
      expect.stringMatching(/^"cat\.png" is a relative URL/),
      expect.stringMatching(/^"\/dog\.png" is a relative URL/),
    ]);
    expect(w[0]!.file).toBe("content/x/editions/a.md");
  });

  it("warns about linked stylesheets and scripts", () => {
    expect(
      problems(
        page(
          '<link rel="stylesheet" href="https://cdn.example/a.css">',
          '<script src="https://cdn.example/a.js"></script>',
        ),
      ),
    ).toEqual([
      expect.stringMatching(/links https:\/\/cdn\.example\/a\.css from elsewhere/),
      expect.stringMatching(/links https:\/\/cdn\.example\/a\.js from elsewhere/),
    ]);
  });

  it("warns about fixed widths over 384 px, in CSS and attributes, but not in media queries", () => {
    const found = problems(
      page(
        "<style>@media (min-width: 600px) { .a { color: red } } .b { width: 500px }</style>",
        '<div style="min-width:400px"></div><img src="https://x.example/a.png" width="800">',
      ),
    );
    expect(found.sort()).toEqual([
      "min-width: 400px is wider than the 384 px paper",
      "width: 500px is wider than the 384 px paper",
      'width="800" is wider than the 384 px paper',
    ]);
  });

  it("warns about font sizes under 20 px (and under 15 pt)", () => {
    expect(
      problems(
        page(
          "<style>small { font-size: 12px } p { font-size: 20px } i { font-size: 14pt } b { font-size: 15pt }</style>",
          "",
        ),
      ),
    ).toEqual(["font-size: 12px is smaller than 20 px", "font-size: 14pt is smaller than 20 px"]);
  });
});

describe("descriptionWarnings", () => {
  it("accepts <strong>, <em>, <br> and <a>, and names any other tag", () => {
    expect(descriptionWarnings('A <strong>b</strong> <em>c</em><br><a href="https://x.example">d</a>', "f")).toEqual(
      [],
    );
    expect(descriptionWarnings("<p>Hi <img src=x> <b>there</b></p>", "f")[0]!.problem).toBe(
      "uses <p>, <img>, <b>; the platform shows only <strong>, <em>, <br> and <a>",
    );
  });
});

describe("PrintChecker over a whole build", () => {
  it("checks each shared <style> block once but still names every file, and finds problems outside it", async () => {
    const { PrintChecker } = await import("../../lib/build/print-checks.ts");
    const checker = new PrintChecker();
    const shared = "<style>small { font-size: 10px }</style>";
    expect(checker.check(page(shared, "<p>a</p>"), "a.md").map((w) => w.file)).toEqual(["a.md"]);
    expect(checker.check(page(shared, "<p>b</p>"), "b.md").map((w) => w.file)).toEqual(["b.md"]);
    expect(checker.check(page(shared, '<img src="x.png">'), "c.md").map((w) => w.problem)).toEqual([
      expect.stringMatching(/font-size: 10px/),
      expect.stringMatching(/"x\.png" is a relative URL/),
    ]);
  });
});

describe("the size budget", () => {
  it("warns once per file about an edition over the budget, and not about one under it", () => {
    const checker = new PrintChecker();
    const big = page("", `<p>${"word ".repeat(EDITION_BUDGET_BYTES / 5)}</p>`);
    const first = checker.check(big, "content/x/editions/a.md");
    expect(first).toEqual([
      expect.objectContaining({
        field: "size",
        problem: expect.stringMatching(/^the edition's page is 65 KiB, over the 64 KiB budget/),
      }),
    ]);
    expect(checker.check(big, "content/x/editions/a.md")).toEqual([]); // the same edition in another settings variant
    expect(checker.check(page("", "<p>short</p>"), "content/x/editions/b.md")).toEqual([]);
  });
});

describe("scripts and event handlers (issue 24)", () => {
  const found = (html: string) => printWarnings(html, "content/x/editions/a.md").map((w) => [w.field, w.problem]);

  it("warns about an inline <script>, naming the file and the fix", () => {
    const w = printWarnings(page("", "<p>x</p><script>document.title = 'x'</script>"), "content/x/editions/a.md");
    expect(w).toEqual([
      {
        file: "content/x/editions/a.md",
        field: "<script>",
        problem: "the page has an inline <script>",
        fix: "printers run no scripts; remove it",
      },
    ]);
    expect(found(page('<SCRIPT type="application/ld+json">{}</SCRIPT>', ""))).toEqual([
      ["<script>", "the page has an inline <script>"],
    ]);
  });

  it("warns about event handlers, however the tag is written", () => {
    expect(
      found(
        page(
          "",
          `<body onload="go()"><img alt="" ONERROR='x()'><a title="x"onclick="y">z</a><svg/onload=alert(1)>` +
            `<style onload="z()">p{}</style>`,
        ),
      ),
    ).toEqual([
      ["<body onload>", "onload= on <body> is an event handler, a script"],
      ["<img onerror>", "onerror= on <img> is an event handler, a script"],
      ["<a onclick>", "onclick= on <a> is an event handler, a script"],
      ["<svg onload>", "onload= on <svg> is an event handler, a script"],
      ["<style onload>", "onload= on <style> is an event handler, a script"],
    ]);
  });

  it("finds no script in text, comments, a script's own text, or data-on… attributes", () => {
    const html = page(
      "<style>p { content: '<script>' }</style>",
      "<p>I rely on=this, <code>&lt;script&gt;</code></p><!-- <script>x</script> -->" +
        '<p data-onclick="x" title="onclick=x">',
    );
    expect(found(html)).toEqual([]);
  });

  // Where node-html-parser and html-scan.ts (the kit's readers before parse5) read otherwise than a browser
  // (test/unit/html-readers.test.ts).
  it("finds scripts and handlers as a browser reads the page (parse5)", () => {
    const html = page(
      "",
      "<script>x</script ><p onclick=go()>a</p><svg><script>y()</script></svg>" +
        '<title><b title="</title><img onerror=z()>">t</b></title><template><i onmouseover=w()></i></template>',
    );
    expect(found(html)).toEqual([
      ["<script>", "the page has an inline <script>"],
      ["<p onclick>", "onclick= on <p> is an event handler, a script"],
      ["<img onerror>", "onerror= on <img> is an event handler, a script"],
      ["<i onmouseover>", "onmouseover= on <i> is an event handler, a script"],
    ]);
  });
});
