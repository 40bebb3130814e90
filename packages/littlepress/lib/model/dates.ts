// Calendar arithmetic on plain "YYYY-MM-DD" strings. Dates are compared as
// strings (ISO order is chronological), so no time zone ever leaks in.

/** A calendar date, written "YYYY-MM-DD". */
export type IsoDate = string;
/** A UTC date and hour, written "YYYY-MM-DDTHH". */
export type IsoHour = string;

export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function isoDate(year: number, month: number, day: number): IsoDate {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Whether `text` is a real date written "YYYY-MM-DD" (not 2026-02-29). */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** The year, month and day of a "YYYY-MM-DD" date, as numbers. */
export function dateParts(date: IsoDate): [year: number, month: number, day: number] {
  const [y, m, d] = date.split("-").map(Number);
  return [y ?? NaN, m ?? NaN, d ?? NaN];
}

/** "2026-11-22" plus `days` calendar days (no time zone involved). */
export function addDays(date: IsoDate, days: number): IsoDate {
  const [y, m, d] = dateParts(date);
  return utcDateOf(new Date(Date.UTC(y, m - 1, d + days)));
}

/** The UTC date of an instant. */
export function utcDateOf(instant: Date): IsoDate {
  return isoDate(instant.getUTCFullYear(), instant.getUTCMonth() + 1, instant.getUTCDate());
}

/** The UTC date and hour of an instant. */
export function utcHourOf(instant: Date): IsoHour {
  return `${utcDateOf(instant)}T${pad(instant.getUTCHours())}`;
}

/** Names of days and months for people, in English as the desk writes dates. */
export const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** "Fri 20 Nov 2026" for "2026-11-20". */
export function dateText(date: IsoDate): string {
  const [y, m, d] = dateParts(date);
  const day = new Date(Date.UTC(y, m - 1, d));
  return `${WEEKDAYS[day.getUTCDay()]} ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
}
