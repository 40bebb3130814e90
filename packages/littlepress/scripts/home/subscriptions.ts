// A printer's subscriptions: any number, each to one publication at its own
// hour and time zone with its own settings. Subscribing again after an end
// starts a new subscription, from edition 0 (the spec).
import { randomBytes } from "node:crypto";
import { isTimeZone } from "../../lib/model/time-zones.ts";
import type { Db } from "./home-db.ts";
import { getSubscription, type SubscriptionRow } from "./home-jobs.ts";

export interface NewSubscription {
  printerId: string;
  base: URL;
  name: string;
  hour: string | number;
  zone: string;
  settings: [string, string][];
}

/** The hour's and the zone's problems, by field. */
export function scheduleProblems(hour: string | number, zone: string): Map<string, string> {
  const problems = new Map<string, string>();
  const h = Number(hour);
  if (!/^\d{1,2}$/.test(String(hour)) || h > 23) problems.set("hour", "Hour: choose an hour from 00:00 to 23:00.");
  if (!isTimeZone(zone))
    problems.set("zone", `Time zone: "${zone}" is not a time zone; use a name such as Europe/London.`);
  return problems;
}

export function addSubscription(db: Db, s: NewSubscription, at: Date): SubscriptionRow {
  const row: SubscriptionRow = {
    id: randomBytes(6).toString("hex"),
    printer_id: s.printerId,
    publication: s.base.href,
    name: s.name,
    hour: Number(s.hour),
    zone: s.zone,
    settings: JSON.stringify(s.settings),
    created: at.toISOString(),
    delivery_count: 0,
    last_etag: null,
    ended: null,
    end_notice: null,
  };
  db.prepare(
    `INSERT INTO subscriptions (id, printer_id, publication, name, hour, zone, settings, created,
       delivery_count, last_etag, ended, end_notice)
     VALUES (@id, @printer_id, @publication, @name, @hour, @zone, @settings, @created,
       @delivery_count, @last_etag, @ended, @end_notice)`,
  ).run(row);
  return row;
}

/** A new subscription like an ended one (its printer, hour, zone and settings), from edition 0. */
export function resubscribe(db: Db, id: string, at: Date): SubscriptionRow | undefined {
  const old = getSubscription(db, id);
  if (!old?.ended) return undefined;
  const settings = JSON.parse(old.settings) as [string, string][];
  const s = {
    printerId: old.printer_id,
    base: new URL(old.publication),
    name: old.name,
    hour: old.hour,
    zone: old.zone,
  };
  return db.transaction(() => {
    db.prepare("DELETE FROM subscriptions WHERE id = ?").run(id);
    return addSubscription(db, { ...s, settings }, at);
  })();
}

/** Unsubscribes: the subscription goes; its history stays. */
export function removeSubscription(db: Db, id: string): void {
  db.prepare("DELETE FROM subscriptions WHERE id = ?").run(id);
}
