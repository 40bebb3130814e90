import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { ConfigField } from "../../lib/config-fields.ts";
import { compileConfigValidator } from "../../lib/config-validator.ts";
import type { EditionDecision } from "../../lib/edition-route.ts";
import { editionEtag, filledEtag } from "../../lib/etag.ts";
import { editionResponse, jsonResponse, noEdition, REASON_HEADER } from "../../lib/http.ts";
import type { Manifest } from "../../lib/manifest.ts";
import type { PublishedPublication } from "../../lib/publication-store.ts";
import { slotToken } from "../../lib/text-slots.ts";

const NAME: ConfigField = { type: "text", name: "name", label: "Name", required: false };

function pub(html: string, charset = "utf-8", fields: ConfigField[] = []): PublishedPublication {
  const manifest: Manifest = { format: 1, slug: "t", by: "delivery_count", ends: true, charset, fields, keys: ["0"], sample: "0", editions: {} };
  return { manifest, validate: compileConfigValidator(fields), body: async () => html };
}

const ok = (etag: string, slots: boolean, values: [string, string][] = []): EditionDecision => ({ status: 200, key: "3", edition: { file: "3.html", etag, slots }, values: new Map(values) });

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
  it("passes a 204 or 410 decision through", async () => {
    expect((await editionResponse(pub("x"), { status: 204, reason: "r" }, "GET")).status).toBe(204);
    expect((await editionResponse(pub("x"), { status: 410, reason: "r" }, "GET")).status).toBe(410);
  });

  it("answers 200 with the ETag, a charset and the body", async () => {
    const etag = editionEtag("3", "", "<p>Hello</p>");
    const r = await editionResponse(pub("<p>Hello</p>"), ok(etag, false), "GET");
    expect(r.status).toBe(200);
    expect(r.headers.get("etag")).toBe(etag);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(await r.text()).toBe("<p>Hello</p>");
  });

  it("gives Content-Length in bytes, not characters", async () => {
    const r = await editionResponse(pub("<p>é😀</p>"), ok('"3-x"', false), "GET");
    expect(r.headers.get("content-length")).toBe(String(Buffer.byteLength("<p>é😀</p>")));
  });

  it("answers HEAD with the same headers and no body", async () => {
    const get = await editionResponse(pub("<p>Hello</p>"), ok('"3-x"', false), "GET");
    const head = await editionResponse(pub("<p>Hello</p>"), ok('"3-x"', false), "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(await head.text()).toBe("");
  });

  it("fills text slots escaped, and derives the ETag from the values", async () => {
    const prebuilt = '"3-prebuilt"';
    const html = `<p title="${slotToken("name")}">Hi ${slotToken("name")}</p>`;
    const r = await editionResponse(pub(html, "utf-8", [NAME]), ok(prebuilt, true, [["name", `<b>"Ada"</b>`]]), "GET");
    expect(await r.text()).toBe(`<p title="&lt;b&gt;&quot;Ada&quot;&lt;/b&gt;">Hi &lt;b&gt;&quot;Ada&quot;&lt;/b&gt;</p>`);
    expect(r.headers.get("etag")).toBe(filledEtag("3", prebuilt, [["name", `<b>"Ada"</b>`]]));
    const other = await editionResponse(pub(html, "utf-8", [NAME]), ok(prebuilt, true, [["name", "Bob"]]), "GET");
    expect(other.headers.get("etag")).not.toBe(r.headers.get("etag"));
  });

  it("encodes the body in the publication's charset and says so", async () => {
    const r = await editionResponse(pub("<p>東京 ☃</p>", "shift_jis"), ok('"3-x"', false), "GET");
    expect(r.headers.get("content-type")).toBe("text/html; charset=shift_jis");
    expect(iconv.decode(Buffer.from(await r.arrayBuffer()), "shift_jis")).toBe("<p>東京 &#x2603;</p>");
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
