// The desk's delivery history in Chromium: a printer subscribed, one run
// delivered, and the publication's page shows the subscription and its
// delivery (the time, the status, the ETag, printed or not), and never its key.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { runDeliveries } from "../../lib/platform/delivering/run.ts";
import { startServer, type LocalServer } from "../../lib/server/server.ts";
import { stateSetup, type StateSetup } from "../../lib/platform/stores/state-setup.ts";
import { createSubscription } from "../../lib/platform/subscribing/subscription-records.ts";
import { tempLocalState } from "../helpers/local-state.ts";
import { startPrintKeys, type FakePrintKeys } from "../helpers/print-keys.ts";
import { builtSite } from "../helpers/sites.ts";
import { ready, withBrowser } from "./desk-page.ts";

let server: LocalServer | undefined;
let sirius: FakePrintKeys;
const key = randomBytes(6).toString("hex");
const local = tempLocalState("history");
const desk = withBrowser({
  get url() {
    if (!server) throw new Error("the server starts in beforeAll");
    return server.url;
  },
});

beforeAll(async () => {
  server = await startServer({ port: 0, siteDir: builtSite("examples"), stateDir: local.folder, history: true });
  sirius = await startPrintKeys({ [key]: { name: "Kitchen", owner: "Ada", online: true } });
  const state = stateSetup(local) as StateSetup;
  await createSubscription(state.store, state.sealKey, {
    slug: "lighthouse",
    printKey: new URL(sirius.keyUrl(key)),
    printer: "Kitchen",
    zone: "Europe/Paris",
    hour: 6,
    settings: [],
    at: new Date("2026-11-01T00:00:00Z"),
  });
  const at = new Date(localDeliveryTime("2026-11-20", 6, "Europe/Paris").ms + 60_000);
  await runDeliveries({ ...state, origin: server.url, printKeys: sirius.policy, at });
});
afterAll(async () => {
  await server?.close();
  await sirius.close();
  local.remove();
});

it("shows each subscription's deliveries: the time, the status, the ETag, printed or not", async () => {
  const page = await desk.open("/lighthouse/");
  await ready(page);
  await page.waitForSelector("#history-body .history table");
  const head = await page.locator("#history-body h3").textContent();
  expect(head).toMatch(/^Kitchen · 06:00 Europe\/Paris · [\w-]+ · next delivery_count 1 · active$/);
  const cells = await page.locator("#history-body tbody tr td").allTextContents();
  expect(cells[0]).toBe("2026-11-20T06:00:00+01:00");
  expect(cells[2]).toBe("0");
  expect(cells[3]).toBe("printed: sent to the printer");
  expect(cells[4]).toBe("200");
  expect(cells[5]).toMatch(/^".+"$/);
  expect(cells[6]).toBe("printed");
  expect(await page.content()).not.toContain(key);
  expect(desk.errors).toEqual([]);
});

it("shows an ended subscription: when and why it ended, and what became of its end slip", async () => {
  const attic = randomBytes(6).toString("hex");
  sirius.printers.set(attic, { name: "Attic", owner: "Ada", online: true });
  const state = stateSetup(local) as StateSetup;
  const { subscription } = await createSubscription(state.store, state.sealKey, {
    slug: "lighthouse",
    printKey: new URL(sirius.keyUrl(attic)),
    printer: "Attic",
    zone: "Europe/Paris",
    hour: 6,
    settings: [],
    at: new Date("2026-11-01T00:00:00Z"),
  });
  const key = `subscriptions/${subscription.id}`;
  await state.store.put(key, { ...subscription, deliveryCount: 7 }); // past the last part: the next delivery is a 410
  const at = new Date(localDeliveryTime("2026-11-21", 6, "Europe/Paris").ms + 60_000);
  await runDeliveries({ ...state, origin: server!.url, printKeys: sirius.policy, at });
  const page = await desk.open("/lighthouse/");
  await ready(page);
  const head = page.locator("#history-body h3", { hasText: "Attic" });
  await head.waitFor();
  expect(await head.textContent()).toBe(
    `Attic · 06:00 Europe/Paris · ${subscription.id} · next delivery_count 8 · ended 2026-11-21: ` +
      "the series is over (410); end slip printed: the end slip was sent to the printer",
  );
  expect(desk.errors).toEqual([]);
});
