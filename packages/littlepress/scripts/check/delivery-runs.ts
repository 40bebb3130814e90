// Plays the platform's daily calls to edition/ for one subscriber, day after
// day, and records every exchange for response-checks.ts and
// sequence-checks.ts to judge.
//
// A run follows the spec's subscription lifecycle: delivery_count counts up
// from 0 each day whatever came back; a 410 ends the subscription. After a
// 410 the checker asks once more as if the subscription had gone on (the
// series must stay ended), then, when the publication counts deliveries,
// subscribes afresh from delivery_count 0 on the next day, as a subscriber
// who resubscribes would, and carries on to the end of the span.
import { type CheckContext, type Publication, under } from "./context.ts";
import { addDays } from "../../lib/model/dates.ts";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { type Exchange, request } from "./http.ts";

export interface Delivery {
  /** Time zone of the printer; undefined when the publication gets no local_delivery_time. */
  zone?: string;
  /** 1 for the first subscription of a run, 2 after a resubscription... */
  subscription: number;
  date: string;
  count?: number;
  first: Exchange;
  /** The identical request again, when the first answer was 200 (ETag stability). */
  repeat?: Exchange;
  /** "after-end": the extra request past a 410, not a delivery the platform would make. */
  role: "delivery" | "after-end";
  /** The first delivery of a fresh subscription that follows a 410. */
  resubscribed?: boolean;
}

export interface Plan {
  start: string;
  days: number;
  hour: number;
  zones: string[];
  config: Record<string, string>;
}

/** Whether two days' requests differ at all; when they don't, no day-to-day check means anything. */
export const daysDiffer = (p: Publication) => p.sendTimezoneInfo || p.sendDeliveryCount;

export async function runDeliveries(ctx: CheckContext, publication: Publication, plan: Plan): Promise<Delivery[]> {
  // local_delivery_time is the only thing a zone changes: without it, one run covers all zones.
  const zones: (string | undefined)[] = publication.sendTimezoneInfo ? plan.zones : [undefined];
  const days = daysDiffer(publication) ? plan.days : 1;
  const all: Delivery[] = [];
  for (const zone of zones) all.push(...(await runOneZone(ctx, publication, { ...plan, days }, zone)));
  return all;
}

async function runOneZone(
  ctx: CheckContext,
  publication: Publication,
  plan: Plan,
  zone: string | undefined,
): Promise<Delivery[]> {
  const out: Delivery[] = [];
  const ask = async (day: number, count: number, subscription: number, role: Delivery["role"]) => {
    const delivery = await deliver(ctx, publication, plan, { zone, day, count, subscription, role });
    out.push(delivery);
    ctx.progress(
      `day ${day + 1}/${plan.days}` +
        (zone ? ` ${zone}` : "") +
        (publication.sendDeliveryCount ? ` delivery_count=${count}` : "") +
        (role === "after-end" ? " (past the end)" : "") +
        `: ${delivery.first.status || delivery.first.error}`,
    );
    return delivery;
  };
  let subscription = 1;
  let count = 0;
  let resubscribed = false;
  for (let day = 0; day < plan.days; day++) {
    const delivery = await ask(day, count, subscription, "delivery");
    delivery.resubscribed = resubscribed;
    resubscribed = false;
    // A server that stopped answering would cost a timeout per day; two in a row is enough said.
    if (delivery.first.error && out.at(-2)?.first.error) break;
    count++;
    if (delivery.first.status !== 410) continue;
    await ask(day + 1, count, subscription, "after-end");
    if (!publication.sendDeliveryCount) break; // a fresh subscription would send exactly what the ended one did
    [subscription, count, resubscribed] = [subscription + 1, 0, true];
    // A 410 on the last day still gets its resubscription tried, one day past the span.
    if (day + 1 === plan.days) (await ask(day + 1, 0, subscription, "delivery")).resubscribed = true;
  }
  return out;
}

interface Slot {
  zone?: string;
  day: number;
  count: number;
  subscription: number;
  role: Delivery["role"];
}

async function deliver(ctx: CheckContext, publication: Publication, plan: Plan, slot: Slot): Promise<Delivery> {
  const date = addDays(plan.start, slot.day);
  const params: [string, string][] = [];
  if (publication.sendTimezoneInfo && slot.zone)
    params.push(["local_delivery_time", localDeliveryTime(date, plan.hour, slot.zone).text]);
  if (publication.sendDeliveryCount) params.push(["delivery_count", String(slot.count)]);
  params.push(...Object.entries(plan.config));
  const url = editionUrl(ctx, params);
  const first = await request(url, { timeoutMs: ctx.timeoutMs });
  const repeat = first.status === 200 ? await request(url, { timeoutMs: ctx.timeoutMs }) : undefined;
  const count = publication.sendDeliveryCount ? slot.count : undefined;
  return { zone: slot.zone, subscription: slot.subscription, date, count, first, repeat, role: slot.role };
}

/** Percent-encoded as the spec says: ":" and "+" of the time become %3A and %2B, a space %20. */
export function editionUrl(ctx: CheckContext, params: [string, string][], path = "edition/"): string {
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return under(ctx, path) + (query ? `?${query}` : "");
}
