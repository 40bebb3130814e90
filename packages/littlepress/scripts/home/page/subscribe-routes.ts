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
import { subscribePage, type FormState } from "./subscribe-view.ts";
import { printerPage } from "./views.ts";

type Csrf = (c: Context<HomeEnv>) => string;

export function subscribeRoutes(app: Hono<HomeEnv>, ctx: HomeContext, csrf: Csrf, now: () => Date): void {
  const { db } = ctx;
  const printerError = (c: Context<HomeEnv>, p: HomePrinterRow, error: string) =>
    c.html(printerPage(csrf(c), p, subscriptionsOf(db, p.id), historyOf(db, p.id), error), 400);
  /** The printer and the publication's card the form names; or the page that says what is wrong. */
  const cardFor = async (c: Context<HomeEnv>, addToList: boolean) => {
    const p = getPrinter(db, c.req.param("id") ?? "");
    if (!p) return { answer: c.text("There is no such printer (removed?).\n", 404) };
    const base = publicationBase(c.get("form").url ?? "");
    if ("problem" in base) return { answer: printerError(c, p, `Publication URL: ${base.problem}`) };
    if (addToList) allowOrigin(db, base.origin, c.get("form").home === "1");
    const card = await readCard(base, ctx.policy());
    if ("error" in card) return { answer: printerError(c, p, `Publication: ${card.error}`) };
    return { p, card };
  };
  app.post("/printers/:id/publication", async (c) => {
    const got = await cardFor(c, true);
    if ("answer" in got) return got.answer;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return c.html(subscribePage(csrf(c), got.p, got.card, { values: { zone }, byField: new Map(), rest: [] }));
  });
  app.post("/printers/:id/subscribe", async (c) => {
    const got = await cardFor(c, false);
    if ("answer" in got) return got.answer;
    return subscribe(c, got.p, got.card);
  });
  const subscribe = async (c: Context<HomeEnv>, p: HomePrinterRow, card: PublicationCard) => {
    const f = c.get("form");
    const settings = Object.fromEntries(card.fields.map((field) => [field.name, f[`setting_${field.name}`] ?? ""]));
    const values = { ...settings, hour: f.hour ?? "", zone: f.zone ?? "" };
    const schedule = scheduleProblems(values.hour, values.zone);
    const verdict = await validateSettings(card.base, card.fields, settings, ctx.policy());
    if (!schedule.size && "valid" in verdict && verdict.valid) {
      const entries = card.fields.map((field): [string, string] => [field.name, settings[field.name] ?? ""]);
      const s = { printerId: p.id, base: card.base, name: card.name, hour: values.hour, zone: values.zone };
      addSubscription(db, { ...s, settings: entries }, now());
      return c.redirect(`/printers/${p.id}`, 303);
    }
    const errors = "errors" in verdict ? errorsByField(card.fields, verdict.errors) : { byField: new Map(), rest: [] };
    const state: FormState = {
      values,
      byField: errors.byField,
      rest: "error" in verdict ? [verdict.error] : errors.rest,
    };
    for (const [field, problem] of schedule) state.byField.set(field, [problem]);
    return c.html(subscribePage(csrf(c), p, card, state), 400);
  };
  app.post("/subscriptions/:id/:action{print-now|remove|resubscribe}", async (c) => {
    const row = getSubscription(db, c.req.param("id"));
    const p = row && getPrinter(db, row.printer_id);
    if (!row || !p) return c.text("There is no such subscription (removed?).\n", 404);
    const action = c.req.param("action");
    if (action === "remove") removeSubscription(db, row.id);
    if (action === "resubscribe") resubscribe(db, row.id, now());
    if (action === "print-now") await printNow(ctx, p, row, now());
    return c.redirect(`/printers/${p.id}`, 303);
  });
}
