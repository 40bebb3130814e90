import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, readConfigRequest, type ConfigRequest } from "../../lib/edge/config-request.ts";

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://x/", { method: "POST", body, headers });
}

const form = (body: string) => post(body, { "content-type": "application/x-www-form-urlencoded" });
const json = (body: string) => post(body, { "content-type": "application/json" });

async function config(req: Request): Promise<Record<string, unknown>> {
  const r = await readConfigRequest(req);
  if ("error" in r) throw new Error(`unexpected error ${r.status}: ${r.error}`);
  return r.config;
}

async function failure(req: Request): Promise<{ error: string; status: number }> {
  const r: ConfigRequest = await readConfigRequest(req);
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r.config)}`);
  expect(typeof r.error).toBe("string");
  expect(r.error.length).toBeGreaterThan(0);
  return r;
}

function multipartBody(boundary: string, parts: [name: string, value: string][]): string {
  return (
    parts
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("") + `--${boundary}--\r\n`
  );
}

/** A body stream that never ends unless the reader stops; counts what was pulled. */
function endless(chunk = 1024): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk;
      controller.enqueue(new Uint8Array(chunk).fill(0x61));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

const streamed = (stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://x/", { method: "POST", body: stream, headers, duplex: "half" } as RequestInit & {
    duplex: "half";
  });

describe("readConfigRequest: url-encoded forms", () => {
  it("reads the config field as the platform sends it", async () => {
    const body = new URLSearchParams({ config: '{"lang":"en","name":"Phil"}' }).toString();
    expect(await config(form(body))).toEqual({ lang: "en", name: "Phil" });
  });

  it("reads UTF-8 values and ignores other form fields", async () => {
    const body = new URLSearchParams({ other: "x", config: '{"name":"Zoë 😀","city":"東京"}' }).toString();
    expect(await config(form(body))).toEqual({ name: "Zoë 😀", city: "東京" });
  });

  it("accepts a content type with a charset parameter and in upper case", async () => {
    const body = new URLSearchParams({ config: '{"a":"b"}' }).toString();
    expect(await config(post(body, { "content-type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8" }))).toEqual({
      a: "b",
    });
  });

  it("reads a form without a content type", async () => {
    expect(await config(post(new URLSearchParams({ config: '{"a":"b"}' }).toString()))).toEqual({ a: "b" });
  });

  it("reads a URLSearchParams body (content type set by fetch)", async () => {
    expect(await config(post(new URLSearchParams({ config: '{"a":"b"}' })))).toEqual({ a: "b" });
  });

  it("accepts an empty object", async () => {
    expect(await config(form("config=%7B%7D"))).toEqual({});
  });

  it("keeps a __proto__ key as an own key without polluting Object.prototype", async () => {
    const c = await config(form(new URLSearchParams({ config: '{"__proto__": {"polluted": 1}}' }).toString()));
    expect(Object.keys(c)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("readConfigRequest: multipart forms", () => {
  it("reads a FormData body", async () => {
    const fd = new FormData();
    fd.set("config", '{"lang":"fr"}');
    expect(await config(post(fd))).toEqual({ lang: "fr" });
  });

  it("reads a config sent as a file part", async () => {
    const fd = new FormData();
    fd.set("config", new Blob(['{"lang":"fr"}'], { type: "application/json" }), "config.json");
    expect(await config(post(fd))).toEqual({ lang: "fr" });
  });

  it("reads a hand-built multipart body with a lower-case boundary", async () => {
    const b = "----boundary123";
    expect(
      await config(
        post(multipartBody(b, [["config", '{"a":"b"}']]), { "content-type": `multipart/form-data; boundary=${b}` }),
      ),
    ).toEqual({ a: "b" });
  });

  it("reads a multipart body with a mixed-case boundary, as browsers send it", async () => {
    const b = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    expect(
      await config(
        post(multipartBody(b, [["config", '{"a":"b"}']]), { "content-type": `multipart/form-data; boundary=${b}` }),
      ),
    ).toEqual({ a: "b" });
  });

  it("says 400 when the multipart form has no config field", async () => {
    const fd = new FormData();
    fd.set("settings", '{"a":"b"}');
    expect((await failure(post(fd))).status).toBe(400);
  });

  it("says 400 for a truncated multipart body", async () => {
    const fd = new FormData();
    fd.set("config", '{"lang":"fr","name":"Phil"}');
    const full = new Request("http://x/", { method: "POST", body: fd });
    const type = full.headers.get("content-type")!;
    const text = await full.text();
    for (const cut of [text.length - 20, Math.floor(text.length / 2), 10]) {
      const r = await failure(post(text.slice(0, cut), { "content-type": type }));
      expect(r.status).toBe(400);
    }
  });

  it("says 400 for multipart without a boundary", async () => {
    expect((await failure(post("whatever", { "content-type": "multipart/form-data" }))).status).toBe(400);
  });
});

describe("readConfigRequest: JSON bodies", () => {
  it('reads {"config": {...}}', async () => {
    expect(await config(json('{"config": {"lang": "en"}}'))).toEqual({ lang: "en" });
  });

  it('reads {"config": "<json string>"}', async () => {
    expect(await config(json(JSON.stringify({ config: '{"lang":"en"}' })))).toEqual({ lang: "en" });
  });

  it("reads a JSON body sent without a JSON content type", async () => {
    expect(await config(post('{"config": {"lang": "en"}}'))).toEqual({ lang: "en" });
    expect(await config(post('  {"config": {"lang": "en"}}', { "content-type": "text/plain" }))).toEqual({
      lang: "en",
    });
    expect(
      await config(post('{"config": {"lang": "en"}}', { "content-type": "application/json; charset=utf-8" })),
    ).toEqual({ lang: "en" });
  });

  it("says 400 when config is missing", async () => {
    for (const body of ["{}", '{"settings": {"lang": "en"}}', '{"config": null}', '{"config": ""}']) {
      const r = await failure(json(body));
      expect(r.status).toBe(400);
      expect(r.error).toContain("config");
    }
  });

  it("does not take config from the prototype chain", async () => {
    expect((await failure(json('{"__proto__": {"config": {"a": "b"}}}'))).status).toBe(400);
  });

  it("says 400 for invalid JSON", async () => {
    for (const body of ["{", '{"config": {"a": "b"},}', "not json", ""]) {
      expect((await failure(json(body))).status).toBe(400);
    }
  });

  it("says 400 for a JSON body that is an array, null or a number", async () => {
    for (const body of ['[{"config": {"a": "b"}}]', "null", "42", '"config"', "true"]) {
      expect((await failure(json(body))).status).toBe(400);
    }
  });

  it("says 400 when config is not an object", async () => {
    for (const value of ["[1, 2]", "null", "42", '"text"', "true", '"[1]"', '"42"', '"null"']) {
      const r = await failure(json(`{"config": ${value}}`));
      expect(r.status).toBe(400);
    }
  });
});

describe("readConfigRequest: bad form values", () => {
  it("says 400 when there is no config field or it is empty", async () => {
    for (const body of ["", "lang=en", "config=", "Config=%7B%7D"]) {
      const r = await failure(form(body));
      expect(r.status).toBe(400);
      expect(r.error).toMatch(/no "config"/);
    }
  });

  it("says 400 when a POST has no body at all", async () => {
    expect((await failure(post(null))).status).toBe(400);
  });

  it("says 400 when the config field is not valid JSON", async () => {
    for (const value of ["{", "{'a': 'b'}", "lang=en", '{"a": "b"}x']) {
      const r = await failure(form(new URLSearchParams({ config: value }).toString()));
      expect(r.status).toBe(400);
      expect(r.error).toMatch(/not valid JSON/);
    }
  });

  it("says 400 when the config field holds an array, null, a number or a string", async () => {
    for (const value of ["[]", '[{"a":"b"}]', "null", "3", '"x"', "true"]) {
      const r = await failure(form(new URLSearchParams({ config: value }).toString()));
      expect(r.status).toBe(400);
      expect(r.error).toMatch(/JSON object/);
    }
  });
});

describe("readConfigRequest: size limits", () => {
  it("is 16 KiB", () => {
    expect(MAX_BODY_BYTES).toBe(16 * 1024);
  });

  it("accepts a body of exactly 16 KiB", async () => {
    const prefix = "config=" + encodeURIComponent('{"n":"');
    const suffix = encodeURIComponent('"}');
    const body = prefix + "a".repeat(MAX_BODY_BYTES - prefix.length - suffix.length) + suffix;
    expect(body.length).toBe(MAX_BODY_BYTES);
    const c = await config(form(body));
    expect((c.n as string).length).toBe(MAX_BODY_BYTES - prefix.length - suffix.length);
  });

  it("says 413 for a body one byte over, without content-length", async () => {
    const req = form("config=" + "a".repeat(MAX_BODY_BYTES - 6));
    expect(req.headers.get("content-length")).toBeNull();
    const r = await failure(req);
    expect(r.status).toBe(413);
    expect(r.error).toContain("16 KiB");
  });

  it("says 413 from a content-length over the limit without reading the body", async () => {
    const { stream, pulled } = endless();
    const r = await failure(
      streamed(stream, {
        "content-length": String(MAX_BODY_BYTES + 1),
        "content-type": "application/x-www-form-urlencoded",
      }),
    );
    expect(r.status).toBe(413);
    expect(pulled()).toBeLessThanOrEqual(4 * 1024);
  });

  it("says 413 for an endless body and stops reading soon after the limit", async () => {
    const { stream, pulled, cancelled } = endless();
    const r = await failure(streamed(stream, { "content-type": "application/x-www-form-urlencoded" }));
    expect(r.status).toBe(413);
    expect(pulled()).toBeLessThan(MAX_BODY_BYTES * 8);
    expect(cancelled()).toBe(true);
  });

  it("says 413 when content-length understates a large body", async () => {
    const r = await failure(
      post("config=" + "a".repeat(40_000), {
        "content-length": "10",
        "content-type": "application/x-www-form-urlencoded",
      }),
    );
    expect(r.status).toBe(413);
  });

  it("says 413 for a large multipart body and a large JSON body", async () => {
    const fd = new FormData();
    fd.set("config", JSON.stringify({ n: "a".repeat(MAX_BODY_BYTES) }));
    expect((await failure(post(fd))).status).toBe(413);
    expect((await failure(json(JSON.stringify({ config: { n: "a".repeat(MAX_BODY_BYTES) } })))).status).toBe(413);
  });
});

describe("readConfigRequest: deep nesting", () => {
  it("does not crash on 100000 levels of [ (too large: 413)", async () => {
    const r = await failure(form("config=" + "[".repeat(100_000)));
    expect(r.status).toBe(413);
    expect((await failure(json('{"config": ' + "[".repeat(100_000)))).status).toBe(413);
  });

  it("does not crash on deep nesting that fits the limit", async () => {
    expect((await failure(form("config=" + "[".repeat(16_000)))).status).toBe(400);
    expect((await failure(json("[".repeat(8_000) + "]".repeat(8_000)))).status).toBe(400);
    expect((await failure(json('{"config": ' + "[".repeat(8_000) + "]".repeat(8_000) + "}"))).status).toBe(400);
  });

  it("refuses a config nested deeper than the limit before parsing it", async () => {
    const deep = '{"a":'.repeat(2_000) + "1" + "}".repeat(2_000);
    const res = await readConfigRequest(json(`{"config": ${deep}}`));
    expect(res).toEqual({ error: expect.stringMatching(/nests deeper than 16 levels/), status: 400 });
  });
});
