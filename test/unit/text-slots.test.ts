import { describe, expect, it } from "vitest";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import {
  cutAtSlots,
  escapeHtml,
  fillSlots,
  hasSlots,
  slotMisuse,
  slotText,
  slotToken,
} from "../../lib/model/text-slots.ts";

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

describe("slotMisuse", () => {
  it("is happy with intact markers in text and in quoted attributes", () => {
    expect(slotMisuse(`<p title="${NAME}">Hello ${NAME} from ${CITY}</p><img alt='${CITY}'>`, FIELDS)).toEqual([]);
    expect(slotMisuse("<p>no settings used</p>", FIELDS)).toEqual([]);
  });

  it("is happy with <script> and <style> blocks that contain no marker", () => {
    expect(slotMisuse(`<style>p{color:black}</style><p>${NAME}</p><script>var a = 1;</script>`, FIELDS)).toEqual([]);
  });

  it("detects an upper-cased marker (an upcase filter)", () => {
    const problems = slotMisuse(`<p>${NAME.toUpperCase()}</p>`, FIELDS);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/changed by a filter/);
  });

  it("detects a truncated marker (a slice or truncate filter)", () => {
    expect(slotMisuse(`<p>${NAME.slice(0, 8)}…</p>`, FIELDS)).toHaveLength(1);
    expect(slotMisuse(`<p>${NAME.slice(3)}</p>`, FIELDS)).toHaveLength(1);
    expect(slotMisuse(`<p>${NAME.slice(0, -1)}</p>`, FIELDS)).toHaveLength(1);
  });

  it("detects a marker doubled into another (a replace filter)", () => {
    expect(slotMisuse(`<p>${NAME.replace("name", "nam")}</p>`, FIELDS)).toHaveLength(1);
  });

  it("detects a marker of a name that is not a text field", () => {
    expect(slotMisuse(`<p>${slotToken("lang")}</p>`, FIELDS)).toHaveLength(1);
    expect(slotMisuse(`<p>${slotToken("unknown")}</p>`, FIELDS)).toHaveLength(1);
  });

  it("detects a marker inside <script>", () => {
    const problems = slotMisuse(`<p>${NAME}</p><script>var n = "${NAME}";</script>`, FIELDS);
    expect(problems).toEqual([expect.stringContaining("inside <script>")]);
  });

  it("detects a marker inside <style>", () => {
    const problems = slotMisuse(`<style>p::before { content: "${CITY}" }</style>`, FIELDS);
    expect(problems).toEqual([expect.stringContaining("inside <style>")]);
  });

  it("detects a marker inside upper-case or attributed script tags", () => {
    expect(slotMisuse(`<SCRIPT type="module">x("${NAME}")</Script >`, FIELDS)).toEqual([
      expect.stringContaining("inside <script>"),
    ]);
  });

  it("reports one problem per block", () => {
    const html = `<script>"${NAME}"</script><p>${NAME}</p><style>/*${CITY}*/</style><script>"${CITY}"</script>`;
    expect(slotMisuse(html, FIELDS)).toHaveLength(3);
  });

  it("reports both a mangled marker and a script block", () => {
    expect(slotMisuse(`<p>${NAME.toUpperCase()}</p><script>"${NAME}"</script>`, FIELDS)).toHaveLength(2);
  });
});

describe("slotMisuse inside tags", () => {
  it("refuses a text setting in an unquoted attribute or loose in a tag, and in an unclosed <script>", () => {
    const [misuse, token] = [slotMisuse, slotToken];
    const fields: ConfigField[] = [{ type: "text", name: "who", label: "Who", required: false }];
    expect(misuse(`<img alt=${token("who")}>`, fields)).toEqual([expect.stringMatching(/inside a tag without quotes/)]);
    expect(misuse(`<img ${token("who")}>`, fields)).toEqual([expect.stringMatching(/inside a tag without quotes/)]);
    expect(misuse(`<img alt="${token("who")}" title='${token("who")}'>`, fields)).toEqual([]);
    expect(misuse(`<p>x</p><script>var a = "${token("who")}"`, fields)).toEqual([
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
