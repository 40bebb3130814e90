// What a dated edition's template can say about its day, as `day` in its
// Liquid: names in the edition's language (through Intl, so "lundi" and
// "novembre" for lang: fr), the day of the year and the ISO week. Computed
// from the edition's key alone, never from the clock of the build machine.
import { dateParts, type IsoDate } from "./dates.ts";
import { daysBetween } from "./recurrence.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";

/** `day` in a dated edition's template. */
export interface DayFacts {
  /** The edition's date, "2026-11-23" (for an hourly edition, the date of its UTC hour). */
  date: IsoDate;
  year: number;
  /** 1 to 12, and 1 to 31. */
  month_number: number;
  day: number;
  /** "Monday", "Mon"; "November", "Nov": in the edition's language. */
  weekday: string;
  weekday_short: string;
  month: string;
  month_short: string;
  /** 1 for Monday to 7 for Sunday (ISO 8601). */
  weekday_number: number;
  /** 1 for January 1st. */
  day_of_year: number;
  /** The ISO 8601 week (1 to 53) and the year it belongs to (2026-12-31 is in week 53 of 2026; 2027-01-01 too). */
  iso_week: number;
  iso_year: number;
  /** The UTC hour, 0 to 23, for editions keyed by utc_hour. */
  hour?: number;
}

/** The facts of a dated edition's day, named in `lang` (a BCP 47 tag; English when Intl does not know it). */
export function dayFacts(by: EditionsBy, key: EditionKey, lang: string): DayFacts | undefined {
  if (by === "delivery_count") return undefined;
  const date = key.slice(0, 10);
  const [year, month, day] = dateParts(date);
  const at = new Date(Date.UTC(year, month - 1, day));
  const name = (options: Intl.DateTimeFormatOptions) => formatter(lang, options).format(at);
  const weekdayNumber = at.getUTCDay() || 7;
  const week = isoWeek(date, weekdayNumber);
  return {
    date,
    year,
    month_number: month,
    day,
    weekday: name({ weekday: "long" }),
    weekday_short: name({ weekday: "short" }),
    month: name({ month: "long" }),
    month_short: name({ month: "short" }),
    weekday_number: weekdayNumber,
    day_of_year: daysBetween(`${date.slice(0, 4)}-01-01`, date) + 1,
    iso_week: week.week,
    iso_year: week.year,
    ...(by === "utc_hour" && { hour: Number(key.slice(11, 13)) }),
  };
}

/** ISO 8601 week: the week (Monday to Sunday) that holds the year's first Thursday is week 1. */
function isoWeek(date: IsoDate, weekdayNumber: number): { week: number; year: number } {
  const [y, m, d] = dateParts(date);
  // The Thursday of the date's week decides its year.
  const thursday = new Date(Date.UTC(y, m - 1, d + 4 - weekdayNumber));
  const year = thursday.getUTCFullYear();
  const dayOfYear = Math.round((thursday.getTime() - Date.UTC(year, 0, 1)) / 86_400_000);
  return { week: Math.floor(dayOfYear / 7) + 1, year };
}

// One formatter per language and style: making one is far dearer than using it (10,000 editions).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${lang}\u0000${JSON.stringify(options)}`;
  let f = formatters.get(id);
  if (!f) {
    let locale = "en";
    try {
      locale = Intl.DateTimeFormat.supportedLocalesOf([lang])[0] ?? "en";
    } catch {
      // Not a language tag at all ("english"): English, as for an edition without lang.
    }
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    formatters.set(id, f);
  }
  return f;
}

/**
 * Days from an edition's date to `target` ("2026-12-25"): the Liquid filter
 * `{{ date | days_until: "2026-12-25" }}`. Negative once the date has passed;
 * undefined when either is not a date.
 */
export function daysUntil(date: unknown, target: unknown): number | undefined {
  const clean = (v: unknown) => (typeof v === "string" && /^\d{4}-\d\d-\d\d/.test(v) ? v.slice(0, 10) : undefined);
  const from = clean(date);
  const to = clean(target);
  return from && to ? daysBetween(from, to) : undefined;
}
