// A publication at the site root, /sample/ and icon.png (test/fixtures/rooted,
// whose site.json makes "only" the root publication, and test/fixtures/basic).
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { withServer } from "../helpers/server.ts";

const get = (server: { url: string }, path: string, init?: RequestInit) =>
  fetch(server.url + path, { ...init, signal: AbortSignal.timeout(10_000) });

async function expectBlackAndWhiteIcon(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([55, 55]);
  const values = new Set(data);
  expect([...values].every((v) => v === 0 || v === 255)).toBe(true);
  expect(values.size).toBe(2); // a real picture, not a blank square
}

describe("a publication at the site root", () => {
  const rooted = withServer("rooted");
  it(
    "answers at /meta.json, /edition/, /sample/, /validate_config/ and /icon.png, " + "as well as under its folder",
    async () => {
      const meta = await get(rooted, "/meta.json");
      expect(meta.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await meta.json()).toEqual(await (await get(rooted, "/only/meta.json")).json());
      for (const path of [
        "/edition/?delivery_count=0",
        "/edition?delivery_count=0",
        "/only/edition/?delivery_count=0",
      ]) {
        const res = await get(rooted, path);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain("First, reader.");
      }
      expect((await get(rooted, "/edition/?delivery_count=2")).status).toBe(410);
      const post = await get(rooted, "/validate_config/", {
        method: "POST",
        body: new URLSearchParams({ config: '{"name":"Ada"}' }),
      });
      expect(await post.json()).toEqual({ valid: true });
      expect(await (await get(rooted, "/sample/")).text()).toContain("The sample, reader.");
      await expectBlackAndWhiteIcon(await get(rooted, "/icon.png"));
    },
  );
});

describe("/sample/ and icon.png of a publication under its folder", () => {
  const rooted = withServer("rooted");
  it("serves the author's pick with an ETag and a charset, slots filled with defaults", async () => {
    for (const path of ["/only/sample/", "/only/sample"]) {
      const res = await get(rooted, path);
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toMatch(/^"1-[0-9a-f]{16}"$/);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("The sample, reader.");
    }
  });

  it("is the author's image made 55x55 black and white", async () => {
    await expectBlackAndWhiteIcon(await get(rooted, "/only/icon.png"));
  });
});

describe("a site without a root publication", () => {
  const basic = withServer("basic");

  it("leaves the root empty without site.json: /edition/ is a 204", async () => {
    expect((await get(basic, "/edition/")).status).toBe(204);
  });

  it("/sample/ defaults to the first edition", async () => {
    const res = await get(basic, "/serial/sample/");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(/^"0-/);
    expect(await res.text()).toContain("The first part.");
  });

  it("icon.png is a plain default when the author gave none", async () => {
    await expectBlackAndWhiteIcon(await get(basic, "/serial/icon.png"));
  });
});
