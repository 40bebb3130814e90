// The "claim" stage of a delivery, in the store: one record per subscription
// and date, created only if new (a first claim), or taken over once stale (a
// reclaim), so that overlapping runs never send twice. The rules (what is
// claimable, what a claim writes) are the model's (subscription.ts); this
// file does the conditional writes.
import {
  claimable,
  firstClaim,
  reclaim,
  STALE_CLAIM_MS,
  type DeliveryRecord,
  type DueDelivery,
  type Subscription,
} from "../../model/subscription.ts";
import type { StateStore } from "../stores/state-store.ts";
import { deliveryKey } from "../stores/store-keys.ts";

/** Half the time a claim holds (STALE_CLAIM_MS): a claim younger than this cannot have been taken over. */
export const CLAIM_RECHECK_MS = STALE_CLAIM_MS / 2;

/** A claim: its record, the version a first claim was written at, the record a reclaim replaced. */
export type Claimed = DeliveryRecord & { version?: string; previous?: DeliveryRecord };

/**
 * The day's delivery claimed by this run, with the version its claim was
 * written at when it was a first claim (a reclaim is read back before its
 * POST), or undefined when another run holds it; `done` with its record when
 * it is settled already.
 */
export async function claim(
  store: StateStore,
  at: Date,
  sub: Subscription,
  when: DueDelivery,
): Promise<Claimed | { done: DeliveryRecord } | undefined> {
  const key = deliveryKey(sub.id, when.date);
  const fresh = firstClaim(sub, when, at);
  const version = await store.createVersioned(key, fresh);
  if (version) return { ...fresh, version };
  const held = await store.get<DeliveryRecord>(key);
  if (held && held.value.state !== "sending" && !claimable(held.value, at)) return { done: held.value };
  if (!held || !claimable(held.value, at)) return undefined;
  const again = reclaim(held.value, at);
  return (await store.replace(key, again, held.version)) ? { ...again, previous: held.value } : undefined;
}

/** For a dry run, and a run out of time: the delivery a run would claim, without claiming it. */
export async function peek(
  store: StateStore,
  at: Date,
  sub: Subscription,
  when: DueDelivery,
): Promise<DeliveryRecord | undefined> {
  const held = await store.get<DeliveryRecord>(deliveryKey(sub.id, when.date));
  if (!held) return firstClaim(sub, when, at);
  return claimable(held.value, at) ? reclaim(held.value, at) : undefined;
}

/**
 * The version of this run's claim while it is still this run's, to settle it
 * from; undefined when a run so slow that its claim went stale was taken over
 * (the record is then left to the run that took it).
 */
export async function claimHeld(store: StateStore, claimed: DeliveryRecord): Promise<string | undefined> {
  const held = await store.get<DeliveryRecord>(deliveryKey(claimed.subscription, claimed.date));
  const ours =
    held && held.value.state === "sending" && held.value.at === claimed.at && held.value.attempts === claimed.attempts;
  return ours ? held.version : undefined;
}

/** Gives back a claim that sent nothing (it is this run's, at `version`): the next run takes the delivery. */
export async function undoClaim(
  store: StateStore,
  rec: DeliveryRecord,
  previous: DeliveryRecord | undefined,
  version: string,
): Promise<void> {
  const key = deliveryKey(rec.subscription, rec.date);
  if (previous) await store.replace(key, previous, version);
  else await store.delete(key);
}
