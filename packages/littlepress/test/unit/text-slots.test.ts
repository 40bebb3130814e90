import { describe, expect, it } from "vitest";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { escapeHtml } from "../../lib/model/html-escape.ts";
import { slotMisuse } from "../../lib/build/slot-misuse.ts";
import { cutAtSlots, fillSlots, hasSlots, slotText, slotToken } from "../../lib/model/text-slots.ts";

const FIELDS: ConfigField[] = [
  { type: "text", name: "name", label: "Name", required: false },
  { type: "text", name: "city", label: "City", required: false },
  { type: "select", name: "lang", label: "Language", required: true, options: [["English", "en"]] },
];

const NAME = slotToken("name");
const CITY = slotToken("city");

describe("slotToken / hasSlots", () => {
  it("makes a marker that hasSlots finds", () => {
    expect(NAME).toBe("\u27E6littlepress:name\u27E7");
    expect(hasSlots(`<p>Hello ${NAME}</p>`)).toBe(true);
    expect(hasSlots("<p>Hello friend</p>")).toBe(false);
  });

  it("survives HTML escaping unchanged", () => {
    expect(escapeHtml(NAME)).toBe(NAME);
  });
});

describe("escapeHtml", () => {
  it("escapes the five HTML-special characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});

describe("fillSlots", () => {
  it("fills each slot with its value", () => {
    const html = `<p>Hello ${NAME} from ${CITY}. Bye ${NAME}!</p>`;
    expect(
      fillSlots(
        html,
        new Map([
          ["name", "Ada"],
          ["city", "Paris"],
        ]),
      ),
    ).toBe("<p>Hello Ada from Paris. Bye Ada!</p>");
  });

  it("escapes <script>", () => {
    const out = fillSlots(`<p>${NAME}</p>`, new Map([["name", "<script>alert(1)</script>"]]));
    expect(out).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(out).not.toContain("<script");
  });

  it("escapes quotes, & and ' so a value cannot leave a quoted attribute", () => {
    const out = fillSlots(`<img alt="${NAME}" title='${NAME}'>`, new Map([["name", `a" onerror="x' &amp;`]]));
    expect(out).toBe(
      `<img alt="a&quot; onerror=&quot;x&#39; &amp;amp;" title='a&quot; onerror=&quot;x&#39; &amp;amp;'>`,
    );
  });

  it("turns unknown slot names into an empty string", () => {
    expect(fillSlots(`<p>[${slotToken("nope")}]</p>`, new Map([["name", "Ada"]]))).toBe("<p>[]</p>");
    expect(fillSlots(`<p>[${NAME}]</p>`, new Map())).toBe("<p>[]</p>");
  });

  it("does not re-expand a marker that is inside a subscriber's value", () => {
    const out = fillSlots(
      `<p>${NAME} ${CITY}</p>`,
      new Map([
        ["name", CITY],
        ["city", "<b>"],
      ]),
    );
    expect(out).toBe(`<p>${CITY.replace("\u27E6", "&#x27e6;").replace("\u27E7", "&#x27e7;")} &lt;b&gt;</p>`);
  });

  it("does not treat $-patterns in a value as replacement patterns", () => {
    expect(fillSlots(`<p>${NAME}</p>`, new Map([["name", "$& $1 $$ $`"]]))).toBe("<p>$&amp; $1 $$ $`</p>");
  });

  it("leaves HTML without slots untouched", () => {
    const html = "<p>Tom &amp; Jerry</p>";
    expect(fillSlots(html, new Map([["name", "x"]]))).toBe(html);
  });
});

describe("cutAtSlots", () => {
  const page = `<p title="${NAME}">Hi ${NAME} from ${CITY}, ${slotToken("other")}</p>`;
  const values = new Map([
    ["name", "<Zoë> & \u27E6littlepress:city\u27E7"],
    ["city", "Tromsø"],
  ]);

  it("cuts a page at each slot, in order, with the text around them", () => {
    expect(cutAtSlots(page)).toEqual({
      pieces: ['<p title="', '">Hi ', " from ", ", ", "</p>"],
      names: ["name", "name", "city", "other"],
    });
    expect(cutAtSlots("<p>none</p>")).toEqual({ pieces: ["<p>none</p>"], names: [] });
  });

  it("joined with each value's slotText, gives fillSlots' page", () => {
    const { pieces, names } = cutAtSlots(page);
    const joined = pieces.reduce(
      (out, piece, i) => out + piece + (i < names.length ? slotText(values.get(names[i]!) ?? "") : ""),
      "",
    );
    expect(joined).toBe(fillSlots(page, values));
    expect(joined).toContain("&lt;Zoë&gt; &amp; &#x27e6;littlepress:city&#x27e7;");
  });
});

/** slotMisuse's problems, as sentences. */
const misuse = (html: string, fields = FIELDS) => slotMisuse(html, fields).map((m) => m.problem);

describe("slotMisuse", () => {
  it("is happy with intact markers in text and in quoted attributes", () => {
    expect(misuse(`<p title="${NAME}">Hello ${NAME} from ${CITY}</p><img alt='${CITY}'>`)).toEqual([]);
    expect(misuse("<p>no settings used</p>")).toEqual([]);
  });

  it("is happy with <script> and <style> blocks that contain no marker", () => {
    expect(misuse(`<style>p{color:black}</style><p>${NAME}</p><script>var a = 1;</script>`)).toEqual([]);
  });

  it("detects an upper-cased marker (an upcase filter)", () => {
    const problems = slotMisuse(`<p>${NAME.toUpperCase()}</p>`, FIELDS);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.problem).toMatch(/changed by a filter/);
    expect(problems[0]!.field).toBe("config"); // which setting it was cannot be told
  });

  it("detects a truncated marker (a slice or truncate filter)", () => {
    expect(misuse(`<p>${NAME.slice(0, 8)}…</p>`)).toHaveLength(1);
    expect(misuse(`<p>${NAME.slice(3)}</p>`)).toHaveLength(1);
    expect(misuse(`<p>${NAME.slice(0, -1)}</p>`)).toHaveLength(1);
  });

  it("detects a marker doubled into another (a replace filter)", () => {
    expect(misuse(`<p>${NAME.replace("name", "nam")}</p>`)).toHaveLength(1);
  });

  it("detects a marker of a name that is not a text field", () => {
    expect(misuse(`<p>${slotToken("lang")}</p>`)).toHaveLength(1);
    expect(misuse(`<p>${slotToken("unknown")}</p>`)).toHaveLength(1);
  });

  it("detects a marker inside <script>, naming the setting", () => {
    const problems = slotMisuse(`<p>${NAME}</p><script>var n = "${NAME}";</script>`, FIELDS);
    expect(problems).toEqual([
      expect.objectContaining({ field: "config.name", problem: expect.stringContaining("inside <script>") }),
    ]);
  });

  it("detects a marker inside <style>", () => {
    const problems = misuse(`<style>p::before { content: "${CITY}" }</style>`);
    expect(problems).toEqual([expect.stringContaining("inside <style>")]);
  });

  it("detects a marker inside upper-case or attributed script tags", () => {
    expect(misuse(`<SCRIPT type="module">x("${NAME}")</Script >`)).toEqual([
      expect.stringContaining("inside <script>"),
    ]);
  });

  it("reports one problem per setting and place", () => {
    const html = `<script>"${NAME}"</script><p>${NAME}</p><style>/*${CITY}*/</style><script>"${CITY}"</script>`;
    expect(misuse(html)).toHaveLength(3);
    expect(misuse(`<script>"${NAME}"</script><script>"${NAME}"</script>`)).toHaveLength(1);
  });

  it("reports both a mangled marker and a script block", () => {
    expect(misuse(`<p>${NAME.toUpperCase()}</p><script>"${NAME}"</script>`)).toHaveLength(2);
  });
});

describe("slotMisuse inside tags", () => {
  it("refuses a text setting in an unquoted attribute or loose in a tag, and in an unclosed <script>", () => {
    const token = slotToken;
    const fields: ConfigField[] = [{ type: "text", name: "who", label: "Who", required: false }];
    expect(misuse(`<img alt=${token("who")}>`, fields)).toEqual([expect.stringMatching(/inside a tag without quotes/)]);
    expect(misuse(`<img ${token("who")}>`, fields)).toEqual([expect.stringMatching(/inside a tag without quotes/)]);
    expect(misuse(`<img alt="${token("who")}" title='${token("who")}'>`, fields)).toEqual([]);
    expect(misuse(`<p>x</p><script>var a = "${token("who")}"`, fields)).toEqual([
      expect.stringMatching(/inside <script>/),
    ]);
  });
});

describe("slotMisuse and attributes (issue 24)", () => {
  const WHO = slotToken("who");
  const fields: ConfigField[] = [{ type: "text", name: "who", label: "Who", required: false }];
  const refused = (html: string) => slotMisuse(html, fields);

  it("lets a text setting be printed in a quoted title, alt, class, placeholder, aria-* or data-* attribute", () => {
    const html =
      `<p title="${WHO}" class='big ${WHO}' data-who="${WHO}" aria-label="Hi ${WHO}">${WHO}</p>` +
      `<img alt="${WHO}" src="https://x.example/a.png"><input placeholder="${WHO}"><P TITLE="${WHO}">`;
    expect(refused(html)).toEqual([]);
  });

  it.each([
    ["href", `<a href="${WHO}">x</a>`, /the href attribute of <a>, which holds a URL: .*javascript: URL/],
    ["a URL's query", `<a href="https://x.example/?q=${WHO}">x</a>`, /the href attribute of <a>, which holds a URL/],
    ["upper-case HREF", `<a HREF='${WHO}'>x</a>`, /the href attribute of <a>/],
    ["src", `<img alt="" src="${WHO}">`, /the src attribute of <img>, which holds a URL/],
    ["srcset", `<img srcset="${WHO} 2x">`, /the srcset attribute of <img>, which holds a URL/],
    ["action", `<form action="${WHO}"></form>`, /the action attribute of <form>, which holds a URL/],
    ["formaction", `<button formaction="${WHO}">x</button>`, /the formaction attribute of <button>/],
    ["xlink:href", `<svg><a xlink:href="${WHO}"><text>x</text></a></svg>`, /the xlink:href attribute of <a>/],
    ["poster", `<video poster="${WHO}"></video>`, /the poster attribute of <video>, which holds a URL/],
    ["object data", `<object data="${WHO}"></object>`, /the data attribute of <object>, which holds a URL/],
    ["background", `<body background="${WHO}">`, /the background attribute of <body>, which holds a URL/],
    ["onclick", `<p onclick="greet('${WHO}')">x</p>`, /the onclick attribute of <p>, an event handler: .*JavaScript/],
    ["onerror", `<img alt="" onerror="${WHO}">`, /the onerror attribute of <img>, an event handler/],
    ["srcdoc", `<iframe srcdoc="<p>${WHO}</p>"></iframe>`, /the srcdoc attribute of <iframe>, which is a page of HTML/],
    ["style", `<p style="background: url(${WHO})">x</p>`, /the style attribute of <p>, which is CSS/],
    [
      "meta content",
      `<meta http-equiv="refresh" content="0; url=${WHO}">`,
      /the content attribute of <meta>, which may/,
    ],
    ["SVG animate", `<svg><animate attributeName="href" to="${WHO}"/></svg>`, /the to attribute of <animate>/],
    ["any other attribute", `<p id="${WHO}">x</p>`, /the id attribute of <p>, which may not hold a text setting/],
  ])("refuses a text setting in %s, naming the setting and the fix", (_, html, problem) => {
    expect(refused(html)).toEqual([
      {
        field: "config.who",
        problem: expect.stringMatching(problem),
        fix: expect.stringMatching(/^print it in the page text, or in a quoted title, alt, class, .*data-\* attribute/),
      },
    ]);
  });

  it("refuses an unquoted href as a URL, not only as unquoted", () => {
    expect(refused(`<a href=${WHO}>x</a>`).map((m) => m.problem)).toEqual([
      expect.stringMatching(/the href attribute of <a>, which holds a URL/),
    ]);
  });

  it("reads the tag as a browser does: a quoted '>' does not end it, nor a missing space end an attribute", () => {
    expect(refused(`<a title="a > b" href="${WHO}">x</a>`)).toHaveLength(1);
    expect(refused(`<a title="x"href="${WHO}">x</a>`)).toHaveLength(1);
    expect(refused(`<a title="x"/href="${WHO}">x</a>`)).toHaveLength(1);
    expect(refused(`<a title='"' href="${WHO}">x</a>`)).toHaveLength(1);
    expect(refused(`<a title="'" class="${WHO}">x</a>`)).toEqual([]);
  });

  it("allows a text setting in a comment, in <textarea> and <title> text, and after a closed <script>", () => {
    expect(refused(`<!-- <a href="${WHO}"> --><textarea>${WHO}</textarea><title>${WHO}</title>`)).toEqual([]);
    expect(refused(`<script>var a = 1;</script><p>${WHO}</p><style>p{}</style>${WHO}`)).toEqual([]);
  });

  it("refuses markup that is text in HTML but a tag inside <svg>, and the other way round", () => {
    // In SVG, <title> holds markup: the <a> is a link.
    expect(refused(`<svg><title><a href="${WHO}">x</a></title></svg>`)).toHaveLength(1);
    // In HTML, <title> ends at </title>, inside what SVG would read as a quoted title attribute.
    expect(refused(`<title><b title="</title><a href=${WHO}>">x</b></title>`)).toHaveLength(1);
    // In HTML a CDATA section is a bogus comment that ends at the first ">".
    expect(refused(`<![CDATA[ > <a href="${WHO}"> ]]>`)).toHaveLength(1);
  });

  it("follows a script's <!-- <script> … </script> -->, where the inner </script> does not end it", () => {
    expect(refused(`<script><!-- <script></script> ${WHO} --></script>`).map((m) => m.problem)).toEqual([
      expect.stringMatching(/inside <script>/),
    ]);
  });
});

describe("fillSlots and look-alike markers", () => {
  it("escapes a value that looks like a slot, so it prints as text and is never filled again", () => {
    const filled = fillSlots(`<p>${slotToken("who")}</p>`, new Map([["who", slotToken("who")]]));
    expect(filled).toBe("<p>&#x27e6;littlepress:who&#x27e7;</p>");
    expect(hasSlots(filled)).toBe(false);
  });
});

// The page is read as a browser reads it (parse5, lib/build/slot-places.ts), where html-scan.ts read
// it twice, as HTML and as SVG content, and node-html-parser misread it (test/unit/html-readers.test.ts).
describe("slotMisuse reads the page as a browser does", () => {
  const WHO = slotToken("who");
  const fields: ConfigField[] = [{ type: "text", name: "who", label: "Who", required: false }];
  const refused = (html: string) => slotMisuse(html, fields).map((m) => m.problem);

  it("reads <noscript> both ways: as text with scripts, as markup without", () => {
    expect(refused(`<noscript>${WHO}</noscript>`)).toEqual([]);
    expect(refused(`<noscript><a href="${WHO}">x</a></noscript>`)).toEqual([
      expect.stringMatching(/the href attribute of <a>/),
    ]);
    expect(refused(`<noscript><p title="</noscript><a href=${WHO}>">x</p></noscript>`)).toEqual([
      expect.stringMatching(/the href attribute of <a>/),
    ]);
  });

  it("finds a slot in a <script> inside <svg>, in <template>, and in a second <body>'s attributes", () => {
    expect(refused(`<svg><script>var a = "${WHO}";</script></svg>`)).toEqual([
      expect.stringMatching(/inside <script>/),
    ]);
    expect(refused(`<template><a href="${WHO}">x</a></template>`)).toEqual([expect.stringMatching(/href/)]);
    expect(refused(`<body><p>x</p><body onload="${WHO}">`)).toEqual([
      expect.stringMatching(/the onload attribute of <body>, an event handler/),
    ]);
    expect(refused(`<svg/onload="${WHO}">`)).toEqual([expect.stringMatching(/the onload attribute of <svg>/)]);
  });

  it("tells a quoted plain-text attribute from an unquoted one, and refuses a slot in an end tag", () => {
    expect(refused(`<p class="${WHO}" title='a ${WHO}'>x</p>`)).toEqual([]);
    expect(refused(`<p class=${WHO}>x</p>`)).toEqual([expect.stringMatching(/inside a tag without quotes \(<p>\)/)]);
    expect(refused(`<p>x</p ${WHO}>`)).toEqual([expect.stringMatching(/inside a tag without quotes \(<p>\)/)]);
  });

  it("allows a slot in text html-scan.ts also read as markup, and refuses one in a tag a browser drops", () => {
    // <iframe>, <xmp> and <plaintext> hold text in HTML (html-scan.ts read them as SVG content too).
    expect(refused(`<iframe><a href="${WHO}"></iframe><xmp><a href="${WHO}"></xmp>`)).toEqual([]);
    // A tag the page ends inside is dropped: its slot is refused, as loose in the tag.
    expect(refused(`<p title="${WHO}`)).toEqual([expect.stringMatching(/without quotes \(<p>\)/)]);
  });

  it("reads a slot once where the tree copies it (a misnested <b> is made again inside the <p>)", () => {
    expect(refused(`<b title="${WHO}"><p>x</b>y</p>`)).toEqual([]);
    expect(refused(`<b title=${WHO}><p>x</b>y</p>`)).toEqual([expect.stringMatching(/without quotes \(<b>\)/)]);
  });
});
