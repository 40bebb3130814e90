// Subscribing, as the platform did it: the form built from the publication's
// meta.json, the print key checked with its GET (sirius), the settings sent to
// the publication's own validate_config/ exactly as the platform sent them
// (a form field `config` holding JSON), its errors shown after the platform's
// alert; on `valid: true` the subscription is stored with its print key
// sealed, and the subscriber gets a private unsubscribe link, which works on
// its own publication's page only. Rate-limited per client, and capped per
// publication (maxSubscriptions) with a seat taken before anything else is asked (seats.ts).
import type { SpecField } from "../../model/config-fields.ts";
import { pad } from "../../model/dates.ts";
import { parsePrintKeyUrl } from "../../model/print-key.ts";
import { isTimeZone } from "../../model/time-zones.ts";
import { MAX_BODY_BYTES } from "../../edge/config-request.ts";
import { CUT_SHORT, readLimited } from "../../edge/request-limits.ts";
import type { PrintKeyPolicy } from "../printers/print-key-client.ts";
import { allowTry, type RateLimit } from "./rate-limit.ts";
import type { StateStore } from "../stores/state-store.ts";
import type { PublishedPublication } from "../../edge/publication-store.ts";
import {
  messagePage,
  SETTING_PREFIX,
  subscribeForm,
  subscribedPage,
  unsubscribeForm,
  type FormValues,
  type PageField,
  type PageMeta,
} from "./subscribe-page.ts";
import { publicationSchedule } from "./schedule.ts";
import { returnSeat, takeSeat, type TakenSeat } from "../stores/seats.ts";
import { checkPrintKey } from "./print-key-check.ts";
import { createSubscription, newSubscriptionId, unsubscribe } from "./subscription-records.ts";
import { liveSubscriptions } from "../stores/subscriptions.ts";

export interface SubscribeOptions {
  store: StateStore;
  sealKey: Buffer;
  /** Where the publication is served: its meta.json and validate_config/ are asked there, over HTTP. */
  origin: string;
  /** The site's address as the subscriber reached it, for the unsubscribe link (default: `origin`). */
  publicOrigin?: string;
  /** The publication's slug ("" at the site root). */
  slug: string;
  /** The client's address, for the rate limit: the platform's own field or the socket's, never a request header. */
  client: string;
  /** Where print keys may be, and how they are asked (lib/platform/printers/print-key-client.ts). */
  printKeys: PrintKeyPolicy;
  at?: Date;
  limit?: RateLimit;
  /** Live subscriptions a publication takes at most (default MAX_SUBSCRIPTIONS); past it, subscribing answers 409. */
  maxSubscriptions?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The built publication, whose editions say when it is delivered (schedule.ts); unknown without it. */
  publication?: PublishedPublication;
}

/** What the page says without the built publication to read the schedule from. */
const UNKNOWN_SCHEDULE = "on the days it has an edition";

/** Tries per client and hour (each try checks a print key and calls validate_config/). */
export const SUBSCRIBE_LIMIT: RateLimit = { action: "subscribe", perHour: 10 };
/** Live subscriptions per publication, unless the site says otherwise. */
export const MAX_SUBSCRIPTIONS = 1000;

/** Answers GET (the form, or an unsubscribe link's confirmation) and POST (subscribe, unsubscribe). */
export async function subscribeRequest(req: Request, o: SubscribeOptions): Promise<Response> {
  const meta = await readMeta(o);
  if ("error" in meta) return html(messagePage("No publication here", meta.error), 404);
  if (req.method === "GET" || req.method === "HEAD") {
    const link = new URL(req.url).searchParams.get("unsubscribe");
    if (link === null) return html(subscribeForm(meta));
    const [id = "", token = ""] = link.split(".");
    return html(unsubscribeForm(meta, id, token));
  }
  if (req.method !== "POST") return html(messagePage("Not allowed", "This page takes GET and POST."), 405, "GET, POST");
  const form = await readForm(req);
  if (!form) return html(messagePage("Not understood", "Send the form from the subscribe page."), 400);
  if (form.get("action") === "unsubscribe") return unsubscribeAnswer(meta, form, o);
  const at = o.at ?? new Date();
  if (!(await allowTry(o.store, o.limit ?? SUBSCRIBE_LIMIT, o.client, o.sealKey, at)))
    return html(
      messagePage("Too many tries", "Too many subscribe tries from here this hour; please try again later."),
      429,
    );
  return subscribeOnASeat(meta, form, o, at);
}

/** An unsubscribe link's form sent back: the subscription ended, or why not. */
async function unsubscribeAnswer(meta: PageMeta, form: URLSearchParams, o: SubscribeOptions): Promise<Response> {
  const done = await unsubscribe(o.store, o.slug, form.get("id") ?? "", form.get("token") ?? "", o.at);
  if (done === "unsubscribed")
    return html(messagePage("Unsubscribed", `Your printer will not print ${meta.name} any more.`));
  if (done === "another publication")
    return html(
      messagePage(
        "Link not for this publication",
        `This unsubscribe link is for another publication, not ${meta.name}; nothing was changed. ` +
          "Open the link exactly as you were given it.",
      ),
      404,
    );
  return html(messagePage("Link not valid", "This unsubscribe link is not valid, or was used already."), 404);
}

/**
 * A subscribe within the publication's cap. 409 Conflict when it is full: the request is good and the client
 * may make it, but the publication's present state refuses it, and that state can change (an unsubscribe, a
 * higher cap). Not 403, which says the client is not allowed; not 429, which is the client's own rate.
 * Counted before the print key and validate_config/ are asked, from the publication's index (keys listed, no
 * subscription read), which counts the subscriptions made before seats too; then a seat is taken, which holds
 * the place under concurrency, and given back unless the subscription is made.
 */
async function subscribeOnASeat(
  meta: PageMeta,
  form: URLSearchParams,
  o: SubscribeOptions,
  at: Date,
): Promise<Response> {
  const max = o.maxSubscriptions ?? MAX_SUBSCRIPTIONS;
  const full = () =>
    html(
      messagePage(
        "This publication is full",
        `${meta.name} has as many subscribers as it takes just now, so no printer can subscribe to it. ` +
          "Please ask its author.",
      ),
      409,
    );
  if ((await liveSubscriptions(o.store, o.slug)) >= max) return full();
  const id = newSubscriptionId();
  const seat = await takeSeat(o.store, o.slug, id, max, at);
  if (!seat) return full();
  let made = false;
  try {
    const res = await subscribe(meta, form, o, at, { id, seat });
    made = res.status === 200;
    return res;
  } finally {
    if (!made) await returnSeat(o.store, seat, at);
  }
}

async function subscribe(
  meta: PageMeta,
  form: URLSearchParams,
  o: SubscribeOptions,
  at: Date,
  held: { id: string; seat: TakenSeat },
): Promise<Response> {
  const values = formValues(meta, form);
  const refuse = (errors: string[]) => html(subscribeForm(meta, values, errors), 400);
  const errors: string[] = [];
  const key = parsePrintKeyUrl(form.get("print_key") ?? "");
  if ("error" in key) errors.push(key.error);
  if (!isTimeZone(values.zone))
    errors.push(`Time zone: "${values.zone}" is not a time zone; use a name such as Europe/London.`);
  const hour = Number(values.hour);
  if (!/^\d{1,2}$/.test(values.hour) || hour > 23) errors.push("Delivery time: choose an hour from 00:00 to 23:00.");
  if (errors.length || "error" in key) return refuse(errors);
  const printer = await checkPrintKey(key, o.printKeys);
  if ("error" in printer) return refuse([printer.error]);
  const verdict = await validateSettings(meta.fields, values.settings, o);
  if ("error" in verdict) return refuse([verdict.error]);
  if (!verdict.valid) return refuse(verdict.errors);
  const { subscription, token } = await createSubscription(o.store, o.sealKey, {
    slug: o.slug,
    printKey: key,
    printer: printer.name,
    zone: values.zone,
    hour,
    settings: meta.fields.map((f) => [f.name, values.settings[f.name] ?? ""]),
    at,
    id: held.id,
    seat: held.seat.seat,
  });
  const link = new URL(o.slug ? `/${o.slug}/subscribe/` : "/subscribe/", o.publicOrigin ?? o.origin);
  link.searchParams.set("unsubscribe", `${subscription.id}.${token}`);
  const when = `${meta.schedule} at ${pad(hour)}:00 (${values.zone}), from the next one on`;
  return html(subscribedPage(meta, printer, link.href, when));
}

/** The form's time zone, hour and settings, as typed (trimmed). */
function formValues(meta: PageMeta, form: URLSearchParams): FormValues {
  return {
    zone: (form.get("zone") ?? "").trim(),
    hour: (form.get("hour") ?? "").trim(),
    settings: Object.fromEntries(meta.fields.map((f) => [f.name, form.get(SETTING_PREFIX + f.name) ?? ""])),
  };
}

/** POSTs the settings to the publication's validate_config/ as the platform did; its answer or why there is none. */
async function validateSettings(
  fields: SpecField[],
  settings: Record<string, string>,
  o: SubscribeOptions,
): Promise<{ valid: true } | { valid: false; errors: string[] } | { error: string }> {
  if (!fields.length) return { valid: true }; // validate_config is only for publications with settings (spec)
  const trouble = { error: "The publication could not check your settings just now; please try again." };
  try {
    const res = await (o.fetch ?? fetch)(
      new URL(o.slug ? `/${o.slug}/validate_config/` : "/validate_config/", o.origin),
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ config: JSON.stringify(settings) }),
        signal: AbortSignal.timeout(o.timeoutMs ?? 8000),
      },
    );
    const answer = (await res.json()) as { valid?: unknown; errors?: unknown };
    if (answer.valid === true) return { valid: true };
    if (answer.valid === false && Array.isArray(answer.errors))
      return { valid: false, errors: answer.errors.map(String) };
    return trouble;
  } catch {
    // validate_config/ answered something that is not its JSON: the same answer as any other trouble.
    return trouble;
  }
}

async function readMeta(o: SubscribeOptions): Promise<PageMeta | { error: string }> {
  const gone = { error: "There is no publication at this address." };
  if (o.slug !== "" && !/^[a-z0-9][a-z0-9-]*$/.test(o.slug)) return gone;
  try {
    const res = await (o.fetch ?? fetch)(new URL(o.slug ? `/${o.slug}/meta.json` : "/meta.json", o.origin), {
      signal: AbortSignal.timeout(o.timeoutMs ?? 8000),
    });
    if (res.status !== 200) return (await res.body?.cancel(), gone);
    const meta = (await res.json()) as { name?: unknown; description?: unknown; config?: { fields?: unknown } };
    return {
      name: typeof meta.name === "string" ? meta.name : o.slug,
      description: typeof meta.description === "string" ? meta.description : "",
      fields: withDefaults(Array.isArray(meta.config?.fields) ? (meta.config.fields as SpecField[]) : [], o),
      schedule: await scheduleOf(o),
    };
  } catch {
    // No meta.json, or not JSON: no publication here, which is what the page says.
    return gone;
  }
}

/** meta.json's fields, each select or radio with the default the built publication gives it (none without it). */
function withDefaults(fields: SpecField[], o: SubscribeOptions): PageField[] {
  const built = new Map(o.publication?.index.fields.map((f) => [f.name, f]));
  return fields.map((f) => {
    const given = built.get(f.name)?.default;
    return f.type !== "text" && given !== undefined ? { ...f, default: given } : f;
  });
}

/**
 * When the publication is delivered, in words. A shard that cannot be read just now (a deploy's remote shard)
 * costs the page only its schedule: the subscriber can still subscribe.
 */
async function scheduleOf(o: SubscribeOptions): Promise<string> {
  if (!o.publication) return UNKNOWN_SCHEDULE;
  return publicationSchedule(o.publication, o.at ?? new Date()).catch(() => UNKNOWN_SCHEDULE);
}

/** The form, read no further than MAX_BODY_BYTES; undefined for anything else (too long, cut short, not a form). */
async function readForm(req: Request): Promise<URLSearchParams | undefined> {
  if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded"))
    return undefined;
  const body = await readLimited(req, MAX_BODY_BYTES);
  if (body === undefined || body === CUT_SHORT) return undefined;
  return new URLSearchParams(new TextDecoder().decode(body));
}

function html(body: string, status = 200, allow?: string): Response {
  const headers: Record<string, string> = {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
  };
  if (allow) headers.Allow = allow;
  return new Response(body, { status, headers });
}
