// The print job's slots (lib/platform/printing/print-job.ts) over the home
// store. A delivery's record is a row of `jobs`, claimed by an insert and
// settled by an update over the version read; the settle's update, the
// subscription's change and the history row go in one transaction, so a
// SIGKILL or a power cut leaves either all of them or none (the claim then
// goes stale and the job is resumed, print-job.ts's rule). An end slip's record
// is its subscription's end_notice, replaced only over the notice read.
import type { EndNotice } from "../../lib/model/end-notice.ts";
import { CLAIMED, type JobRecord } from "../../lib/model/print-job.ts";
import type { Subscription } from "../../lib/model/subscription.ts";
import type { JobSlot } from "../../lib/platform/printing/print-job.ts";
import type { Db } from "./home-db.ts";

/** A subscription as the store keeps it. */
export interface SubscriptionRow {
  id: string;
  printer_id: string;
  /** The publication's base URL (ending in /). */
  publication: string;
  /** Its meta.json name when subscribed. */
  name: string;
  hour: number;
  zone: string;
  /** JSON: [name, value][] as validate_config accepted them. */
  settings: string;
  created: string;
  delivery_count: number;
  last_etag: string | null;
  /** JSON: { at, reason } once ended. */
  ended: string | null;
  /** JSON: the end slip's job record (end-notice.ts). */
  end_notice: string | null;
}

/** The row as the platform's model holds a subscription (lib/model/subscription.ts). */
export function subscriptionOf(row: SubscriptionRow, printerName: string): Subscription {
  return {
    id: row.id,
    slug: row.publication,
    printKey: "",
    printer: printerName,
    zone: row.zone,
    hour: row.hour,
    settings: JSON.parse(row.settings) as [string, string][],
    created: row.created,
    deliveryCount: row.delivery_count,
    lastEtag: row.last_etag,
    ended: row.ended ? (JSON.parse(row.ended) as Subscription["ended"]) : null,
    endNotice: row.end_notice ? (JSON.parse(row.end_notice) as EndNotice) : null,
    unsubscribeHash: "",
  };
}

export const getSubscription = (db: Db, id: string): SubscriptionRow | undefined =>
  db.prepare("SELECT * FROM subscriptions WHERE id = ?").get(id) as SubscriptionRow | undefined;

export const subscriptionsOf = (db: Db, printerId: string): SubscriptionRow[] =>
  db
    .prepare("SELECT * FROM subscriptions WHERE printer_id = ? ORDER BY created, rowid")
    .all(printerId) as SubscriptionRow[];

/** A job's record in `jobs` under `key`; `settled` runs inside the settle's transaction. */
export function rowSlot<R extends JobRecord>(db: Db, key: string, settled?: (rec: R) => void): JobSlot<R> {
  const update = db.prepare("UPDATE jobs SET record = ?, version = version + 1 WHERE key = ? AND version = ?");
  const write = db.transaction((rec: R, version: number): boolean => {
    if (update.run(JSON.stringify(rec), key, version).changes !== 1) return false;
    if (rec.state !== CLAIMED) settled?.(rec);
    return true;
  });
  return {
    read: () => {
      const row = db.prepare("SELECT record, version FROM jobs WHERE key = ?").get(key) as
        { record: string; version: number } | undefined;
      return Promise.resolve(row && { value: JSON.parse(row.record) as R, version: String(row.version) });
    },
    create: (rec) => {
      const made = db.prepare("INSERT OR IGNORE INTO jobs (key, record) VALUES (?, ?)").run(key, JSON.stringify(rec));
      return Promise.resolve(made.changes === 1 ? "1" : undefined);
    },
    write: (rec, over) => Promise.resolve(write(rec, Number(over.version))),
    remove: () => Promise.resolve(void db.prepare("DELETE FROM jobs WHERE key = ?").run(key)),
  };
}

/** A subscription's end slip as a job's slot: its end_notice, written only over the one read. */
export function endNoticeSlot(db: Db, id: string, settled?: (rec: EndNotice) => void): JobSlot<EndNotice> {
  const update = db.prepare("UPDATE subscriptions SET end_notice = ? WHERE id = ? AND end_notice = ?");
  const write = db.transaction((rec: EndNotice, over: string): boolean => {
    if (update.run(JSON.stringify(rec), id, over).changes !== 1) return false;
    if (rec.state !== CLAIMED) settled?.(rec);
    return true;
  });
  return {
    read: () => {
      const row = getSubscription(db, id);
      const notice = row?.ended && row.end_notice;
      return Promise.resolve(notice ? { value: JSON.parse(notice) as EndNotice, version: notice } : undefined);
    },
    // A notice is written with the end that owes it, never created here.
    create: () => Promise.resolve(undefined),
    remove: () => Promise.resolve(),
    write: (rec, over) => Promise.resolve(write(rec, over.version)),
  };
}

/** One print's line in a printer's history. */
export interface HistoryEntry {
  printer_id: string;
  subscription_id: string | null;
  job: string;
  at: string;
  what: string;
  etag: string | null;
  outcome: string;
  detail: string;
  picture: Buffer | null;
}

/** A job's settled record as its history entry. */
export function historyEntry(
  where: { printer: string; subscription: string | null; job: string; what: string },
  rec: JobRecord & { etag?: string | null },
  at: Date,
  picture: Buffer | null | undefined,
): HistoryEntry {
  const { printer, subscription, job, what } = where;
  const base = { printer_id: printer, subscription_id: subscription, job, what, at: at.toISOString() };
  return { ...base, etag: rec.etag ?? null, outcome: rec.state, detail: rec.detail, picture: picture ?? null };
}

export function addHistory(db: Db, entry: HistoryEntry): void {
  db.prepare(
    `INSERT INTO history (printer_id, subscription_id, job, at, what, etag, outcome, detail, picture)
     VALUES (@printer_id, @subscription_id, @job, @at, @what, @etag, @outcome, @detail, @picture)`,
  ).run(entry);
}

export const historyOf = (db: Db, printerId: string, limit = 50): (HistoryEntry & { id: number })[] =>
  db
    .prepare(
      `SELECT id, printer_id, subscription_id, job, at, what, etag, outcome, detail, picture IS NOT NULL AS picture
       FROM history WHERE printer_id = ? ORDER BY id DESC LIMIT ?`,
    )
    .all(printerId, limit) as (HistoryEntry & { id: number })[];

export const historyPicture = (db: Db, id: number): Buffer | undefined =>
  (db.prepare("SELECT picture FROM history WHERE id = ?").get(id) as { picture: Buffer | null } | undefined)?.picture ??
  undefined;
