import { isRealDate, isoDate, utcDateOf, utcHourOf, type IsoDate, type IsoHour } from "./dates.ts";

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
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
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
