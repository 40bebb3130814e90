// The desk under `npm start`, in Chromium: an open page reloads by itself after
// a save, and shows a broken save (file and problem) until it is fixed.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withStart } from "../helpers/start.ts";
import { withBrowser } from "./desk-page.ts";

const site = withStart("live-desk", ["basic/serial"]);
const browser = withBrowser(site);
const publicationJson = () => path.join(site.content, "serial", "publication.json");

describe("the desk under npm start", () => {
  it("reloads an open page after a save, and shows a broken save until it is fixed", async () => {
    const page = await browser.open("/serial/");
    await page.waitForSelector("#pub-title");
    expect(await page.textContent("#pub-title")).toBe("Serial");
    // Gone after a reload: proves the page was loaded again, not patched.
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    const good = readFileSync(publicationJson(), "utf8");

    writeFileSync(publicationJson(), good.replace('"name":"Serial"', '"name":"The Renamed Serial"'));
    await page.waitForFunction(() => document.querySelector("#pub-title")?.textContent === "The Renamed Serial", null, {
      timeout: 10_000,
    });
    expect(await page.evaluate(() => "stillTheSamePage" in window)).toBe(false);

    writeFileSync(publicationJson(), good.replace('"name":"Serial",', '"name":"Serial"'));
    const problem = await page.waitForSelector("#littlepress-problem", { timeout: 10_000 });
    const text = (await problem.textContent()) ?? "";
    expect(text).toContain("last good build");
    expect(text).toContain(`${site.content}/serial/publication.json`);
    expect(await page.textContent("#pub-title")).toBe("The Renamed Serial");
    // A page opened now shows the problem too.
    const late = await browser.open("/");
    expect(await (await late.waitForSelector("#littlepress-problem", { timeout: 10_000 })).textContent()).toContain(
      "publication.json",
    );

    writeFileSync(publicationJson(), good);
    await page.waitForFunction(() => document.querySelector("#pub-title")?.textContent === "Serial", null, {
      timeout: 10_000,
    });
    expect(await page.$("#littlepress-problem")).toBeNull();
    expect(browser.errors).toEqual([]);
  });
});
