// The platform's clock: the local_delivery_time it would send for a local date
// and hour in a time zone, with that day's UTC offset worked out by Intl (so
// summer time is right on each day, not just today).

/** "2026-11-22" plus n days, in calendar terms (no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** Today's date as a printer in `zone` sees it. */
export function todayIn(zone: string, now = new Date()): string {
  const p = localParts(zone, now.getTime());
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * "2026-11-22T06:00:00-08:00": the delivery at `hour` on local `date` in `zone`.
 * An hour skipped by a summer-time change comes out as the hour after it,
 * which is what a clock in that zone would show; an hour that happens twice
 * is its first occurrence.
 */
export function localDeliveryTime(date: string, hour: number, zone: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const wall = Date.UTC(y!, m! - 1, d, hour);
  // The zone's offsets half a day either side bracket any change on this date.
  const candidates = [
    ...new Set([offsetMinutes(zone, wall - 14 * 3_600_000), offsetMinutes(zone, wall + 14 * 3_600_000)]),
  ].map((o) => wall - o * 60_000);
  const exact = candidates.filter((instant) => localParts(zone, instant).hour === hour).sort((a, b) => a - b);
  const instant = exact[0] ?? Math.max(...candidates); // in a skipped hour: the later reading
  const p = localParts(zone, instant);
  const offset = formatOffset(offsetMinutes(zone, instant));
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${offset}`;
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(zone: string, instant: number): Parts {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant)))
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  return parts as unknown as Parts;
}

/** Minutes east of UTC in `zone` at `instant`. */
function offsetMinutes(zone: string, instant: number): number {
  const p = localParts(zone, instant);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const pad = (n: number) => String(n).padStart(2, "0");
