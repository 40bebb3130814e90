// After a delivery's print job settled its record (the model's settle(), one
// conditional write, lib/platform/printing/print-job.ts): the subscription
// updated from it (its ETag, its count, a pause, an end). A subscription that
// the delivery ended leaves the indexes and owes its end slip.
import { noticeAfter } from "../../model/end-notice.ts";
import {
  afterDelivery,
  recordedChange,
  type DeliveryRecord,
  type Subscription,
  type SubscriptionChange,
} from "../../model/subscription.ts";
import type { StateStore, Stored } from "../stores/state-store.ts";
import { subscriptionKey } from "../stores/store-keys.ts";
import { workOnEndNotice } from "./end-notices.ts";
import { lineOf, pauseNews, type DeliveryLine } from "./report-lines.ts";
import type { RunReport, RunSettings } from "./run-state.ts";
import { dropKeys } from "./upkeep.ts";

/** A settled delivery's effect on its subscription (its ETag, its count, a pause, an end), and its report line. */
export async function settleSubscription(
  run: RunSettings,
  report: RunReport,
  stored: Stored<Subscription>,
  record: DeliveryRecord,
  settled: SubscriptionChange,
): Promise<DeliveryLine> {
  const sub = stored.value;
  // An end carries its notice in the same write: owed after a 410, impossible after an unknown key.
  const ends = settled.ended && !sub.ended;
  const change = ends ? { ...settled, endNotice: noticeAfter(record, run.at) } : settled;
  const after = await updateSubscription(run.store, stored, record, change);
  if (after?.ended && !sub.ended) await closeEnded(run, report, after);
  const [outcome, detail] = pauseNews(sub, after, record);
  return lineOf(sub, record, outcome, detail, record.etag);
}

/** The line of a delivery that another run took over, this one having been too slow. */
export function takenOver(sub: Subscription, rec: DeliveryRecord, etag: string | null): DeliveryLine {
  return lineOf(sub, rec, "taken over", "another run took this delivery over (this one was too slow)", etag);
}

/**
 * A day's delivery found settled while its subscription does not show it: the
 * run that settled it died before its second write. Its effect is written now
 * (the count, the last ETag; an end with its notice, and the slip sent), so
 * that the next day's delivery is the next one, not this one again.
 */
export async function finishSettled(
  run: RunSettings,
  report: RunReport,
  stored: Stored<Subscription>,
  done: DeliveryRecord,
): Promise<void> {
  const { store, at } = run;
  const change = recordedChange(stored.value, done);
  if (!change) return;
  const ends = change.ended !== null;
  const after = await updateSubscription(store, stored, done, ends ? { ...change, endNotice: noticeAfter(done, at) } : change);
  if (ends && after?.ended) await closeEnded(run, report, after);
}

/**
 * A subscription this run ended: out of the live index and the schedule, its
 * seat given back (what fails of it, the next runs' upkeep does), and its end slip sent.
 */
async function closeEnded(run: RunSettings, report: RunReport, ended: Subscription): Promise<void> {
  await dropKeys(run.store, ended);
  const line = await workOnEndNotice(run, ended);
  if (line) report.noticed(line);
}

/**
 * Writes a delivery's effect on its subscription: first over the copy the run
 * read (nearly always still current), then from the latest stored copy (runs
 * and unsubscribes overlap). Answers the subscription as written (undefined:
 * it was unsubscribed meanwhile).
 */
async function updateSubscription(
  store: StateStore,
  read: Stored<Subscription>,
  rec: DeliveryRecord,
  change?: SubscriptionChange,
): Promise<Subscription | undefined> {
  const id = read.value.id;
  let latest: Stored<Subscription> | undefined = read;
  for (let tries = 0; tries < 5; tries++) {
    if (!latest) return undefined; // unsubscribed meanwhile
    const after = afterDelivery(latest.value, rec, change);
    if (await store.replace(subscriptionKey(id), after, latest.version)) return after;
    latest = await store.get<Subscription>(subscriptionKey(id));
  }
  throw new Error(`subscription ${id} kept changing under the run`);
}
