// Removing a subscription with everything kept for it, as the delivery runs
// prune one that ended. Apart from subscriptions.ts, which the functions that
// only read subscriptions load (the desk's histories, the push runs): they
// need nothing of the seats (seats.ts).
import type { Subscription } from "../../model/subscription.ts";
import { leaveLive } from "./seats.ts";
import { takeDelete, type PruneBudget, type StateStore } from "./state-store.ts";
import { pushedOf, subscriptionKey } from "./store-keys.ts";
import { pruneDeliveries } from "./subscriptions.ts";

/**
 * Removes a subscription with everything kept for it: its index and schedule keys, its
 * seat, its delivery records and push copies, then itself (last, so that one cut short is found again
 * by the next run). Each record and the subscription count one deletion
 * against `budget`; false when it ran out first.
 */
export async function removeSubscription(
  store: StateStore,
  sub: Pick<Subscription, "id" | "slug" | "zone" | "hour" | "seat">,
  budget: PruneBudget = { deletes: Infinity },
  at = new Date(),
): Promise<boolean> {
  await leaveLive(store, sub, at);
  if (!(await pruneDeliveries(store, sub.id, () => true, budget))) return false;
  for (const key of await store.list(pushedOf(sub.id))) {
    if (!takeDelete(budget)) return false;
    await store.delete(key);
  }
  if (!takeDelete(budget)) return false;
  await store.delete(subscriptionKey(sub.id));
  return true;
}
