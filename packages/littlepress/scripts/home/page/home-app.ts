// The household's page, as one Hono app: set up, log in (passphrase or a
// pairing code printed on the first printer), the printers (add, rename, ask
// their status, test print, remove), a printer's subscriptions and history.
// The publication routes are subscribe-routes.ts's.
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { historyOf, historyPicture, subscriptionsOf } from "../home-jobs.ts";
import type { HomeContext } from "../home-send.ts";
import { addPrinter, askStatus, getPrinter, listPrinters, removePrinter, renamePrinter } from "../printers.ts";
import { printSlip } from "../slips.ts";
import * as auth from "./auth.ts";
import { csrfGuard, homeNetworkOnly, type HomeEnv } from "./guards.ts";
import { subscribeRoutes } from "./subscribe-routes.ts";
import { homePage, loginPage, printerPage, setupPage } from "./views.ts";

export interface HomeAppOptions {
  ctx: HomeContext;
  /** Answer clients at public addresses too (default: the home network only). */
  allowPublic?: boolean;
  /** Host names the page answers to besides addresses, localhost and .local/.lan names. */
  hosts?: readonly string[];
  /** The clock (tests). */
  now?: () => Date;
}

export function homeApp(o: HomeAppOptions): Hono<HomeEnv> {
  const { db } = o.ctx;
  const now = o.now ?? (() => new Date());
  const secret = auth.serverSecret(db);
  const app = new Hono<HomeEnv>();
  const csrf = (c: Context<HomeEnv>) => auth.csrfToken(secret, c.get("browser"));
  app.use(homeNetworkOnly({ allowPublic: o.allowPublic ?? false, hosts: o.hosts ?? [] }));
  app.use(csrfGuard(secret));
  authRoutes(app, o, csrf);
  // Everything below needs a login.
  app.use(async (c, next) => {
    if (auth.sessionValid(db, getCookie(c, auth.SESSION_COOKIE), now())) return next();
    return c.redirect("/login", 303);
  });
  printerRoutes(app, o, csrf);
  subscribeRoutes(app, o.ctx, csrf, now);
  return app;
}

function authRoutes(app: Hono<HomeEnv>, o: HomeAppOptions, csrf: (c: Context<HomeEnv>) => string): void {
  const { db } = o.ctx;
  const now = o.now ?? (() => new Date());
  const login = (c: Context<HomeEnv>) => {
    setCookie(c, auth.SESSION_COOKIE, auth.newSession(db, now()), { httpOnly: true, sameSite: "Strict", path: "/" });
    return c.redirect("/", 303);
  };
  app.get("/setup", (c) => (auth.setupCode(db) ? c.html(setupPage(csrf(c))) : c.redirect("/login", 303)));
  app.post("/setup", (c) => {
    const f = c.get("form");
    const problem = auth.setPassphrase(db, f.code ?? "", f.passphrase ?? "", f.again ?? "");
    return problem ? c.html(setupPage(csrf(c), problem), 400) : login(c);
  });
  app.get("/login", (c) => (auth.setupCode(db) ? c.redirect("/setup", 303) : c.html(loginPage(csrf(c)))));
  app.post("/login", (c) => {
    const f = c.get("form");
    if (f.passphrase !== undefined && auth.passphraseMatches(db, f.passphrase)) return login(c);
    if (f.pairing !== undefined && auth.usePairingCode(db, f.pairing, now())) return login(c);
    const which =
      f.pairing !== undefined
        ? "That pairing code is not the one printed (or it is older than 10 minutes)."
        : "That passphrase is not the one set.";
    return c.html(loginPage(csrf(c), which), 403);
  });
  app.post("/pairing", async (c) => {
    const [page, status] = await printPairing(o, now());
    return c.html(page(csrf(c)), status);
  });
  app.post("/logout", (c) => {
    auth.endSession(db, getCookie(c, auth.SESSION_COOKIE));
    deleteCookie(c, auth.SESSION_COOKIE, { path: "/" });
    return c.redirect("/login", 303);
  });
}

/** Prints a pairing code on the first printer; the login page's words (given the form's token), and its status. */
async function printPairing(o: HomeAppOptions, at: Date): Promise<[(csrf: string) => string, 200 | 400 | 502]> {
  const first = listPrinters(o.ctx.db)[0];
  if (!first) return [(t) => loginPage(t, "There is no printer to print a pairing code on yet."), 400];
  const code = auth.newPairingCode(o.ctx.db, at);
  const lines = ["Pairing code for littlepress:", code, "Good for 10 minutes."];
  const rec = await printSlip(o.ctx, first, "pairing code", lines, at);
  if (rec?.state === "printed")
    return [(t) => loginPage(t, undefined, `A pairing code was printed on ${first.name}.`), 200];
  return [
    (t) => loginPage(t, `The pairing code could not be printed: ${rec?.detail ?? "another print is at it"}`),
    502,
  ];
}

function printerRoutes(app: Hono<HomeEnv>, o: HomeAppOptions, csrf: (c: Context<HomeEnv>) => string): void {
  const { db } = o.ctx;
  const now = o.now ?? (() => new Date());
  app.get("/", (c) => c.html(homePage(csrf(c), listPrinters(db))));
  app.post("/printers", (c) => {
    const f = c.get("form");
    const added = addPrinter(db, { name: f.name ?? "", address: f.address ?? "", width: f.width ?? 384 }, now());
    return "problem" in added ? c.html(homePage(csrf(c), listPrinters(db), added.problem), 400) : c.redirect("/", 303);
  });
  app.get("/printers/:id", (c) => {
    const p = getPrinter(db, c.req.param("id"));
    if (!p) return c.html(homePage(csrf(c), listPrinters(db), "There is no such printer (removed?)."), 404);
    return c.html(printerPage(csrf(c), p, subscriptionsOf(db, p.id), historyOf(db, p.id)));
  });
  app.post("/printers/:id/:action{rename|remove|status|test}", async (c) => {
    const p = getPrinter(db, c.req.param("id"));
    if (!p) return c.html(homePage(csrf(c), listPrinters(db), "There is no such printer (removed?)."), 404);
    const action = c.req.param("action");
    if (action === "remove") removePrinter(db, p.id);
    if (action === "test")
      await printSlip(o.ctx, p, "test print", [`Test print: ${p.name}`, now().toUTCString()], now());
    if (action === "status") await askStatus(db, p, o.ctx.policy(), now(), o.ctx.status);
    const problem = action === "rename" ? renamePrinter(db, p.id, c.get("form").name ?? "") : undefined;
    if (problem) return c.html(homePage(csrf(c), listPrinters(db), problem), 400);
    return c.redirect(action === "test" ? `/printers/${p.id}` : "/", 303);
  });
  app.get("/pictures/:file{[0-9]+\\.png}", (c) => {
    const png = historyPicture(db, Number(c.req.param("file").slice(0, -4)));
    if (!png) return c.text("No such picture.\n", 404);
    return c.body(new Uint8Array(png), 200, { "Content-Type": "image/png", "Cache-Control": "private, max-age=86400" });
  });
}
