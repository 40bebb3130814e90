// The rate-limit counters (rate-limit.ts) of hours that are over, deleted by
// the delivery runs.
import pLimit from "p-limit";
import { utcHourOf } from "../../model/dates.ts";
import { takeDelete, type PruneBudget, type StateStore } from "./state-store.ts";
import { LIMITS } from "./store-keys.ts";

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
      await pLimit(concurrency).map(keys, async (key) => {
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
