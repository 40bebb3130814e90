// Dates and time zones for the simulator, with Intl only: the printer's local
// delivery time for a date, an hour and an IANA zone, written the way the
// platform sends it (ISO 8601 with the zone's real UTC offset on that date).

/**
 * @param {number} n
 * @param {number} [width]
 */
const pad = (n, width = 2) => String(n).padStart(width, "0");

/** The browser's own zone, or UTC. */
export function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Every zone the browser knows (for the suggestions list). */
export function timeZones() {
  try {
    const zones = Intl.supportedValuesOf("timeZone");
    return zones.includes("UTC") ? zones : [...zones, "UTC"];
  } catch {
    return ["UTC"];
  }
}

/**
 * Whether Intl accepts the name as a time zone.
 * @param {string} name
 */
export function isTimeZone(name) {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** @type {Map<string, Intl.DateTimeFormat>} */
const formats = new Map();

/**
 * The wall clock in `zone` at instant `ms`.
 * @param {string} zone
 * @param {number} ms
 */
function wallClock(zone, ms) {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, format);
  }
  /** @type {Partial<Record<Intl.DateTimeFormatPartTypes, string>>} */
  const parts = {};
  for (const p of format.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/**
 * The zone's offset from UTC at instant `ms`, in minutes (east positive).
 * @param {string} zone
 * @param {number} ms
 */
export function offsetMinutes(zone, ms) {
  const w = wallClock(zone, ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

/**
 * "+01:00", "-08:00", "+05:45"
 * @param {number} minutes
 */
export function offsetText(minutes) {
  const sign = minutes < 0 ? "-" : "+";
  const m = Math.abs(minutes);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/**
 * "YYYY-MM-DD" plus `days` calendar days.
 * @param {string} date
 * @param {number} days
 */
export function addDays(date, days) {
  const [y, m, d] = ymd(date);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/**
 * Whether a string is a real "YYYY-MM-DD" date.
 * @param {string} text
 */
export function isIsoDate(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const t = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return t.getUTCFullYear() === Number(m[1]) && t.getUTCMonth() + 1 === Number(m[2]) && t.getUTCDate() === Number(m[3]);
}

/**
 * Today's date in `zone`.
 * @param {string} zone
 */
export function todayIn(zone) {
  const w = wallClock(zone, Date.now());
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * The delivery at `hour`:00 on `date` in `zone`, as the platform sends it:
 * `2026-11-20T06:00:00+01:00`. In the hour a clock skips (spring forward) the
 * printer's clock reads the hour after.
 * @param {string} date "YYYY-MM-DD"
 * @param {number} hour 0 to 23
 * @param {string} zone an IANA time zone
 * @returns {{ text: string, ms: number, offset: string }}
 */
export function localDeliveryTime(date, hour, zone) {
  const [y, m, d] = ymd(date);
  const wall = Date.UTC(y, m - 1, d, hour);
  const DAY = 86_400_000;
  // The offsets in force around that day (two when the clocks change).
  const before = offsetMinutes(zone, wall - DAY);
  const after = offsetMinutes(zone, wall + DAY);
  const fits = [before, after]
    .map((o) => wall - o * 60000)
    .filter((ms) => wall - offsetMinutes(zone, ms) * 60000 === ms);
  // An hour that happens twice: the first. An hour that never happens: the one after.
  const ms = fits.length ? Math.min(...fits) : wall - before * 60000;
  const w = wallClock(zone, ms);
  const o = offsetText(offsetMinutes(zone, ms));
  const text = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${o}`;
  return { text, ms, offset: o };
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * "Fri 20 Nov 2026" for "2026-11-20".
 * @param {string} date
 */
export function dateText(date) {
  const [y, m, d] = ymd(date);
  const t = new Date(Date.UTC(y, m - 1, d));
  return `${WEEKDAYS[t.getUTCDay()]} ${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * The year, month and day of a "YYYY-MM-DD" date, as numbers.
 * @param {string} date
 * @returns {[number, number, number]}
 */
function ymd(date) {
  const [y, m, d] = date.split("-").map(Number);
  return [y ?? NaN, m ?? NaN, d ?? NaN];
}
