// Subscriptions in the state store: counted per publication (the live index,
// store-keys.ts), pruned by the delivery runs (removed whole by
// subscription-removal.ts), their indexes' stray keys dropped, and read back
// with their deliveries for the desk. Made and ended by their subscriber:
// subscribing/subscription-records.ts.
import { printerName } from "../../model/printer-name.ts";
import type { DeliveryRecord } from "../../model/delivery-record.ts";
import type { Subscription } from "../../model/subscription.ts";
import { budgetLeft, takeDelete, type PruneBudget, type StateStore } from "./state-store.ts";
import { deliveriesOf, liveOf, SUBSCRIPTIONS, type LiveEntry } from "./store-keys.ts";

/**
 * How many live subscriptions the publication `slug` has, from its index: its
 * keys are listed, none is read. The subscribe page's first, cheap check; the
 * cap itself holds by seats (seats.ts).
 */
export async function liveSubscriptions(store: StateStore, slug: string): Promise<number> {
  return (await store.list(liveOf(slug))).length;
}

/**
 * Deletes a subscription's delivery records that `expired` picks (by date),
 * as far as `budget` allows. True when none it picks is left.
 */
export async function pruneDeliveries(
  store: StateStore,
  id: string,
  expired: (date: string) => boolean,
  budget: PruneBudget,
): Promise<boolean> {
  if (!budgetLeft(budget)) return false; // not even listed
  const prefix = deliveriesOf(id);
  const old = (await store.list(prefix)).filter((key) => expired(key.slice(prefix.length)));
  for (const key of old) {
    if (!takeDelete(budget)) return false;
    await store.delete(key);
  }
  return true;
}

// Index keys whose subscription is gone: a subscribe that died between its two
// writes, an unsubscribe or a removal cut short leaves a live-index key (which
// the subscribe page counts against a publication's cap) or a schedule key
// (which the plan hands over every day, for nothing). Found by listing an
// index against the subscriptions: a self-hosted run (delivering/upkeep.ts) does it
// on every run, the scheduled one on its daily sweep (delivering/sweep.ts).

/** An index key without a subscription is left alone this long: its subscribe may still be writing. */
export const INDEX_GRACE_MS = 60 * 60_000;

/** The subscription id an index key names (its last part: live/<publication>/<id>, slots/<slot>/<id>). */
export const indexedId = (key: string) => key.slice(key.lastIndexOf("/") + 1);

/**
 * Deletes the index keys of `strays` (keys whose subscription was not found)
 * that are older than INDEX_GRACE_MS at `at`, within `budget`.
 */
export async function dropStrayIndexKeys(
  store: StateStore,
  at: Date,
  strays: readonly string[],
  budget: PruneBudget,
): Promise<void> {
  for (const key of strays) {
    const entry = await store.get<LiveEntry>(key);
    if (entry && !(Date.parse(entry.value.at) < at.getTime() - INDEX_GRACE_MS)) continue;
    if (!takeDelete(budget)) return;
    await store.delete(key);
  }
}

/**
 * A subscription and its deliveries, latest first, as the desk shows them (no
 * print key; the printer's name cleaned).
 */
export interface SubscriptionHistory {
  subscription: Omit<Subscription, "printKey" | "unsubscribeHash">;
  deliveries: DeliveryRecord[];
}

/** Every subscription in the store, live or ended (one gone between the listing and its read is left out). */
export async function storedSubscriptions(store: StateStore): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  for (const key of await store.list(SUBSCRIPTIONS)) {
    const sub = (await store.get<Subscription>(key))?.value;
    if (sub) subs.push(sub);
  }
  return subs;
}

export async function subscriptionHistories(store: StateStore, slug?: string): Promise<SubscriptionHistory[]> {
  const histories: SubscriptionHistory[] = [];
  for (const sub of await storedSubscriptions(store)) {
    if (slug !== undefined && sub.slug !== slug) continue;
    const { printKey: _key, unsubscribeHash: _hash, ...shown } = sub;
    const deliveries: DeliveryRecord[] = [];
    for (const d of await store.list(deliveriesOf(sub.id))) {
      const rec = (await store.get<DeliveryRecord>(d))?.value;
      if (rec) deliveries.push(rec);
    }
    deliveries.sort((a, b) => b.date.localeCompare(a.date));
    histories.push({ subscription: { ...shown, printer: printerName(shown.printer) }, deliveries });
  }
  return histories.sort((a, b) => a.subscription.created.localeCompare(b.subscription.created));
}
