// An end slip's job record: the subscription's own endNotice (lib/model/
// end-notice.ts), written with the end that owes it, so a subscription never
// ends without its slip being owed. Its claim and settle replace the whole
// subscription under `key`.
import type { EndNotice } from "../../model/end-notice.ts";
import type { Subscription } from "../../model/subscription.ts";
import type { StateStore, Stored } from "../stores/state-store.ts";
import type { JobSlot } from "./print-job.ts";

/** Writes to a subscription at most this many times in a row when other writers keep changing it. */
const WRITE_TRIES = 5;

/**
 * A subscription's endNotice as a job's slot. Its writes replace the whole
 * subscription, so one that another writer changed meanwhile (a delivery's
 * count, an unsubscribe's…) is read again and written over while its notice
 * is still the one the write was for.
 */
export function noticeSlot(
  store: StateStore,
  key: string,
): JobSlot<EndNotice> & { subscription(): Subscription | undefined } {
  let latest: Stored<Subscription> | undefined;
  const read = async () => {
    latest = await store.get<Subscription>(key);
    const notice = latest?.value.ended ? latest.value.endNotice : undefined;
    return notice && latest ? { value: notice, version: latest.version } : undefined;
  };
  return {
    read,
    subscription: () => latest?.value,
    // A notice is written with the end that owes it, never created here, and it always has a record to go back to.
    create: () => Promise.resolve(undefined),
    remove: () => Promise.resolve(),
    write: async (notice, over) => {
      for (let tries = 0; tries < WRITE_TRIES; tries++) {
        const current = latest?.version === over.version ? latest : await store.get<Subscription>(key);
        if (!current || JSON.stringify(current.value.endNotice) !== JSON.stringify(over.value)) return false;
        const value = { ...current.value, endNotice: notice };
        if (await store.replace(key, value, current.version)) {
          latest = { value, version: "" }; // read again before any later write over it
          return true;
        }
        latest = undefined;
      }
      return false;
    },
  };
}
