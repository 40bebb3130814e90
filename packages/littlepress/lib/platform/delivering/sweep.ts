// The daily sweep's upkeep, in the plan (plan.ts): index keys and seats whose
// subscription is gone. Kept apart from upkeep.ts, which the batches run: the
// scheduled function loads only this.
import type { PruneBudget, StateStore } from "../stores/state-store.ts";
import { dropStrayIndexKeys, indexedId } from "../stores/subscriptions.ts";
import { dropStraySeats } from "../stores/seats.ts";

/**
 * A sweep's plan, after it handed every subscription over: the index keys and
 * seats whose subscription is gone, within `budget` (the rest on the next day's sweep).
 */
export async function dropStrays(
  store: StateStore,
  at: Date,
  found: { indexed: string[]; seats: string[]; ids: ReadonlySet<string> },
  budget: PruneBudget,
): Promise<void> {
  const strays = found.indexed.filter((key) => !found.ids.has(indexedId(key)));
  // What fails (the store) the next day's sweep does again.
  await dropStrayIndexKeys(store, at, strays, budget).catch(() => undefined);
  // Each seat is read: a seat's key names no subscription.
  await dropStraySeats(store, at, found.seats, budget, (id) => found.ids.has(id)).catch(() => undefined);
}
