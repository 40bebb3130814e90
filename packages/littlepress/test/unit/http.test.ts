import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { ConfigField } from "../../lib/model/config-fields.ts";
import { compileConfigValidator } from "../../lib/model/config-validator.ts";
import { decideEdition, type EditionDecision } from "../../lib/edge/edition-route.ts";
import { editionEtag, filledEtag } from "../../lib/model/etag.ts";
import { editionAnswer, noEditionAnswer, REASON_HEADER, toResponse } from "../../lib/edge/edition-answer.ts";
import { jsonResponse } from "../../lib/edge/http.ts";
import { packPublication } from "../../lib/build/pack.ts";
import { publishedFromMemory, type PublishedPublication } from "../../lib/edge/publication-store.ts";
import type { PublicationSource } from "../../lib/build/site.ts";
import { slotToken } from "../../lib/model/text-slots.ts";

// The answers as the Response a Netlify function returns (editionEndpoint's handler does the same).
const noEdition = (status: 204 | 410, reason: string) => toResponse(noEditionAnswer(status, reason));
const editionResponse = (pub: PublishedPublication, d: EditionDecision, method: string) =>
  toResponse(editionAnswer(pub, d, method));

const NAME: ConfigField = { type: "text", name: "name", label: "Name", required: false };
const PLAIN = { id: "", values: {} };

function source(charset: string, fields: ConfigField[]): PublicationSource {
  return {
    slug: "t",
    name: "T",
    description: "D",
    owner_email: "t@example.com",
    delivered_on: "Daily",
    publication_api_version: "1.0",
    external_configuration: false,
    charset,
    fields,
    strict_variables: true,
    markdown: { breaks: false },
    editions: {
      by: "delivery_count",
      ends: true,
      list: [{ key: "3", file: "content/t/editions/3.md", data: { number: 3 }, body: "", bodyLine: 4 }],
    },
    sampleKey: "3",
  };
}

/** A publication of one edition, 3, with this HTML. */
function pub(html = "<p>stored</p>", charset = "utf-8", fields: ConfigField[] = []): PublishedPublication {
  return publishedFromMemory(
    packPublication(source(charset, fields), [{ source: "content/t/editions/3.md", key: "3", variant: PLAIN, html }]),
    { codec: iconv, validate: compileConfigValidator(fields) },
  );
}

/** A publication that only lends editionResponse its charset and fields: the HTML comes with the decision. */
const settings = (charset = "utf-8", fields: ConfigField[] = []) => pub("<p>not this</p>", charset, fields);

const ok = (html: string, etag: string, slots: boolean, values: [string, string][] = []): EditionDecision => ({
  status: 200,
  key: "3",
  etag,
  html,
  slots,
  values: new Map(values),
  copy: { body: "0", etag, slots },
});

describe("noEdition", () => {
  it("answers 204 with no body and a reason", async () => {
    const r = noEdition(204, "no edition for 3");
    expect(r.status).toBe(204);
    expect(r.headers.get(REASON_HEADER)).toBe("no edition for 3");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("etag")).toBeNull();
    expect(await r.text()).toBe("");
  });

  it("answers 410 with an empty body", async () => {
    const r = noEdition(410, "ended");
    expect(r.status).toBe(410);
    expect(r.headers.get("content-length")).toBe("0");
    expect(await r.text()).toBe("");
  });
});

describe("editionResponse", () => {
  it("answers at once, without reading anything", () => {
    expect(editionResponse(settings(), ok("<p>x</p>", '"3-x"', false), "GET")).toBeInstanceOf(Response);
  });

  it("passes a 204 or 410 decision through", async () => {
    const gone = editionResponse(settings(), { status: 410, reason: "ended" }, "GET");
    expect(gone.status).toBe(410);
    expect(gone.headers.get(REASON_HEADER)).toBe("ended");
    expect(await gone.text()).toBe("");
    const none = editionResponse(settings(), { status: 204, reason: "r" }, "GET");
    expect(none.status).toBe(204);
    expect(none.headers.get(REASON_HEADER)).toBe("r");
  });

  it("answers 200 with the decision's ETag and body, and a charset", async () => {
    const etag = editionEtag("3", "", "<p>Hello</p>");
    const r = editionResponse(settings(), ok("<p>Hello</p>", etag, false), "GET");
    expect(r.status).toBe(200);
    expect(r.headers.get("etag")).toBe(etag);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get(REASON_HEADER)).toBeNull();
    expect(await r.text()).toBe("<p>Hello</p>");
  });

  it("gives Content-Length in bytes, not characters", () => {
    const r = editionResponse(settings(), ok("<p>é😀</p>", '"3-x"', false), "GET");
    expect(r.headers.get("content-length")).toBe(String(Buffer.byteLength("<p>é😀</p>")));
  });

  it("answers HEAD with the same headers and no body", async () => {
    const get = editionResponse(settings(), ok("<p>Hello</p>", '"3-x"', false), "GET");
    const head = editionResponse(settings(), ok("<p>Hello</p>", '"3-x"', false), "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(head.headers.get("content-length")).toBe("12");
    expect(await head.text()).toBe("");
  });

  it("fills text slots escaped, and derives the ETag from the values", async () => {
    const prebuilt = '"3-prebuilt"';
    const html = `<p title="${slotToken("name")}">Hi ${slotToken("name")}</p>`;
    const r = editionResponse(settings("utf-8", [NAME]), ok(html, prebuilt, true, [["name", `<b>"Ada"</b>`]]), "GET");
    expect(await r.text()).toBe(
      `<p title="&lt;b&gt;&quot;Ada&quot;&lt;/b&gt;">Hi &lt;b&gt;&quot;Ada&quot;&lt;/b&gt;</p>`,
    );
    expect(r.headers.get("etag")).toBe(filledEtag("3", prebuilt, [["name", `<b>"Ada"</b>`]]));
    const other = editionResponse(settings("utf-8", [NAME]), ok(html, prebuilt, true, [["name", "Bob"]]), "GET");
    expect(other.headers.get("etag")).not.toBe(r.headers.get("etag"));
  });

  it("leaves the HTML and the ETag alone when the copy has no slots", async () => {
    const r = editionResponse(settings("utf-8", [NAME]), ok("<p>Hi</p>", '"3-plain"', false, [["name", "Ada"]]), "GET");
    expect(r.headers.get("etag")).toBe('"3-plain"');
    expect(await r.text()).toBe("<p>Hi</p>");
  });

  it("encodes the body in the publication's charset and says so", async () => {
    const r = editionResponse(settings("shift_jis"), ok("<p>東京 ☃</p>", '"3-x"', false), "GET");
    expect(r.headers.get("content-type")).toBe("text/html; charset=shift_jis");
    expect(iconv.decode(Buffer.from(await r.arrayBuffer()), "shift_jis")).toBe("<p>東京 &#x2603;</p>");
    expect(r.headers.get("content-length")).toBe(String(iconv.encode("<p>東京 &#x2603;</p>", "shift_jis").length));
  });

  it("serves what decideEdition found in a packed publication", async () => {
    const html = `<p>Hi ${slotToken("name")}</p>`;
    const p = pub(html, "utf-8", [NAME]);
    const d = await decideEdition(p, new URLSearchParams("delivery_count=3&name=Ada"), new Date());
    const r = editionResponse(p, d, "GET");
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("<p>Hi Ada</p>");
    expect(r.headers.get("etag")).toBe(filledEtag("3", editionEtag("3", "", html), [["name", "Ada"]]));
    const missing = editionResponse(
      p,
      await decideEdition(p, new URLSearchParams("delivery_count=4"), new Date()),
      "GET",
    );
    expect(missing.status).toBe(410);
    expect(missing.headers.get(REASON_HEADER)).toContain("3");
  });
});

describe("jsonResponse", () => {
  it("sends JSON with a utf-8 charset", async () => {
    const r = jsonResponse({ valid: false, errors: ["Name: please fill this in."] });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await r.json()).toEqual({ valid: false, errors: ["Name: please fill this in."] });
  });

  it("takes a status and extra headers", () => {
    const r = jsonResponse({ error: "x" }, 413, { "X-Extra": "1" });
    expect(r.status).toBe(413);
    expect(r.headers.get("x-extra")).toBe("1");
  });
});
