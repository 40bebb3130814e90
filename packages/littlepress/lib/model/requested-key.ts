// What an /edition/ request's parameters say about the edition it wants: its
// `delivery_count`, or its `local_delivery_time` read three ways.
import { isRealDate, isoDate, utcDateOf, utcHourOf, type IsoDate, type IsoHour } from "./dates.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";

/**
 * The platform's `local_delivery_time`, read three ways. Editions keyed by
 * `local_date` use the date as the subscriber's printer wrote it; `utc_date`
 * and `utc_hour` use the instant converted to UTC.
 */
export interface DeliveryTime {
  /** The date part exactly as written, in the printer's own zone. */
  localDate: IsoDate;
  utcDate: IsoDate;
  utcHour: IsoHour;
}

// ISO 8601 with a UTC offset. Fractional seconds and `Z` are allowed; a `+`
// sent unencoded arrives as a space, so a space stands for `+` before the offset.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))$/;

/** Parses `local_delivery_time`; returns a reason string when it cannot be used. */
export function parseDeliveryTime(raw: string): DeliveryTime | { error: string } {
  const m = TIMESTAMP.exec(raw.trim());
  if (!m) return { error: "local_delivery_time is not an ISO 8601 time with a UTC offset" };
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (!isRealDate(year, month, day))
    return { error: `local_delivery_time has an impossible date ${m[1]}-${m[2]}-${m[3]}` };
  if (hour > 23 || minute > 59 || second > 59) return { error: "local_delivery_time has an impossible time of day" };
  let offsetMinutes = 0;
  if (!m[7]) {
    const sign = m[8] === "-" ? -1 : 1;
    const [oh, om] = [Number(m[9]), Number(m[10])];
    if (oh > 23 || om > 59) return { error: "local_delivery_time has an impossible UTC offset" };
    offsetMinutes = sign * (oh * 60 + om);
  }
  const instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000);
  return { localDate: isoDate(year, month, day), utcDate: utcDateOf(instant), utcHour: utcHourOf(instant) };
}

/** What a request's parameters say about which edition it wants. */
export type RequestedKey =
  | { kind: "key"; key: EditionKey }
  /** The parameter that picks the edition was not sent: a browser, or the platform's validator. */
  | { kind: "absent" }
  /** The parameter was sent but cannot be used; `reason` is safe to show. */
  | { kind: "invalid"; reason: string };

/** Reads the edition key a request asks for, from the parameters the platform sends. */
export function requestedKey(by: EditionsBy, params: URLSearchParams): RequestedKey {
  if (by === "delivery_count") {
    const raw = params.get("delivery_count");
    if (raw === null || raw === "") return { kind: "absent" };
    if (!/^\d+$/.test(raw)) return { kind: "invalid", reason: "delivery_count is not a non-negative integer" };
    return { kind: "key", key: BigInt(raw).toString() };
  }
  const raw = params.get("local_delivery_time");
  if (raw === null || raw === "") return { kind: "absent" };
  const time = parseDeliveryTime(raw);
  if ("error" in time) return { kind: "invalid", reason: time.error };
  const key = by === "local_date" ? time.localDate : by === "utc_date" ? time.utcDate : time.utcHour;
  return { kind: "key", key };
}
