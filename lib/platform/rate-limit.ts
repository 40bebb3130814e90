// A limit on how often one client may do something (subscribe): a counter per
// client and hour in the state store, so it holds across function instances.
// The client's address is kept only as a keyed hash. The counters of hours
// that are over are pruned by the delivery runs (pruneRateLimits), never on
// the request's path.
import { createHmac } from "node:crypto";
import { utcHourOf } from "../model/dates.ts";
import { eachAtMost } from "../model/each-at-most.ts";
import { takeDelete, type PruneBudget, type StateStore } from "./state-store.ts";

export interface RateLimit {
  /** What is limited, as a key part ("subscribe"). */
  action: string;
  /** How many per client and UTC hour. */
  perHour: number;
}

/** Where the counters are: `limits/<action>/<UTC hour>/<client hash>`. */
export const LIMITS = "limits/";

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

/**
 * Deletes the counters of the UTC hours before `at`'s (they count nothing any
 * more), oldest hour first, as far as `budget` allows: what is left goes on
 * the next call. Lists the folders of actions and hours, then the keys of
 * past hours only; the current hour's counters are never listed. Answers how
 * many were deleted.
 */
export async function pruneRateLimits(
  store: StateStore,
  at: Date,
  budget: PruneBudget,
  concurrency = 8,
): Promise<number> {
  const current = utcHourOf(at);
  let deleted = 0;
  for (const action of (await store.folders(LIMITS)).sort()) {
    // "YYYY-MM-DDTHH" sorts as time does; a folder that is not an hour is left alone.
    const over = (await store.folders(`${LIMITS}${action}/`))
      .filter((hour) => /^\d{4}-\d{2}-\d{2}T\d{2}$/.test(hour) && hour < current)
      .sort();
    for (const hour of over) {
      if (!budget.deletes) return deleted;
      const keys = await store.list(`${LIMITS}${action}/${hour}/`);
      let gone = 0;
      await eachAtMost(concurrency, keys, async (key) => {
        if (!takeDelete(budget)) return; // out of budget: the rest waits for the next call
        await store.delete(key);
        gone++;
      });
      deleted += gone;
      if (gone < keys.length) return deleted;
    }
  }
  return deleted;
}
