// A publication's cap on live subscriptions as a reservation: seats numbered 0
// to the cap less one (seats/<publication>/<n>), each taken by one subscribe
// with a conditional create before it asks the print key and validate_config/.
// Two subscribes at the same moment can never take one seat, so together they
// never pass the cap, whatever the order of their reads. A seat's number is
// kept in its subscription (`seat`), and the seat is given back when the
// subscription ends (unsubscribe, 410, an unknown print key), is removed, or
// its subscribe fails after taking it.
//
// Giving a seat back: its holder is checked, the seat is marked released with
// a conditional replace (only one writer can win it), and only the winner
// deletes it. The store has no conditional delete, and a plain one after a
// read could delete the seat of a newer subscriber who took the number in
// between; a marked seat is never taken (seats are only ever created), so the
// winner's delete removes its own mark and nothing else. A seat left behind (a
// subscribe or a release cut short) is given back by the delivery runs once it
// is older than INDEX_GRACE_MS and no live subscription holds it.
import { randomBytes } from "node:crypto";
import { budgetLeft, takeDelete, type PruneBudget, type StateStore } from "./state-store.ts";
import { liveKey, seatKey, seatsOf, slotKey } from "./store-keys.ts";
import { INDEX_GRACE_MS } from "./subscriptions.ts";

/** What a seat holds: the subscription that took it and when, or the mark of its release. */
export type SeatEntry = { id: string; at: string } | { released: string; by: string };

/** A seat just taken: its number, and the version written, for giving it back unread. */
export interface TakenSeat {
  seat: number;
  key: string;
  version: string;
}

/**
 * Takes a free seat of the publication `slug` for the subscription `id`, or
 * undefined when all `max` are held (or more are stored, after a cap was lowered).
 */
export async function takeSeat(
  store: StateStore,
  slug: string,
  id: string,
  max: number,
  at: Date,
): Promise<TakenSeat | undefined> {
  const prefix = seatsOf(slug);
  const stored = new Set((await store.list(prefix)).map((key) => key.slice(prefix.length)));
  if (stored.size >= max) return undefined;
  const entry: SeatEntry = { id, at: at.toISOString() };
  // Each create that fails is a seat another subscribe took meanwhile: at most `max` tries.
  for (let seat = 0; seat < max; seat++) {
    if (stored.has(String(seat))) continue;
    const key = seatKey(slug, seat);
    const version = await store.createVersioned(key, entry);
    if (version !== undefined) return { seat, key, version };
  }
  return undefined;
}

/** Gives back a seat taken by takeSeat (its subscribe failed), unless something changed it since. */
export async function returnSeat(store: StateStore, taken: TakenSeat, at: Date): Promise<void> {
  if (await store.replace(taken.key, releaseMark(at), taken.version)) await store.delete(taken.key);
}

/** Gives back the seat of the subscription `sub` if it still holds it (a subscription made before seats holds none). */
export async function releaseSeat(
  store: StateStore,
  sub: { slug: string; id: string; seat?: number | undefined },
  at: Date,
): Promise<void> {
  if (sub.seat === undefined) return; // made before seats, or without one
  const key = seatKey(sub.slug, sub.seat);
  const held = await store.get<SeatEntry>(key);
  if (!held || !("id" in held.value) || held.value.id !== sub.id) return;
  if (await store.replace(key, releaseMark(at), held.version)) await store.delete(key);
}

/**
 * A subscription that is no longer live (unsubscribed, ended, removed) leaves
 * the live index and the schedule, and gives back its seat, last: one cut
 * short leaves a seat that the runs give back, never a live subscription
 * without one. Each step is tried even when one before it failed (a later
 * run's upkeep does what failed); the first failure is then thrown.
 */
export async function leaveLive(
  store: StateStore,
  sub: { slug: string; id: string; zone: string; hour: number; seat?: number | undefined },
  at: Date,
): Promise<void> {
  let failed: { error: unknown } | undefined;
  const steps = [
    () => store.delete(liveKey(sub.slug, sub.id)),
    () => store.delete(slotKey(sub)),
    () => releaseSeat(store, sub, at),
  ];
  for (const step of steps) await step().catch((error: unknown) => (failed ??= { error }));
  if (failed) throw failed.error;
}

/**
 * Gives back the seats of `keys` (keys no live subscription was seen to hold)
 * whose entry is older than INDEX_GRACE_MS at `at`, and whose holder `owned`
 * does not vouch for (none: no holder is vouched for); within `budget` (each
 * seat given back counts one deletion).
 */
export async function dropStraySeats(
  store: StateStore,
  at: Date,
  keys: readonly string[],
  budget: PruneBudget,
  owned: (id: string) => boolean = () => false,
): Promise<void> {
  for (const key of keys) {
    if (!budgetLeft(budget)) return;
    const held = await store.get<SeatEntry>(key);
    if (!held) continue;
    const since = "id" in held.value ? held.value.at : held.value.released;
    if (!(Date.parse(since) < at.getTime() - INDEX_GRACE_MS)) continue;
    if ("id" in held.value && owned(held.value.id)) continue;
    if (!takeDelete(budget)) return;
    if (await store.replace(key, releaseMark(at), held.version)) await store.delete(key);
  }
}

/** A release's mark: unique, so that its version is its writer's alone. */
const releaseMark = (at: Date): SeatEntry => ({ released: at.toISOString(), by: randomBytes(6).toString("hex") });
