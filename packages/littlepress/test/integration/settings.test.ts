// Subscriber settings end to end: /validate_config/ and per-subscriber editions,
// through the real handlers, against test/fixtures/basic/settings.
import { beforeAll, describe, expect, it } from "vitest";
import { getEdition, postConfig, postConfigForm, useSite } from "../helpers/handlers.ts";

beforeAll(() => useSite("basic"));

const VALIDATE = "/settings/validate_config/";

async function answer(res: Response) {
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = (await res.json()) as { valid: unknown; errors?: unknown };
  expect(typeof body.valid).toBe("boolean");
  if (body.valid === false) {
    expect(Array.isArray(body.errors)).toBe(true);
    for (const e of body.errors as unknown[]) expect(typeof e).toBe("string");
  } else expect(body).toEqual({ valid: true });
  return { status: res.status, ...body } as { status: number; valid: boolean; errors?: string[] };
}

describe("/validate_config/", () => {
  it("accepts good values posted as the platform posts them, with or without the slash", async () => {
    expect(await answer(await postConfigForm(VALIDATE, { lang: "fr", size: "l", name: "Ada" }))).toEqual({
      status: 200,
      valid: true,
    });
    expect(await answer(await postConfigForm("/settings/validate_config", { lang: "en", size: "s" }))).toEqual({
      status: 200,
      valid: true,
    });
  });

  it("accepts multipart forms and JSON bodies", async () => {
    const form = new FormData();
    form.set("config", JSON.stringify({ lang: "en", size: "s" }));
    expect((await answer(await postConfig(VALIDATE, form))).valid).toBe(true);
    const json = JSON.stringify({ config: { lang: "en", size: "s" } });
    expect((await answer(await postConfig(VALIDATE, json, { "content-type": "application/json" }))).valid).toBe(true);
  });

  it("lists one error per bad field, in field order, naming the label and what is acceptable", async () => {
    const res = await answer(
      await postConfigForm(VALIDATE, { code: "abc", name: "x".repeat(21), size: "xl", lang: "de" }),
    );
    expect(res.status).toBe(200);
    expect(res.errors).toEqual([
      "Language: choose English or Français.",
      "Size: choose Small or Large.",
      "Your name: use at most 20 characters.",
      "Code: use three capital letters, like ABC.",
    ]);
  });

  it("asks for a required field that is missing or empty", async () => {
    expect((await answer(await postConfigForm(VALIDATE, { lang: "en" }))).errors).toEqual([
      "Size: choose Small or Large.",
    ]);
    expect((await answer(await postConfigForm(VALIDATE, { lang: "en", size: "" }))).errors).toEqual([
      "Size: choose Small or Large.",
    ]);
  });

  it("rejects unknown keys by name, and non-string values", async () => {
    const res = await answer(await postConfigForm(VALIDATE, { lang: "en", size: "s", colour: "red" }));
    expect(res.errors).toEqual(['Unknown setting "colour": this publication does not ask for it.']);
    for (const bad of [42, null, ["en"], { a: 1 }, true]) {
      const r = await answer(await postConfigForm(VALIDATE, { lang: "en", size: "s", name: bad }));
      expect(r.valid).toBe(false);
      expect(r.errors?.[0]).toMatch(/^Your name: must be text/);
    }
  });

  it("keeps __proto__ and constructor harmless", async () => {
    const res = await answer(
      await postConfigForm(VALIDATE, '{"lang":"en","size":"s","__proto__":{"polluted":true},"constructor":"x"}'),
    );
    expect(res.valid).toBe(false);
    expect(res.errors).toEqual([
      'Unknown setting "__proto__": this publication does not ask for it.',
      'Unknown setting "constructor": this publication does not ask for it.',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await answer(await postConfigForm(VALIDATE, { lang: "en", size: "s" }))).valid).toBe(true);
  });

  it("counts emoji and right-to-left text as characters", async () => {
    const name = "👩‍🚀".repeat(2) + "مرحبا";
    expect((await answer(await postConfigForm(VALIDATE, { lang: "en", size: "s", name }))).valid).toBe(true);
  });

  it("answers malformed requests with 400, 413 and 405 in the same JSON shape", async () => {
    const noConfig = await answer(
      await postConfig(VALIDATE, "other=1", { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(noConfig).toMatchObject({ status: 400, valid: false });
    expect(noConfig.errors?.[0]).toMatch(/no "config"/);
    expect((await answer(await postConfigForm(VALIDATE, "{not json"))).status).toBe(400);
    for (const notObject of ["[]", "null", "42", '"text"'])
      expect((await answer(await postConfigForm(VALIDATE, notObject))).status).toBe(400);
    const huge = await answer(await postConfigForm(VALIDATE, { name: "x".repeat(17 * 1024) }));
    expect(huge.status).toBe(413);
    const get = await postConfig(VALIDATE, null, {}, "GET");
    expect(get.headers.get("allow")).toBe("POST");
    expect((await answer(get)).status).toBe(405);
  });

  it("accepts {} for a publication without fields, and refuses any key", async () => {
    expect((await answer(await postConfigForm("/serial/validate_config/", {}))).valid).toBe(true);
    expect((await answer(await postConfigForm("/serial/validate_config/", { a: "b" }))).valid).toBe(false);
  });
});

describe("editions per subscriber", () => {
  const edition = async (query: string) => {
    const res = await getEdition(`/settings/edition/?delivery_count=0&${query}`);
    expect(res.status).toBe(200);
    return { etag: res.headers.get("etag")!, html: await res.text() };
  };

  it("renders select and radio values into the edition", async () => {
    expect((await edition("lang=fr&size=l")).html).toContain("Bonjour");
    expect((await edition("lang=en&size=l")).html).toContain("Hello");
    expect((await edition("lang=en&size=l")).html).toContain("size l.");
  });

  it("fills text slots with the value, escaped, in text and attributes", async () => {
    // 20 characters at most (the field's max_length), hostile all the same.
    const { html } = await edition(`lang=en&size=s&name=${encodeURIComponent(`<script>"&'`)}`);
    expect(html).toContain(`<b title="&lt;script&gt;&quot;&amp;&#39;">&lt;script&gt;&quot;&amp;&#39;</b>`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("\u27E6");
  });

  it("falls back to defaults for missing, unknown or unusable values", async () => {
    const bare = await edition("");
    expect(bare.html).toContain('Hello <b title="friend">friend</b>, size s.');
    expect((await edition("lang=de&size=xxl")).etag).toBe(bare.etag);
    // Under the query limit, over max_length.
    expect((await edition(`name=${"x".repeat(8000)}`)).html).toContain(">friend<");
  });

  it("gives two subscribers two ETags, and one subscriber the same ETag each time", async () => {
    const ada = await edition("lang=en&size=s&name=Ada");
    const bob = await edition("lang=en&size=s&name=Bob");
    const fr = await edition("lang=fr&size=s&name=Ada");
    expect(new Set([ada.etag, bob.etag, fr.etag]).size).toBe(3);
    expect((await edition("lang=en&size=s&name=Ada")).etag).toBe(ada.etag);
    for (const e of [ada, bob, fr]) expect(e.etag.startsWith('"0-')).toBe(true);
  });

  it("prints emoji and right-to-left names intact", async () => {
    const name = "👩‍🚀 مرحبا";
    expect((await edition(`name=${encodeURIComponent(name)}`)).html).toContain(name);
  });
});
