// Subscriptions in the state store: made (print key sealed, a private token
// for unsubscribing), ended by their subscriber, and read back with their
// deliveries for the desk.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { printerName, sealPrintKey } from "../model/print-key.ts";
import type { DeliveryRecord, Subscription } from "../model/subscription.ts";
import { deliveriesOf, SUBSCRIPTIONS, subscriptionKey } from "./delivery-run.ts";
import type { StateStore } from "./state-store.ts";

export interface NewSubscription {
  slug: string;
  printKey: URL;
  printer: string;
  zone: string;
  hour: number;
  settings: [string, string][];
  at: Date;
}

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Stores a new subscription; answers it with the private unsubscribe token (shown once, kept only as a hash). */
export async function createSubscription(
  store: StateStore,
  sealKey: Buffer,
  s: NewSubscription,
): Promise<{ subscription: Subscription; token: string }> {
  const token = randomBytes(24).toString("base64url");
  const subscription: Subscription = {
    id: randomBytes(9).toString("base64url"),
    slug: s.slug,
    printKey: sealPrintKey(s.printKey, sealKey),
    printer: s.printer,
    zone: s.zone,
    hour: s.hour,
    settings: s.settings,
    created: s.at.toISOString(),
    deliveryCount: 0,
    lastEtag: null,
    ended: null,
    unsubscribeHash: tokenHash(token),
  };
  if (!(await store.create(subscriptionKey(subscription.id), subscription)))
    throw new Error("a subscription id came up twice");
  return { subscription, token };
}

/** Ends a subscription whose token matches; false when there is none (already gone, or a wrong token). */
export async function unsubscribe(store: StateStore, id: string, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return false;
  const sub = (await store.get<Subscription>(subscriptionKey(id)))?.value;
  if (!sub) return false;
  const given = Buffer.from(tokenHash(token), "hex");
  if (!timingSafeEqual(given, Buffer.from(sub.unsubscribeHash, "hex"))) return false;
  await store.delete(subscriptionKey(id));
  for (const key of await store.list(deliveriesOf(id))) await store.delete(key);
  return true;
}

/** A subscription and its deliveries, latest first, as the desk shows them (no print key; the printer's name cleaned). */
export interface SubscriptionHistory {
  subscription: Omit<Subscription, "printKey" | "unsubscribeHash">;
  deliveries: DeliveryRecord[];
}

export async function subscriptionHistories(store: StateStore, slug?: string): Promise<SubscriptionHistory[]> {
  const histories: SubscriptionHistory[] = [];
  for (const key of await store.list(SUBSCRIPTIONS)) {
    const sub = (await store.get<Subscription>(key))?.value;
    if (!sub || (slug !== undefined && sub.slug !== slug)) continue;
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
