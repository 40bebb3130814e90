// Subscribing a printer to any publication: paste its URL (its origin joins
// the household's allow-list, at a private address only when the owner says
// it is on the home network), see its card and form, send the answers to its
// own validate_config/, and subscribe; then Print now, unsubscribe, or
// subscribe again after the series ended.
import type { Context, Hono } from "hono";
import { publicationBase } from "../../../lib/platform/printers/escpos-publication.ts";
import { getSubscription, historyOf, subscriptionsOf } from "../home-jobs.ts";
import type { HomeContext } from "../home-send.ts";
import { getPrinter, type HomePrinterRow } from "../printers.ts";
import { allowOrigin, errorsByField, readCard, validateSettings, type PublicationCard } from "../publications.ts";
import { printNow } from "../runs.ts";
import { addSubscription, removeSubscription, resubscribe, scheduleProblems } from "../subscriptions.ts";
import type { HomeEnv } from "./guards.ts";
import { nextEdition, sample } from "../previews.ts";
import { previewPage, subscribePage, type FormState } from "./subscribe-view.ts";
import { printerPage } from "./views.ts";

type Csrf = (c: Context<HomeEnv>) => string;

/** What the subscribe routes are given. */
interface Routes {
  ctx: HomeContext;
  csrf: Csrf;
  now: () => Date;
}

export function subscribeRoutes(app: Hono<HomeEnv>, ctx: HomeContext, csrf: Csrf, now: () => Date): void {
  const r: Routes = { ctx, csrf, now };
  app.post("/printers/:id/publication", async (c) => {
    const got = await cardFor(r, c, true);
    if ("answer" in got) return got.answer;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const shown = await sample(ctx, got.card.base, got.card.name);
    const state = { values: { zone }, byField: new Map<string, string[]>(), rest: [] };
    return c.html(subscribePage(csrf(c), got.p, got.card, state, shown));
  });
  app.post("/printers/:id/subscribe", async (c) => {
    const got = await cardFor(r, c, false);
    return "answer" in got ? got.answer : subscribe(r, c, got.p, got.card);
  });
  app.get("/subscriptions/:id/preview", async (c) => {
    const row = getSubscription(ctx.db, c.req.param("id"));
    const p = row && getPrinter(ctx.db, row.printer_id);
    if (!row || !p) return c.text("There is no such subscription (removed?).\n", 404);
    const preview = await nextEdition(ctx, row, p.kind === "key" ? 384 : p.width, now());
    return c.html(previewPage(p, row, preview));
  });
  app.post("/subscriptions/:id/:action{print-now|remove|resubscribe}", async (c) => {
    const row = getSubscription(ctx.db, c.req.param("id"));
    const p = row && getPrinter(ctx.db, row.printer_id);
    if (!row || !p) return c.text("There is no such subscription (removed?).\n", 404);
    const action = c.req.param("action");
    if (action === "remove") removeSubscription(ctx.db, row.id);
    if (action === "resubscribe") resubscribe(ctx.db, row.id, now());
    if (action === "print-now") await printNow(ctx, p, row, now());
    return c.redirect(`/printers/${p.id}`, 303);
  });
}

/** The printer and the publication's card the form names; or the page that says what is wrong. */
async function cardFor(r: Routes, c: Context<HomeEnv>, addToList: boolean) {
  const { db } = r.ctx;
  const p = getPrinter(db, c.req.param("id") ?? "");
  if (!p) return { answer: c.text("There is no such printer (removed?).\n", 404) };
  const problem = (error: string) => ({
    answer: c.html(printerPage(r.csrf(c), p, subscriptionsOf(db, p.id), historyOf(db, p.id), error), 400),
  });
  const base = publicationBase(c.get("form").url ?? "");
  if ("problem" in base) return problem(`Publication URL: ${base.problem}`);
  if (addToList) allowOrigin(db, base.origin, c.get("form").home === "1");
  const card = await readCard(base, r.ctx.policy());
  if ("error" in card) return problem(`Publication: ${card.error}`);
  return { p, card };
}

/** The answers checked (the hour and zone here, the settings by the publication): subscribed, or the form again. */
async function subscribe(r: Routes, c: Context<HomeEnv>, p: HomePrinterRow, card: PublicationCard) {
  const f = c.get("form");
  const settings = Object.fromEntries(card.fields.map((field) => [field.name, f[`setting_${field.name}`] ?? ""]));
  const values = { ...settings, hour: f.hour ?? "", zone: f.zone ?? "" };
  const schedule = scheduleProblems(values.hour, values.zone);
  const verdict = await validateSettings(card.base, card.fields, settings, r.ctx.policy());
  if (!schedule.size && "valid" in verdict && verdict.valid) {
    const entries = card.fields.map((field): [string, string] => [field.name, settings[field.name] ?? ""]);
    const s = { printerId: p.id, base: card.base, name: card.name, hour: values.hour, zone: values.zone };
    addSubscription(r.ctx.db, { ...s, settings: entries }, r.now());
    return c.redirect(`/printers/${p.id}`, 303);
  }
  const errors = "errors" in verdict ? errorsByField(card.fields, verdict.errors) : { byField: new Map(), rest: [] };
  const state: FormState = {
    values,
    byField: errors.byField,
    rest: "error" in verdict ? [verdict.error] : errors.rest,
  };
  for (const [field, problem] of schedule) state.byField.set(field, [problem]);
  return c.html(subscribePage(r.csrf(c), p, card, state), 400);
}
