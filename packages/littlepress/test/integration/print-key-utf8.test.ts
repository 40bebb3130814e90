// Editions reach sirius as UTF-8 (issue 50): sirius reads every POSTed body as
// UTF-8 whatever its charset says, so what the platform side sends to a print
// key is transcoded to UTF-8 (lib/platform/printers/utf8-page.ts), its
// Content-Type and its HTML's <meta> saying so. Over real HTTP on loopback:
// the fake sirius reads bodies as sirius does.
import { randomBytes } from "node:crypto";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { sealPrintKey } from "../../lib/model/print-key.ts";
import { runDeliveries } from "../../lib/platform/delivering/run.ts";
import { postToPrinter } from "../../lib/platform/printers/print-key-post.ts";
import { deliveryFixture, subscribeOn } from "../helpers/delivery-fixture.ts";
import { withServer } from "../helpers/server.ts";

const site = withServer("basic");
const sealKey = randomBytes(32);
const fixture = deliveryFixture("print-key-utf8");
const { sirius } = fixture;

/** POSTs `bytes` as `type` to a printer of the fake sirius; what it printed. */
async function posted(bytes: Uint8Array, type: string) {
  sirius.printers.set("kitchen1", { name: "Kitchen", owner: "Ada", online: true });
  const sub = { printKey: sealPrintKey(new URL(sirius.keyUrl("kitchen1")), sealKey) };
  expect(await postToPrinter({ sealKey, printKeys: sirius.policy }, sub, { bytes, type }, "Почта")).toBe("sent");
  return sirius.prints.at(-1)!;
}

/** Text that windows-1251 and KOI8-R both hold, every character of it. */
const CYRILLIC = "Доброе утро! Погода: ясно, -3 °C. Новости: ёлка, Ёж.";

describe("a page in another charset than UTF-8", () => {
  it("a windows-1251 page arrives as the same text in UTF-8, its type and <meta charset> saying utf-8", async () => {
    const page = (charset: string) =>
      `<!doctype html><html><head><meta charset="${charset}"><title>Утро</title></head>` +
      `<body><p>${CYRILLIC}</p></body></html>`;
    const bytes = iconv.encode(page("windows-1251"), "windows-1251");
    expect(bytes.toString("utf8")).not.toContain("Доброе"); // not UTF-8 as sent by the publication
    const print = await posted(bytes, "text/html; charset=windows-1251");
    expect(print.contentType).toBe("text/html; charset=utf-8");
    expect(Buffer.from(print.body, "utf8")).toEqual(Buffer.from(page("utf-8"), "utf8"));
    expect(print.body).not.toContain("\ufffd");
    // A page in UTF-8 already goes byte for byte as it is.
    const utf8 = await posted(Buffer.from(page("utf-8"), "utf8"), "text/html; charset=utf-8");
    expect(utf8.contentType).toBe("text/html; charset=utf-8");
    expect(utf8.body).toBe(page("utf-8"));
  });

  it("rewrites an http-equiv Content-Type and a quoted charset, and leaves other <meta> alone", async () => {
    const head = (charset: string) =>
      `<meta http-equiv="Content-Type" content="text/html; charset=${charset}">` +
      `<meta name="description" content="charset=koi8-r, as printed">`;
    const bytes = iconv.encode(`${head("KOI8-R")}<p>${CYRILLIC}</p>`, "koi8-r");
    const print = await posted(bytes, 'text/html; charset="KOI8-R"');
    expect(print.contentType).toBe("text/html; charset=utf-8");
    expect(print.body).toBe(`${head("utf-8")}<p>${CYRILLIC}</p>`);
  });

  it("transcodes plain text too, which sirius reads as UTF-8 the same way", async () => {
    const print = await posted(iconv.encode(CYRILLIC, "windows-1251"), "text/plain; charset=windows-1251");
    expect(print.contentType).toBe("text/plain; charset=utf-8");
    expect(print.body).toBe(CYRILLIC);
  });

  it("a delivery of the Shift JIS publication reaches the printer in UTF-8", async () => {
    const store = fixture.freshStore();
    const settings: [string, string][] = [["name", "太郎"]];
    const at = new Date("2026-03-26T12:00:00Z");
    await subscribeOn({ sirius, store, sealKey }, { slug: "shiftjis", zone: "UTC", hour: 6, at, settings });
    const report = await runDeliveries({
      store,
      origin: site.url,
      sealKey,
      printKeys: sirius.policy,
      at: new Date("2026-03-27T06:05:00Z"),
    });
    expect(report.lines.map((l) => l.outcome)).toEqual(["printed"]);
    const print = sirius.prints.at(-1)!;
    expect(print.contentType).toBe("text/html; charset=utf-8");
    expect(print.body).toContain('<meta charset="utf-8">');
    // ☃ is not in Shift JIS: the publication sends it as a character reference, which stays one.
    expect(print.body).toContain("おはようございます、太郎さん。 Snowman: &#x2603;");
  });
});
