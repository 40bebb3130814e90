// Recurring editions: one template (content/<slug>/edition.md) rendered for
// every date, or every hour, a rule in publication.json names. The rule is
// read on plain "YYYY-MM-DD" strings (lib/model/dates.ts), so no time zone or
// daylight-saving change can move a date: the request's own key (its local or
// UTC date, or its UTC hour) picks the edition, and a date the rule skips has
// none, which the router answers with 204.
import type { ContentProblem } from "./content-error.ts";
import { addDays, dateParts, isIsoDate, pad, type IsoDate } from "./dates.ts";
import type { EditionKey, EditionsBy } from "./edition-key.ts";

/** Day names as authors write them in `"every": ["monday", "thursday"]`, Sunday first (as Date.getUTCDay counts). */
export const WEEKDAY_NAMES = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

/**
 * How often a recurring publication has an edition: every day, Monday to
 * Friday ("weekday"), on the named days of the week, or every UTC hour
 * (publications keyed by utc_hour).
 */
export type Every = "day" | "weekday" | "hour" | WeekdayName[];

/** The recurrence part of publication.json's `editions`, as the schema lets it through. */
export interface Recurrence {
  every: Every;
  /** The first date with an edition; the build date when absent. */
  from?: IsoDate;
  /** The last date with an edition; when absent, the window rolls `ahead` days past the build date. */
  until?: IsoDate;
  /** Days past the build date (or past `from`, when later) that an open-ended rule reaches (default DEFAULT_AHEAD). */
  ahead?: number;
}

/** An open-ended rule covers two months past each build: a daily publication never runs dry between rebuilds. */
export const DEFAULT_AHEAD = 60;
/** At most ten years and a bit of dates (editions are prebuilt: each is a page of the build). */
export const MAX_DAYS = 3700;

const FILE_FIX = 'docs/data-and-recurring-editions.md: "Recurring editions"';

type Say = (field: string, problem: string, fix: string) => void;

/**
 * What the schema cannot say about a rule: whether it fits the publication's
 * key, and whether its dates are real and in order. Problems name `file`.
 */
export function checkRecurrence(by: EditionsBy, rule: Recurrence, file: string, ends: boolean): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const say: Say = (field, problem, fix) => problems.push({ file, field: `editions.${field}`, problem, fix });
  checkKeying(by, rule, say);
  checkDates(rule, say);
  if (Array.isArray(rule.every) && new Set(rule.every).size !== rule.every.length)
    say("every", "names a day twice", "name each day once");
  if (ends && rule.until === undefined)
    say(
      "ends",
      'a series that ends needs an "until": without it the dates roll on with every build',
      'add "until": the date of the last edition, or leave "ends" out',
    );
  if (rule.until === undefined && rule.ahead !== undefined && rule.ahead > MAX_DAYS)
    say("ahead", `must be at most ${MAX_DAYS} days`, "use a smaller number");
  return problems;
}

/** Whether the rule recurs in the publication's keys: over dates, and by the hour only for utc_hour. */
function checkKeying(by: EditionsBy, rule: Recurrence, say: Say): void {
  if (by === "delivery_count")
    say(
      "every",
      "recurs over dates, but this publication's editions are keyed by delivery_count",
      'use "by": "local_date" (or utc_date, or utc_hour with "every": "hour"), ' +
        `or number rows in editions.csv (${FILE_FIX})`,
    );
  else if ((by === "utc_hour") !== (rule.every === "hour"))
    say(
      "every",
      by === "utc_hour"
        ? `must be "hour" for editions keyed by utc_hour, got ${JSON.stringify(rule.every)}`
        : `"hour" is for editions keyed by utc_hour, and these are keyed by ${by}`,
      by === "utc_hour" ? 'write "every": "hour"' : 'use "day", "weekday" or a list of days such as ["monday"]',
    );
}

/** `from` and `until`: real dates, in order, at most MAX_DAYS apart. */
function checkDates(rule: Recurrence, say: Say): void {
  for (const field of ["from", "until"] as const) {
    const value = rule[field];
    if (value !== undefined && !isIsoDate(value))
      say(field, `${JSON.stringify(value)} is not a real date written YYYY-MM-DD`, "write a date such as 2026-01-01");
  }
  if (!rule.from || !rule.until || !isIsoDate(rule.from) || !isIsoDate(rule.until)) return;
  if (rule.until < rule.from)
    say("until", `${rule.until} is before "from", ${rule.from}`, "swap the two dates, or correct one of them");
  else if (daysBetween(rule.from, rule.until) >= MAX_DAYS)
    say(
      "until",
      `${rule.from} to ${rule.until} is more than ${MAX_DAYS} days of editions`,
      "build at most about ten years at a time",
    );
}

/**
 * The keys a rule gives, in order: the dates (or UTC hours) from `from` (or
 * `today`, the build date) to `until` (or `today` + `ahead` days) on which
 * the rule has an edition. Assumes checkRecurrence found nothing.
 */
export function recurringKeys(rule: Recurrence, today: IsoDate): EditionKey[] {
  const first = rule.from ?? today;
  // A series that starts after the build has its first `ahead` days built all the same.
  const last = rule.until ?? addDays(first > today ? first : today, rule.ahead ?? DEFAULT_AHEAD);
  const keys: EditionKey[] = [];
  const days = new Set(dayNumbers(rule.every));
  for (
    let date = first, weekday = weekdayOf(first);
    date <= last;
    date = addDays(date, 1), weekday = (weekday + 1) % 7
  ) {
    if (!days.has(weekday)) continue;
    if (rule.every === "hour") for (let h = 0; h < 24; h++) keys.push(`${date}T${pad(h)}`);
    else keys.push(date);
  }
  return keys;
}

/** The days of the week (0 is Sunday) a rule has editions on. */
function dayNumbers(every: Every): number[] {
  if (every === "weekday") return [1, 2, 3, 4, 5];
  if (Array.isArray(every)) return every.map((name) => WEEKDAY_NAMES.indexOf(name));
  return [0, 1, 2, 3, 4, 5, 6];
}

/** The day of the week of a date, 0 for Sunday. */
export function weekdayOf(date: IsoDate): number {
  const [y, m, d] = dateParts(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  const at = (date: IsoDate) => {
    const [y, m, d] = dateParts(date);
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((at(to) - at(from)) / 86_400_000);
}
