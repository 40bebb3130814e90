// /edition/ through the real handler, against test/fixtures/basic built by the real build.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import iconv from "iconv-lite";
import { eachEdition, openPublication } from "../../lib/edge/publication-store.ts";
import { fillSlots } from "../../lib/model/text-slots.ts";
import { BASE, getEdition, siteContext, useSite } from "../helpers/handlers.ts";
import { compiled } from "../helpers/kit-script.ts";

beforeAll(() => useSite("basic"));
afterEach(() => vi.useRealTimers());

const QUOTED = /^"[^"]+"$/;

async function expect200(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("etag")).toMatch(QUOTED);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const html = await res.text();
  expect(html).toMatch(/^<!doctype html>/);
  return { etag: res.headers.get("etag")!, html };
}

async function expectEmpty(res: Response, status: 204 | 410) {
  expect(res.status).toBe(status);
  expect(await res.text()).toBe("");
  expect(res.headers.get("etag")).toBeNull();
  return res.headers.get("x-littlepress-reason");
}

describe("delivery_count editions", () => {
  it("serves the edition numbered delivery_count, with and without the trailing slash", async () => {
    const a = await expect200(await getEdition("/serial/edition/?delivery_count=0"));
    const b = await expect200(await getEdition("/serial/edition?delivery_count=0"));
    expect(a.html).toContain("The first part.");
    expect(a.html).toContain("<h1>Part one</h1>");
    expect(b.etag).toBe(a.etag);
  });

  it("gives identical content on two counts two ETags, and the same count the same ETag", async () => {
    const one = await expect200(await getEdition("/serial/edition/?delivery_count=1"));
    const two = await expect200(await getEdition("/serial/edition/?delivery_count=2"));
    const again = await expect200(await getEdition("/serial/edition/?delivery_count=1"));
    expect(one.html).toBe(two.html);
    expect(one.etag).not.toBe(two.etag);
    expect(again.etag).toBe(one.etag);
  });

  it("answers 204 for a missing number inside the series", async () => {
    expect(await expectEmpty(await getEdition("/serial/edition/?delivery_count=3"), 204)).toMatch(/no edition for 3/);
  });

  it("answers 410 past the last edition of a finite series, 204 for an open one", async () => {
    expect(await expectEmpty(await getEdition("/serial/edition/?delivery_count=5"), 410)).toMatch(
      /ended with edition 4/,
    );
    await expectEmpty(await getEdition("/serial/edition/?delivery_count=99999999999999999999999"), 410);
    await expectEmpty(await getEdition("/open-serial/edition/?delivery_count=2"), 204);
  });

  it("shows edition 0 to a request without parameters", async () => {
    const bare = await expect200(await getEdition("/serial/edition/"));
    expect(bare.html).toContain("The first part.");
  });

  it.each(["-1", "1.5", "abc", "0x1", " 1", "1e3", "%FF", "١"])(
    "answers 204 with a reason for delivery_count=%s",
    async (value) => {
      const reason = await expectEmpty(await getEdition(`/serial/edition/?delivery_count=${value}`), 204);
      expect(reason).toMatch(/delivery_count is not a non-negative integer/);
    },
  );

  it("reads a count with leading zeros as that number", async () => {
    const a = await expect200(await getEdition("/serial/edition/?delivery_count=001"));
    const b = await expect200(await getEdition("/serial/edition/?delivery_count=1"));
    expect(a.etag).toBe(b.etag);
  });
});

describe("local_date editions", () => {
  const at = (time: string) => `/daily/edition/?local_delivery_time=${encodeURIComponent(time)}`;

  it("uses the date as written, not the UTC date", async () => {
    // 23:30 at -08:00 is already the 11th in UTC; the subscriber's date is the 10th.
    const late = await expect200(await getEdition(at("2026-01-10T23:30:00-08:00")));
    const morning = await expect200(await getEdition(at("2026-01-10T06:00:00+09:00")));
    expect(late.etag).toBe(morning.etag);
    expect(late.etag.startsWith('"2026-01-10-')).toBe(true);
  });

  it("accepts fractional seconds, Z, and a + that arrived as a space", async () => {
    const ref = (await expect200(await getEdition(at("2026-01-11T06:00:00+01:00")))).etag;
    for (const t of ["2026-01-11T06:00:00.45+01:00", "2026-01-11T06:00:00Z", "2026-01-11T06:00:00.123456789Z"]) {
      expect((await expect200(await getEdition(at(t)))).etag).toBe(ref);
    }
    // An unencoded + in the query string is a space once decoded.
    expect(
      (await expect200(await getEdition("/daily/edition/?local_delivery_time=2026-01-11T06:00:00+01:00"))).etag,
    ).toBe(ref);
  });

  it("gives identical content on two days two ETags", async () => {
    const a = await expect200(await getEdition(at("2026-01-10T06:00:00Z")));
    const b = await expect200(await getEdition(at("2026-01-11T06:00:00Z")));
    expect(a.html).toBe(b.html);
    expect(a.etag).not.toBe(b.etag);
  });

  it("answers 204 on a day without an edition and before the first, 410 after the last", async () => {
    expect(await expectEmpty(await getEdition(at("2026-01-12T06:00:00Z")), 204)).toMatch(/no edition for 2026-01-12/);
    expect(await expectEmpty(await getEdition(at("2026-01-09T06:00:00Z")), 204)).toMatch(/first edition is 2026-01-10/);
    await expectEmpty(await getEdition(at("2026-01-14T06:00:00Z")), 410);
  });

  it.each([
    "2026-02-30T06:00:00Z",
    "2026-01-10",
    "2026-01-10T25:00:00Z",
    "yesterday",
    "2026-01-10T06:00:00+25:00",
    "x".repeat(5000),
  ])("answers 204 with a reason for local_delivery_time=%s", async (value) => {
    expect(await expectEmpty(await getEdition(at(value)), 204)).toMatch(/local_delivery_time/);
  });

  it("shows the latest edition not after now to a bare request", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-12T12:00:00Z"));
    expect((await expect200(await getEdition("/daily/edition/"))).etag.startsWith('"2026-01-11-')).toBe(true);
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    expect((await expect200(await getEdition("/daily/edition/"))).html).toContain("The last one.");
    vi.setSystemTime(new Date("2020-01-01T00:00:00Z"));
    expect((await expect200(await getEdition("/daily/edition/"))).etag.startsWith('"2026-01-10-')).toBe(true);
  });
});

describe("utc_date and utc_hour editions", () => {
  it("keys utc_date by the UTC date of the delivery time", async () => {
    const r = await expect200(
      await getEdition(`/utc-daily/edition/?local_delivery_time=${encodeURIComponent("2026-01-10T20:00:00-08:00")}`),
    );
    expect(r.html).toContain("Eleventh.");
  });

  it("keys utc_hour by the UTC date and hour", async () => {
    const r = await expect200(
      await getEdition(`/hourly/edition/?local_delivery_time=${encodeURIComponent("2026-01-10T09:00:00+01:00")}`),
    );
    expect(r.html).toContain("Eight.");
    await expectEmpty(
      await getEdition(`/hourly/edition/?local_delivery_time=${encodeURIComponent("2026-01-10T09:00:00Z")}`),
      410,
    );
    await expectEmpty(
      await getEdition(`/hourly/edition/?local_delivery_time=${encodeURIComponent("2026-01-10T06:59:59Z")}`),
      204,
    );
  });
});

describe("whatever the request", () => {
  it("ignores unknown parameters and If-None-Match (never 304)", async () => {
    const first = await expect200(await getEdition("/serial/edition/?delivery_count=0&utm_source=x&lang=zz"));
    const again = await getEdition("/serial/edition/?delivery_count=0", { headers: { "if-none-match": first.etag } });
    expect((await expect200(again)).etag).toBe(first.etag);
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const get = await getEdition("/serial/edition/?delivery_count=0");
    const head = await getEdition("/serial/edition/?delivery_count=0", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(await head.text()).toBe("");
  });

  it("keeps every answer out of browser and CDN caches", async () => {
    for (const q of ["?delivery_count=0", "?delivery_count=3", "?delivery_count=9"]) {
      const res = await getEdition(`/serial/edition/${q}`);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("netlify-cdn-cache-control")).toBe("no-store");
    }
  });

  it("answers 204 for an unknown publication and for a path with no publication", async () => {
    await expectEmpty(await getEdition("/nope/edition/"), 204);
    await expectEmpty(await getEdition("/edition/"), 204);
    await expectEmpty(await getEdition("/..%2F..%2Fetc/edition/"), 204);
  });

  it("answers 200, 204 or 410 to other methods too", async () => {
    for (const method of ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]) {
      const res = await getEdition("/serial/edition/?delivery_count=0", {
        method,
        body: method === "OPTIONS" ? undefined : "x",
      });
      expect([200, 204, 410]).toContain(res.status);
    }
  });
});

describe("charset", () => {
  it("encodes the body in the publication's charset and names it", async () => {
    const res = await getEdition("/shiftjis/edition/?delivery_count=0&name=%E5%A4%AA%E9%83%8E");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=shift_jis");
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = iconv.decode(bytes, "shift_jis");
    expect(text).toContain("おはようございます、太郎さん。");
    expect(text).toContain('<meta charset="shift_jis">');
    // U+2603 has no Shift_JIS code: it is sent as a character reference.
    expect(text).toContain("&#x2603;");
    expect(bytes.includes(Buffer.from("おはよう", "utf8"))).toBe(false);
  });

  it("sends the page byte for byte as Shift_JIS writes it, each character it lacks as a reference", async () => {
    const res = await getEdition(SHIFT_JIS_REQUEST);
    const pub = (await openPublication("shiftjis", siteContext.littlepress!.site!))!;
    let page = "";
    for await (const e of eachEdition(pub)) if (e.key === "0") page = fillSlots(e.html, new Map([["name", "太郎"]]));
    const lacking = (c: string) => iconv.decode(iconv.encode(c, "shift_jis"), "shift_jis") !== c;
    const written = [...page].map((c) => (lacking(c) ? `&#x${c.codePointAt(0)!.toString(16)};` : c)).join("");
    expect(written).toContain("&#x2603;");
    expect(Buffer.from(await res.arrayBuffer()).equals(iconv.encode(written, "shift_jis"))).toBe(true);
  });

  // A fresh process, as a function instance starts: what it loads to answer one request.
  it("loads iconv-lite only to answer for a publication whose charset needs it", async () => {
    const utf8 = await answerInFreshProcess("/serial/edition/?delivery_count=0");
    expect(utf8).toMatchObject({ status: 200, type: "text/html; charset=utf-8", iconv: false });
    const shiftJis = await answerInFreshProcess(SHIFT_JIS_REQUEST);
    expect(shiftJis).toMatchObject({ status: 200, type: "text/html; charset=shift_jis", iconv: true });
    const here = Buffer.from(await (await getEdition(SHIFT_JIS_REQUEST)).arrayBuffer());
    expect(shiftJis.body).toBe(here.toString("base64"));
  });
});

const SHIFT_JIS_REQUEST = "/shiftjis/edition/?delivery_count=0&name=%E5%A4%AA%E9%83%8E";

/**
 * Answers one request with functions/edition.mts, compiled as a deploy runs it,
 * in a new Node process, and says what it answered and whether iconv-lite was
 * loaded by then.
 */
async function answerInFreshProcess(pathAndQuery: string) {
  const code = `
    const [site, address] = process.argv.slice(1);
    const { default: edition } = await import(${JSON.stringify(`./${compiled("functions/edition.mts")}`)});
    const slug = new URL(address).pathname.split("/")[1]; // Netlify's context.params, from the route /:slug/edition/
    const res = await edition(new Request(address), { littlepress: { site }, params: { slug } });
    const body = Buffer.from(await res.arrayBuffer()).toString("base64");
    const { createRequire } = await import("node:module");
    const { sep } = await import("node:path");
    const folder = [sep, "node_modules", sep, "iconv-lite", sep].join("");
    const iconv = Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes(folder));
    console.log(JSON.stringify({ status: res.status, type: res.headers.get("content-type"), body, iconv }));`;
  const args = ["--input-type=module", "-e", code, siteContext.littlepress!.site!, BASE + pathAndQuery];
  const { stdout } = await promisify(execFile)(process.execPath, args, { timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as {
    status: number;
    type: string;
    body: string;
    iconv: boolean;
  };
}
