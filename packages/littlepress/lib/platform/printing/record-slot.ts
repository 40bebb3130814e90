// A job's record under a key of its own (a day's delivery, a push copy): the
// store's conditional writes are the claim and the settle.
import type { JobRecord } from "../../model/print-job.ts";
import type { StateStore } from "../stores/state-store.ts";
import type { JobSlot } from "./print-job.ts";

export function recordSlot<R extends JobRecord>(store: StateStore, key: string): JobSlot<R> {
  return {
    read: () => store.get<R>(key),
    create: (rec) => store.createVersioned(key, rec),
    write: (rec, over) => store.replace(key, rec, over.version),
    remove: () => store.delete(key),
  };
}
