// A limit on how often one client may do something (subscribe): a counter per
// client and hour in the state store, so it holds across function instances.
// The client's address is kept only as a keyed hash. The counters of hours
// that are over are pruned by the delivery runs (rate-limit-pruning.ts), never
// on the request's path.
import { createHmac } from "node:crypto";
import { utcHourOf } from "../model/dates.ts";
import type { StateStore } from "./state-store.ts";
import { LIMITS } from "./store-keys.ts";

export interface RateLimit {
  /** What is limited, as a key part ("subscribe"). */
  action: string;
  /** How many per client and UTC hour. */
  perHour: number;
}

/**
 * Counts one try by `client`; false when the client already used up the
 * hour's tries. `secret` keys the hash, so the stored names tell no addresses.
 */
export async function allowTry(
  store: StateStore,
  limit: RateLimit,
  client: string,
  secret: Buffer,
  at: Date,
): Promise<boolean> {
  const who = createHmac("sha256", secret).update(client).digest("hex").slice(0, 24);
  const key = `${LIMITS}${limit.action}/${utcHourOf(at)}/${who}`;
  for (let tries = 0; tries < 8; tries++) {
    const held = await store.get<number>(key);
    if (!held) {
      if (await store.create(key, 1)) return true;
      continue;
    }
    if (held.value >= limit.perHour) return false;
    if (await store.replace(key, held.value + 1, held.version)) return true;
  }
  return false; // a client racing itself this hard is refused
}
