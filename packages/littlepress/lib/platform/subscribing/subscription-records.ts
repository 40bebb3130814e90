// Subscriptions made and ended by their subscriber: the print key sealed, and
// a private token for unsubscribing, kept only as a hash.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sealPrintKey } from "../../model/print-key.ts";
import type { Subscription } from "../../model/subscription.ts";
import type { StateStore } from "../stores/state-store.ts";
import { liveKey, slotKey, subscriptionKey, type LiveEntry } from "../stores/store-keys.ts";
import { leaveLive } from "../stores/seats.ts";
import { pruneDeliveries } from "../stores/subscriptions.ts";

export interface NewSubscription {
  slug: string;
  printKey: URL;
  printer: string;
  zone: string;
  hour: number;
  settings: [string, string][];
  at: Date;
  /** Its id, when chosen before (the seat it takes names it): newId() otherwise. */
  id?: string;
  /** The publication's seat it took (seats.ts), if any. */
  seat?: number;
}

/** A new subscription's id: random, and public. */
export const newSubscriptionId = () => randomBytes(9).toString("base64url");

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Stores a new subscription; answers it with the private unsubscribe token (shown once, kept only as a hash). */
export async function createSubscription(
  store: StateStore,
  sealKey: Buffer,
  s: NewSubscription,
): Promise<{ subscription: Subscription; token: string }> {
  const token = randomBytes(24).toString("base64url");
  const subscription: Subscription = {
    id: s.id ?? newSubscriptionId(),
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
    ...(s.seat !== undefined && { seat: s.seat }),
  };
  // Indexed first: a subscribe that dies between the two writes leaves an index key without a
  // subscription (counted until a run removes it), never a subscription the cap does not count.
  const entry: LiveEntry = { at: subscription.created };
  await store.create(liveKey(s.slug, subscription.id), entry);
  // The schedule's key, by which a scheduled run finds it due without reading it (a run adds it when missing).
  await store.create(slotKey(subscription), entry);
  if (!(await store.create(subscriptionKey(subscription.id), subscription)))
    throw new Error("a subscription id came up twice");
  return { subscription, token };
}

/**
 * Ends a subscription to the publication `slug` whose token matches:
 * "unsubscribed"; "not valid" when there is none (already gone, or a wrong
 * token); "another publication" when the token is good but the subscription is
 * to another publication than the page's (nothing is changed: a link works on
 * its own publication's page only).
 */
export async function unsubscribe(
  store: StateStore,
  slug: string,
  id: string,
  token: string,
  at = new Date(),
): Promise<"unsubscribed" | "not valid" | "another publication"> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return "not valid";
  const sub = (await store.get<Subscription>(subscriptionKey(id)))?.value;
  if (!sub) return "not valid";
  const given = Buffer.from(tokenHash(token), "hex");
  if (!timingSafeEqual(given, Buffer.from(sub.unsubscribeHash, "hex"))) return "not valid";
  if (sub.slug !== slug) return "another publication";
  await store.delete(subscriptionKey(id));
  await leaveLive(store, sub, at);
  await pruneDeliveries(store, id, () => true, { deletes: Infinity });
  return "unsubscribed";
}
