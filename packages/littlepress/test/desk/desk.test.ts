// The desk in a real browser, against the example publications: the home
// page, the subscriber form as the platform builds it, the delivery simulator
// and the paper strips. Pages are few on purpose: each load costs a second on
// a busy machine.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { PAPER_WIDTH_PX } from "../../lib/model/paper.ts";
import { withServer } from "../helpers/server.ts";
import { days, pngSize, play, ready, withBrowser } from "./desk-page.ts";

const SETTINGS_KEY = "littlepress-desk:good-morning:settings";

describe("the desk", () => {
  const server = withServer("examples");
  const desk = withBrowser(server);

  it("lists the four examples on the home page, with icon, name, description and schedule", async () => {
    const page = await desk.open("/");
    const cards = await page.$$eval(".pub-card", (items) =>
      items.map((li) => {
        const icon = li.querySelector<HTMLImageElement>("img.pub-icon");
        const fact = (name: string) => li.querySelector(`.fact-${name}`)?.textContent ?? "";
        return {
          name: li.querySelector(".pub-name")?.textContent?.trim(),
          href: li.querySelector(".pub-name a")?.getAttribute("href"),
          icon: icon?.getAttribute("src"),
          iconWidth: icon?.complete ? icon.naturalWidth : -1,
          descriptionTags: [...(li.querySelector(".pub-description")?.querySelectorAll("*") ?? [])].map((el) =>
            el.tagName.toLowerCase(),
          ),
          delivered: fact("delivered"),
          by: fact("by"),
          count: fact("count"),
          first: fact("first"),
          last: fact("last"),
          ends: fact("ends"),
        };
      }),
    );
    expect(cards.map((c) => c.name).sort()).toEqual([
      "Good Morning",
      "Sun and Moon",
      "The Lighthouse Cat",
      "The Pocket Almanac",
    ]);
    const bySlug = Object.fromEntries(cards.map((c) => [c.href ?? "", c] as const));
    for (const slug of ["lighthouse", "almanac", "good-morning", "sun-and-moon"]) {
      expect(bySlug[`/${slug}/`]?.icon).toBe(`/${slug}/icon.png`);
      expect(bySlug[`/${slug}/`]?.iconWidth).toBe(55);
    }
    expect(bySlug["/lighthouse/"]).toMatchObject({
      delivered: "Every day until the story ends",
      first: "no. 0",
      last: "no. 6",
    });
    expect(bySlug["/lighthouse/"]?.by).toContain("delivery_count");
    expect(bySlug["/lighthouse/"]?.count).toBe("7 editions");
    expect(bySlug["/lighthouse/"]?.ends).toMatch(/series ends.*410/);
    expect(bySlug["/almanac/"]).toMatchObject({
      delivered: "Monday to Saturday, early morning",
      first: "Mon 16 Nov 2026",
      last: "Sat 12 Dec 2026",
    });
    expect(bySlug["/almanac/"]?.by).toContain("local_date");
    expect(bySlug["/almanac/"]?.count).toBe("24 editions; 3 days between them without one answer 204");
    expect(bySlug["/almanac/"]?.ends).toMatch(/open-ended.*204/);
    expect(bySlug["/good-morning/"]?.by).toContain("utc_date");
    expect(bySlug["/good-morning/"]).toMatchObject({ first: "Wed 18 Nov 2026", last: "Mon 30 Nov 2026" });
    // the description keeps the platform's tags and shows them as tags
    expect(bySlug["/good-morning/"]?.descriptionTags).toEqual(["em", "em", "em"]);
    expect(bySlug["/almanac/"]?.descriptionTags).toEqual(["strong"]);
    expect(bySlug["/sun-and-moon/"]).toMatchObject({ first: "Mon 30 Nov 2026", last: "Sun 6 Dec 2026" });
    expect(bySlug["/sun-and-moon/"]?.count).toBe("7 editions");
  });

  it(
    "shows an invalid submission's errors beside their fields after a general alert; " +
      "a valid one feeds the simulator",
    async () => {
      const page = await desk.open("/good-morning/");
      await ready(page);
      const setLanguageValue = (value: string) =>
        page.$eval(
          "#settings-form select",
          (select, v) => {
            const s = select as HTMLSelectElement;
            s.options[0]!.value = v;
            s.value = v;
          },
          value,
        );
      const submit = () => page.getByRole("button", { name: "Check and save settings" }).click();

      // a value the form cannot offer (as if tampered with), and a name one character too long
      await setLanguageValue("de");
      await page.getByLabel("Your name").fill("x".repeat(41));
      await submit();
      const alert = page.locator("#settings-result.notice-error");
      await alert.waitFor();
      expect(await alert.textContent()).toBe("These settings were not accepted. 2 fields are marked below.");
      const nameError = page.locator('.field[data-field="name"] .field-error');
      expect(await nameError.textContent()).toBe("Your name: use at most 40 characters.");
      expect(await page.locator('.field[data-field="lang"] .field-error').textContent()).toMatch(/^Language: /);
      expect(await page.getByLabel("Your name").getAttribute("aria-invalid")).toBe("true");
      expect(await page.getByLabel("Your name").getAttribute("aria-describedby")).toBe(
        await nameError.getAttribute("id"),
      );
      // the first wrong field has the focus; nothing was stored
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("SELECT");
      expect(await page.evaluate((key) => localStorage.getItem(key), SETTINGS_KEY)).toBeNull();

      // only the name wrong: one error, beside the name, and the language's note is gone
      await setLanguageValue("en");
      await submit();
      await page.locator("#settings-result.notice-error").filter({ hasText: "One field is marked below." }).waitFor();
      expect(await page.locator(".field-error:visible").allTextContents()).toEqual([
        "Your name: use at most 40 characters.",
      ]);

      // valid: stored for the simulator, which sends the values and prints their edition
      await page.getByLabel("Language").selectOption("fr");
      await page.getByLabel("Your name").fill("Zoé <b>&");
      await submit();
      const result = page.locator("#settings-result.notice-ok");
      await result.waitFor();
      expect(await result.textContent()).toContain("Saved in this browser for the simulator");
      expect(await page.locator(".field-error:visible").count()).toBe(0);
      const stored = await page.evaluate(
        (key) => JSON.parse(localStorage.getItem(key) ?? "null") as { values: unknown },
        SETTINGS_KEY,
      );
      expect(stored.values).toEqual({ lang: "fr", name: "Zoé <b>&" });
      expect(await page.locator("#sim-settings").textContent()).toContain("lang=fr");

      await play(page, { start: "2026-11-20", tz: "Europe/Paris", days: 2 });
      const rows = await days(page);
      expect(rows.map((r) => r.status)).toEqual(["200", "200"]);
      expect(rows[0]!.url).toBe(
        `${server.url}/good-morning/edition/` +
          "?local_delivery_time=2026-11-20T06:00:00%2B01:00&lang=fr&name=Zo%C3%A9%20%3Cb%3E%26",
      );
      const strip = page.frameLocator('iframe.paper-strip[data-day="1"]');
      expect(await strip.locator("h1").textContent()).toBe("Friday 20 November");
      expect(await strip.locator("main").textContent()).toContain("Bonjour, Zoé <b>& !");
    },
  );

  it(
    "plays the almanac: Fri 200, Sat 200, Sun 204, Mon 200 in Paris; " +
      "identical pages on 11 and 12 December print twice",
    async () => {
      const page = await desk.open("/almanac/");
      await ready(page);
      expect(await page.locator("#settings-none").textContent()).toBe(
        "This publication asks its subscribers for nothing: " +
          "there is nothing to set, and the simulator sends no settings.",
      );
      expect(await page.locator("#sim-settings").textContent()).toContain("None");
      expect(await page.locator("#sim-count").isVisible()).toBe(false);
      // the zone defaults to the browser's, the hour to 06:00
      expect(await page.locator("#sim-tz").inputValue()).toBe("America/New_York");
      expect(await page.locator("#sim-hour option:checked").textContent()).toBe("06:00");

      await play(page, { start: "2026-11-20", tz: "Europe/Paris", days: 4 });
      let rows = await days(page);
      expect(rows.map((r) => [r.status, r.prints])).toEqual([
        ["200", "yes"],
        ["200", "yes"],
        ["204", "no"],
        ["200", "yes"],
      ]);
      expect(rows.map((r) => new URL(r.url).searchParams.get("local_delivery_time"))).toEqual([
        "2026-11-20T06:00:00+01:00",
        "2026-11-21T06:00:00+01:00",
        "2026-11-22T06:00:00+01:00",
        "2026-11-23T06:00:00+01:00",
      ]);
      expect(rows[2]!.etag).toBe("none");
      expect(await page.locator("iframe.paper-strip").count()).toBe(3);
      expect(await page.locator("#sim-status").textContent()).toBe("Played 4 deliveries: 3 printed, 1 not printed.");

      // the same text on two days still prints twice: the ETags differ
      await play(page, { start: "2026-12-11", days: 2 });
      rows = await days(page);
      expect(rows.map((r) => [r.status, r.prints])).toEqual([
        ["200", "yes"],
        ["200", "yes"],
      ]);
      expect(rows[0]!.etag).not.toBe(rows[1]!.etag);
      const text = (day: number) =>
        page.frameLocator(`iframe.paper-strip[data-day="${day}"]`).locator("main").textContent();
      expect(await text(1)).toBe(await text(2));

      // summer time: the offset is the one in force on that date, in that zone
      await play(page, { start: "2026-07-01", tz: "America/Los_Angeles", days: 1 });
      expect(new URL((await days(page))[0]!.url).searchParams.get("local_delivery_time")).toBe(
        "2026-07-01T06:00:00-07:00",
      );
    },
  );

  it(
    "plays the lighthouse from delivery_count 5: 200, 200, then 410 and the subscription ends; " +
      "strips are 384 px wide",
    async () => {
      const page = await desk.open("/lighthouse/");
      await ready(page);
      expect(await page.locator("#sim-start").isVisible()).toBe(false);
      expect(await page.locator("#settings-none").isVisible()).toBe(true);

      // impossible inputs are refused beside the field
      await page.locator("#sim-days").fill("61");
      await page.locator("#sim-run").click();
      expect(await page.locator("#sim-days-error").textContent()).toBe("Days to play: a whole number from 1 to 60.");
      expect(await page.locator("#sim-days").getAttribute("aria-invalid")).toBe("true");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("sim-days");

      await play(page, { count: 5, days: 4 });
      const rows = await days(page);
      expect(rows.map((r) => [r.status, r.prints])).toEqual([
        ["200", "yes"],
        ["200", "yes"],
        ["410", "no"],
      ]);
      expect(rows.map((r) => new URL(r.url).searchParams.get("delivery_count"))).toEqual(["5", "6", "7"]);
      expect(await page.locator("#sim-status").textContent()).toBe(
        "Played 3 deliveries: 2 printed. Day 3 answered 410: " +
          "the series is over and the subscription ends there, so the last day is not played.",
      );
      expect(await page.locator("#sim-days-log .day-ended").textContent()).toContain("The subscription ends here.");
      expect(await page.locator("#roll .roll-end").textContent()).toContain("410");
      expect(await page.locator("#sim-days-error").isVisible()).toBe(false);

      // each printed edition: an iframe of the edition URL, 384 px wide, as tall as its content
      const frames = page.locator("iframe.paper-strip");
      expect(await frames.count()).toBe(2);
      const frame = frames.first();
      expect(pngSize(await frame.screenshot()).width).toBe(384);
      const sizes = await frame.evaluate((f: HTMLIFrameElement) => ({
        box: f.getBoundingClientRect().height,
        content: f.contentDocument!.documentElement.scrollHeight,
        src: f.getAttribute("src"),
      }));
      expect(sizes.src).toBe(`${server.url}/lighthouse/edition/?delivery_count=5`);
      expect(sizes.box).toBeGreaterThan(300);
      expect(Math.abs(sizes.box - sizes.content)).toBeLessThanOrEqual(1);
    },
  );

  it("follows the spec's state table: counts every day, prints only an ETag it has not just seen", async () => {
    // A stand-in publication: 200 "a", 204, 200 "a" again (unchanged), 200 "b".
    const answers: Record<string, { status: number; etag?: string }> = {
      "0": { status: 200, etag: '"a"' },
      "1": { status: 204 },
      "2": { status: 200, etag: '"a"' },
      "3": { status: 200, etag: '"b"' },
    };
    const page = await desk.open("/lighthouse/", {
      before: (p) =>
        p.route("**/lighthouse/edition/?*", (route) => {
          const answer = answers[new URL(route.request().url()).searchParams.get("delivery_count") ?? ""] ?? {
            status: 410,
          };
          return route.fulfill(
            answer.status === 200
              ? {
                  status: 200,
                  headers: { ETag: answer.etag!, "Content-Type": "text/html; charset=utf-8" },
                  body: "<!doctype html><p>edition</p>",
                }
              : { status: answer.status },
          );
        }),
    });
    await ready(page);
    await play(page, { count: 0, days: 4 });
    const rows = await days(page);
    expect(rows.map((r) => new URL(r.url).searchParams.get("delivery_count"))).toEqual(["0", "1", "2", "3"]);
    expect(rows.map((r) => [r.status, r.prints])).toEqual([
      ["200", "yes"],
      ["204", "no"],
      ["200", "no"],
      ["200", "yes"],
    ]);
    expect(await page.locator('#sim-days-log li[data-day="3"] .day-why').textContent()).toContain(
      "the ETag is the same as the last one seen",
    );
    expect(await page.locator("iframe.paper-strip").count()).toBe(2);
  });

  it("works from the keyboard alone, and announces the results", async () => {
    const page = await desk.open("/good-morning/");
    await ready(page);
    const focused = () =>
      page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || "");
    // Tab from the top of the page to the form's first control
    let steps = 0;
    while ((await focused()) !== "cfg-0" && steps++ < 30) await page.keyboard.press("Tab");
    expect(await focused()).toBe("cfg-0");
    await page.keyboard.press("ArrowDown"); // English -> Français
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("cfg-1");
    await page.keyboard.type("Kim");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Check and save settings");
    // focus is visible
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid");
    await page.keyboard.press("Space");
    await page.locator("#settings-result.notice-ok").waitFor();
    const live = page.locator('#settings-result[aria-live="polite"]');
    expect(await live.textContent()).toBe(
      "Accepted. Saved in this browser for the simulator: Language fr, Your name Kim.",
    );
    expect(await focused()).toBe("Check and save settings");

    // the simulator too: Enter in a field plays the deliveries, and the summary is announced
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("sim-start");
    await page.keyboard.type("11182026"); // the date field takes its parts as typed digits
    expect(await page.locator("#sim-start").inputValue()).toBe("2026-11-18");
    while ((await focused()) !== "sim-days" && steps++ < 60) await page.keyboard.press("Tab");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("1");
    await page.keyboard.press("Enter");
    await page.locator("#sim-status.notice-ok").waitFor();
    expect(await page.locator('#sim-status[aria-live="polite"]').textContent()).toBe(
      "Played 1 delivery: 1 printed, 0 not printed.",
    );
    expect((await days(page))[0]!.url).toContain("&lang=fr&name=Kim");
  });

  it(
    "puts meta.json's texts and the server's answers into the page as text, never as HTML; " +
      "radios come in a fieldset",
    async () => {
      const evil = '<img src=x onerror="window.pwned=1">';
      const page = await desk.open("/good-morning/", {
        before: async (p: Page) => {
          await p.route("**/good-morning/meta.json", (route) =>
            route.fulfill({
              contentType: "application/json",
              body: JSON.stringify({
                name: evil,
                send_timezone_info: true,
                send_delivery_count: false,
                config: {
                  fields: [
                    { type: "select", name: "lang", label: `Lang ${evil}`, options: [[evil, "x"]] },
                    {
                      type: "radio",
                      name: "size",
                      label: "Size",
                      options: [
                        ["Small", "s"],
                        [evil, "l"],
                      ],
                    },
                  ],
                },
              }),
            }),
          );
          await p.route("**/good-morning/validate_config/", (route) =>
            route.fulfill({
              contentType: "application/json",
              body: JSON.stringify({ valid: false, errors: [`Lang ${evil}: no`, `Other ${evil}`] }),
            }),
          );
        },
      });
      await ready(page);
      expect(await page.locator('.field[data-field="lang"] label').textContent()).toBe(`Lang ${evil}`);
      expect(await page.locator('.field[data-field="lang"] option').textContent()).toBe(evil);
      expect(await page.locator('fieldset.field[data-field="size"] > legend').textContent()).toBe("Size");
      expect(await page.getByRole("group", { name: "Size" }).getByRole("radio").count()).toBe(2);
      expect(await page.getByRole("radio", { name: "Small", exact: true }).count()).toBe(1);
      await page.getByRole("button", { name: "Check and save settings" }).click();
      await page.locator("#settings-result.notice-error").waitFor();
      expect(await page.locator('.field[data-field="lang"] .field-error').textContent()).toBe(`Lang ${evil}: no`);
      // an error that names no field goes into the general alert
      expect(await page.locator("#settings-result li").textContent()).toBe(`Other ${evil}`);
      expect(await page.locator("#subscribe img").count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    },
  );

  it("preselects a select's default the page carries (meta.json has none), not the first", async () => {
    const page = await desk.open("/good-morning/", {
      before: async (p: Page) => {
        // meta.json with Good Morning's languages the other way round: English, its default, last
        await p.route("**/good-morning/meta.json", async (route) => {
          const meta = (await (await route.fetch()).json()) as {
            config: { fields: { name: string; options?: string[][] }[] };
          };
          meta.config.fields.find((f) => f.name === "lang")!.options!.reverse();
          await route.fulfill({ contentType: "application/json", body: JSON.stringify(meta) });
        });
      },
    });
    await ready(page);
    expect(await page.locator('.field[data-field="lang"] option').first().textContent()).toBe("Español");
    expect(await page.getByLabel("Language").inputValue()).toBe("en");
  });

  it("shows print previews when npm run preview has made them, and only a hint when not", async () => {
    // a 1x1 PNG stands in for the previews
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAG7buVgAAAABJRU5ErkJggg==",
      "base64",
    );
    const page = await desk.open("/lighthouse/", {
      before: async (p: Page) => {
        await p.route("**/lighthouse/preview/index.json", (route) =>
          route.fulfill({
            contentType: "application/json",
            body: JSON.stringify({
              editions: [
                { key: "0", file: "0.png", heightPx: 812, heightMm: 101.5, tooLong: false },
                { key: "1", file: "1.png", heightPx: 12000, heightMm: 1500, tooLong: true },
                { key: "2", file: "https://elsewhere.example/2.png", heightPx: 1, heightMm: 1, tooLong: false },
              ],
              contactSheet: "contact-sheet.png",
            }),
          }),
        );
        await p.route("**/lighthouse/preview/*.png", (route) => route.fulfill({ contentType: "image/png", body: png }));
      },
    });
    await page.locator("#previews").waitFor();
    expect(await page.locator("#previews h2").textContent()).toBe("Print preview");
    const images = await page.$$eval("#previews .preview img", (imgs) =>
      imgs.map((img) => [img.getAttribute("src"), img.getAttribute("alt")]),
    );
    // the file that points elsewhere is left out
    expect(images).toEqual([
      [`${server.url}/lighthouse/preview/0.png`, "Print preview of edition 0"],
      [`${server.url}/lighthouse/preview/1.png`, "Print preview of edition 1"],
    ]);
    expect(await page.locator("#previews .preview").first().textContent()).toContain("812 px · 101.5 mm of paper");
    expect(await page.locator("#previews .preview-long").textContent()).toContain("too long");
    expect(await page.locator("#previews .contact-sheet img").getAttribute("src")).toBe(
      `${server.url}/lighthouse/preview/contact-sheet.png`,
    );
    expect(await page.locator("#preview-hint").isVisible()).toBe(false);

    // no index.json: no section, a one-line hint
    await page.unroute("**/lighthouse/preview/index.json");
    await page.route("**/lighthouse/preview/index.json", (route) => route.fulfill({ status: 404, body: "Not found" }));
    await page.reload();
    await page.locator("#preview-hint").waitFor();
    expect(await page.locator("#preview-hint").textContent()).toContain("npm run preview");
    expect(await page.locator("#previews").isVisible()).toBe(false);
  });

  const title =
    "takes the model's rules from /_desk/model.js, the bundle the build makes of lib/model, and plays with them";
  it(title, async () => {
    const served: { status: number; type: string }[] = [];
    const page = await desk.open("/almanac/", {
      before: (p) =>
        Promise.resolve(
          p.on("response", (r) => {
            if (new URL(r.url()).pathname === "/_desk/model.js")
              served.push({ status: r.status(), type: r.headers()["content-type"] ?? "" });
          }),
        ),
    });
    await ready(page);
    expect(served).toEqual([{ status: 200, type: expect.stringMatching(/javascript/) }]);
    // the module the page loaded answers as lib/model does, on a day Samoa skipped whole (+14:00)
    // (a string, so that vitest leaves the page's own import() alone)
    const inPage = await page.evaluate<[string, number]>(
      `import("/_desk/model.js")` +
        `.then((m) => [m.localDeliveryTime("2011-12-30", 6, "Pacific/Apia").text, m.PAPER_WIDTH_PX])`,
    );
    expect(inPage).toEqual([localDeliveryTime("2011-12-30", 6, "Pacific/Apia").text, PAPER_WIDTH_PX]);
    // and the simulator sends its times: 02:00 does not exist in Paris on 29 March 2026, 03:00 summer time does
    await page.selectOption("#sim-hour", { label: "02:00" });
    await play(page, { start: "2026-03-28", tz: "Europe/Paris", days: 2 });
    expect((await days(page)).map((r) => new URL(r.url).searchParams.get("local_delivery_time"))).toEqual([
      localDeliveryTime("2026-03-28", 2, "Europe/Paris").text,
      localDeliveryTime("2026-03-29", 2, "Europe/Paris").text,
    ]);
    expect(localDeliveryTime("2026-03-29", 2, "Europe/Paris").text).toBe("2026-03-29T03:00:00+02:00");
  });

  it("makes no request beyond the local server, and no script error", () => {
    expect(desk.requests.length).toBeGreaterThan(30);
    // Everything the desk itself fetches comes from the server that served it.
    expect(desk.requests.filter((r) => r.byDesk && !r.url.startsWith(server.url + "/"))).toEqual([]);
    // Editions in the strips may name their images by the site's configured URL, but nothing leaves this machine.
    expect(desk.requests.filter((r) => !r.url.startsWith("http://127.0.0.1:"))).toEqual([]);
    expect(desk.errors).toEqual([]);
  });
});
