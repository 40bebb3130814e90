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

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function isoDate(year: number, month: number, day: number): IsoDate {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The UTC date of an instant. */
export function utcDateOf(instant: Date): IsoDate {
  return isoDate(instant.getUTCFullYear(), instant.getUTCMonth() + 1, instant.getUTCDate());
}

/** The UTC date and hour of an instant. */
export function utcHourOf(instant: Date): IsoHour {
  return `${utcDateOf(instant)}T${pad(instant.getUTCHours())}`;
}
