// The household's page in a real browser (Chromium through playwright-core),
// as an owner uses it: set the passphrase, add a printer, paste a publication,
// see its sample, fill its form with an invalid answer and see the
// publication's error beside the field, subscribe, see the next edition,
// print now, and see the history with the picture sent.
import type { BrowserContext } from "playwright-core";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Db } from "../../scripts/home/home-db.ts";
import { setupCode } from "../../scripts/home/page/auth.ts";
import { workerBrowser } from "../helpers/browser.ts";
import type { StatusPrinter } from "../helpers/escpos-status-printer.ts";
import type { HomePublication } from "../helpers/home-publication.ts";
import { startHomeSite, type HomeSite } from "../helpers/home-world.ts";

let home: HomeSite;
let context: BrowserContext;
let db: Db;
let printer: StatusPrinter;
let pub: HomePublication;
let base: string;

beforeEach(async () => {
  home = await startHomeSite();
  ({ db, printer, pub, base } = home);
  context = await (await workerBrowser()).newContext();
});
afterEach(async () => {
  await context.close();
  await home.close();
});

it("takes an owner from the first visit to a printed edition, in Chromium", async () => {
  const page = await context.newPage();
  await page.goto(`${base}/`);
  expect(new URL(page.url()).pathname).toBe("/setup");
  await page.getByLabel("Setup code").fill(setupCode(db)!);
  await page.getByLabel("Passphrase", { exact: true }).fill("correct horse");
  await page.getByLabel("Passphrase again").fill("correct horse");
  await page.getByRole("button", { name: "Set it" }).click();
  await page.getByLabel("Name").fill("Kitchen");
  await page.getByLabel("Address").fill(printer.url);
  await page.getByLabel("Paper").selectOption("576");
  await page.getByRole("button", { name: "Add printer" }).click();
  await page.getByRole("button", { name: "Ask its status" }).click();
  await expect.poll(() => page.locator(".status").textContent()).toContain("online");
  await page.getByRole("link", { name: "Kitchen" }).click();

  await page.getByLabel("Publication URL").fill(pub.url);
  await page.getByLabel("It is on my home network").check();
  await page.getByRole("button", { name: "Read it" }).click();
  await expect.poll(() => page.locator("h1").textContent()).toBe("The Daily Hello");
  expect(await page.locator(".description strong").textContent()).toBe("hello");
  const sample = page.locator(".publication figure.preview img");
  await expect.poll(() => sample.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(384);
  await page.getByLabel("Language").selectOption("de");
  await page.getByLabel("Delivery time").selectOption("7");
  await page.getByLabel("Time zone").fill("Europe/Berlin");
  await page.getByRole("button", { name: "Subscribe Kitchen" }).click();
  const beside = page.locator("label:has(#setting-name) .field-error");
  expect(await beside.textContent()).toBe("Your name: write the name to greet.");
  expect(await page.getByLabel("Language").inputValue()).toBe("de"); // the answers are kept
  await page.getByLabel("Your name").fill("Ada");
  await page.getByRole("button", { name: "Subscribe Kitchen" }).click();
  await expect
    .poll(() => page.locator("[data-subscription]").textContent())
    .toContain("Every day at 07:00 Europe/Berlin");

  await page.getByRole("link", { name: "See the next edition" }).click();
  expect(await page.locator("figcaption").textContent()).toMatch(/delivery_count 0, local_delivery_time \d{4}-/);
  const next = page.locator("figure.preview img");
  await expect.poll(() => next.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(576);
  expect(pub.requests.filter((r) => r.includes("/edition/"))).toHaveLength(1);
  expect(printer.stream.jobs).toHaveLength(0); // a preview prints nothing
  await page.getByRole("link", { name: "Back to Kitchen" }).click();
  await page.getByRole("button", { name: "Print now" }).click();
  await expect.poll(() => page.locator('tr.history[data-outcome="printed"]').count()).toBe(1);
  expect(printer.stream.jobs).toHaveLength(1);
  expect(printer.stream.jobs[0]!.width).toBe(576);
  const img = page.locator("img.print");
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(576);
  expect(JSON.parse(pub.validated.at(-1)!)).toEqual({ name: "Ada", lang: "de" });
}, 60_000);
