// The household's page over real HTTP on 127.0.0.1: set up with the setup
// code, log in, add a printer and ask its status, paste a publication (its
// card: name, description cleaned, icon), fill its form with an invalid
// answer (the publication's own error beside the field), subscribe, print now,
// see the history with the 1-bit picture. Every POST needs the CSRF token;
// a Host name that is not this machine's is refused.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Db } from "../../scripts/home/home-db.ts";
import { historyOf } from "../../scripts/home/home-jobs.ts";
import { newPairingCode, setupCode, usePairingCode } from "../../scripts/home/page/auth.ts";
import { listPrinters } from "../../scripts/home/printers.ts";
import type { StatusPrinter } from "../helpers/escpos-status-printer.ts";
import { rawOnce } from "../helpers/raw-http.ts";
import type { HomePublication } from "../helpers/home-publication.ts";
import { startHomeSite, type HomeSite } from "../helpers/home-world.ts";

let home: HomeSite;
let db: Db;
let printer: StatusPrinter;
let pub: HomePublication;
let base: string;
let lines: string[];

beforeEach(async () => {
  home = await startHomeSite();
  ({ db, printer, pub, base, lines } = home);
});
afterEach(() => home.close());

/** A browser: its cookies, and the CSRF token of the last page it read. */
function browser() {
  const jar = new Map<string, string>();
  let csrf = "";
  const request = async (
    method: string,
    url: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(base + url, {
      method,
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams({ csrf, ...form }).toString() : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, v] = pair!.split("=");
      jar.set(k!, v!);
    }
    const text = await res.text();
    csrf = /name="csrf" value="([^"]+)"/.exec(text)?.[1] ?? csrf;
    return { status: res.status, location: res.headers.get("location"), text, res };
  };
  return {
    get: (url: string, h?: Record<string, string>) => request("GET", url, undefined, h),
    post: (url: string, form: Record<string, string>) => request("POST", url, form),
    jar,
    setCsrf: (t: string) => (csrf = t),
  };
}

it("takes an owner from setup to a printed edition in its history", async () => {
  const b = browser();
  expect((await b.get("/")).location).toBe("/login");
  expect((await b.get("/login")).location).toBe("/setup");
  expect((await b.get("/setup")).text).toContain("setup code");
  expect((await b.post("/setup", { code: "wrong", passphrase: "long enough", again: "long enough" })).text).toContain(
    "Setup code: that is not the code",
  );
  const set = await b.post("/setup", { code: setupCode(db)!, passphrase: "long enough", again: "long enough" });
  expect(set).toMatchObject({ status: 303, location: "/" });
  await b.get("/");
  expect((await b.post("/printers", { name: "Kitchen", address: "tcp://nowhere:x", width: "384" })).text).toContain(
    "Address:",
  );
  expect((await b.post("/printers", { name: "Kitchen", address: printer.url, width: "384" })).status).toBe(303);
  const [kitchen] = listPrinters(db);
  await b.get("/");
  await b.post(`/printers/${kitchen!.id}/status`, {});
  expect((await b.get("/")).text).toMatch(/class="status">online, last seen/);

  const card = await b.post(`/printers/${kitchen!.id}/publication`, { url: pub.url, home: "1" });
  expect(card.status).toBe(200);
  expect(card.text).toContain("The Daily Hello");
  expect(card.text).toContain("Says <strong>hello</strong>");
  expect(card.text).not.toContain("<script>");
  expect(card.text).toContain('src="data:image/png;base64,');
  expect(card.text).toContain('<option value="de">Deutsch</option>');

  const form = { url: pub.url, setting_name: "", setting_lang: "de", hour: "7", zone: "Europe/Berlin" };
  const refused = await b.post(`/printers/${kitchen!.id}/subscribe`, form);
  expect(refused.status).toBe(400);
  expect(refused.text).toMatch(/data-field="name">Your name: write the name to greet\.<\/span>/);
  expect(pub.validated.at(-1)).toBe('{"name":"","lang":"de"}');
  const ok = await b.post(`/printers/${kitchen!.id}/subscribe`, { ...form, setting_name: "Ada" });
  expect(ok).toMatchObject({ status: 303, location: `/printers/${kitchen!.id}` });
  const page = await b.get(`/printers/${kitchen!.id}`);
  expect(page.text).toContain("Every day at 07:00 Europe/Berlin");
  const sub = /data-subscription="([0-9a-f]+)"/.exec(page.text)![1]!;

  await b.post(`/subscriptions/${sub}/print-now`, {});
  expect(printer.stream.jobs).toHaveLength(1);
  const history = await b.get(`/printers/${kitchen!.id}`);
  expect(history.text).toContain('data-outcome="printed"');
  const img = /src="(\/pictures\/\d+\.png)"/.exec(history.text)![1]!;
  const png = await b.get(img);
  expect(png.res.headers.get("content-type")).toBe("image/png");
  expect(lines.some((l) => l.includes("print now printed"))).toBe(true);
});

it("refuses a POST without the CSRF token, a wrong passphrase, and a Host that is not this machine's", async () => {
  const b = browser();
  await b.get("/setup");
  b.setCsrf("forged");
  expect(
    (await b.post("/setup", { code: setupCode(db)!, passphrase: "long enough", again: "long enough" })).status,
  ).toBe(403);
  expect(setupCode(db)).toBeDefined(); // nothing was set
  const evil = await rawOnce(base, "GET", "/login", { Host: "printer.attacker.example" });
  expect(evil.status).toBe(421);
  expect((await rawOnce(base, "GET", "/login", { Host: "printer.local:8631" })).status).toBe(303);
  const ok = browser();
  await ok.get("/setup");
  await ok.post("/setup", { code: setupCode(db)!, passphrase: "long enough", again: "long enough" });
  const other = browser();
  await other.get("/login");
  expect((await other.post("/login", { passphrase: "not it at all" })).status).toBe(403);
  expect((await other.post("/login", { passphrase: "long enough" })).location).toBe("/");
  expect((await b.get("/")).location).toBe("/login"); // not logged in
  expect((await b.get("/")).res.headers.get("content-security-policy")).toContain("default-src 'none'");
});

it("prints a pairing code on the first printer, good once and for 10 minutes", async () => {
  const b = browser();
  await b.get("/setup");
  await b.post("/setup", { code: setupCode(db)!, passphrase: "long enough", again: "long enough" });
  await b.post("/printers", { name: "Kitchen", address: printer.url, width: "384" });
  const stranger = browser();
  await stranger.get("/login");
  const printed = await stranger.post("/pairing", {});
  expect(printed.text).toContain("A pairing code was printed on Kitchen.");
  expect(printer.stream.jobs).toHaveLength(1);
  expect(historyOf(db, listPrinters(db)[0]!.id)[0]).toMatchObject({ job: "pairing code", picture: 0 });
  const at = new Date();
  const code = newPairingCode(db, at);
  expect(usePairingCode(db, code, new Date(at.getTime() + 11 * 60_000))).toBe(false);
  const again = newPairingCode(db, at);
  expect(usePairingCode(db, again, at)).toBe(true);
  expect(usePairingCode(db, again, at)).toBe(false);
});
