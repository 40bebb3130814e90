// The /edition/ requests the benchmark sends, made from the editions it
// generated (never from a built site): which keys exist, which day is today,
// where the gaps are and where each series ends.
import { CHOICES, DAILY, LANGS, random, SERIAL, type SyntheticSite } from "./generate.ts";

export type RequestKind = "today" | "serial" | "dated" | "slot" | "gap" | "ended";

export interface EditionRequest {
  kind: RequestKind;
  /** The publication: the route's `:slug`, which a function is handed as its context's `params`. */
  slug: string;
  /** Path and query, to put after the server's origin. */
  path: string;
  expect: 200 | 204 | 410;
  /** For "slot": the text the page must show in place of {{ config.name }} (HTML-escaped). */
  shows?: string;
}

/** Share of each kind in the mix, in percent. */
export const REQUEST_MIX: Record<RequestKind, number> = {
  today: 20, // the dated publication's today, from printers in several time zones
  serial: 30, // a random delivery_count of the long serial
  dated: 10, // a random day with an edition
  slot: 20, // the publication with a select and a text field: name=... filled into the page
  gap: 10, // a Sunday: 204
  ended: 10, // past the serial's last edition: 410
};

export const describeMix = () =>
  "today's edition of the dated publication 20%, random serial parts 30%, random dated days 10%, " +
  "the select+text publication with lang and name (text-slot substitution) 20%, " +
  "204 (a Sunday without edition) 10%, 410 (past the serial's end) 10%";

const NAMES = ["Ada", "Zoë", "O'Brien & Co", "Léa", "<Sam>", "Bartholomew", "Nguyễn", "Jo"];
const ZONES = ["-08:00", "-05:00", "+00:00", "+01:00", "+05:30", "+09:00"];
const TIMES = ["05:30:00", "06:00:00", "07:15:00"];

/** `count` requests in a shuffled order, reproducible from `seed`. */
export function editionRequests(site: SyntheticSite, count: number, seed: number): EditionRequest[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const int = (n: number) => Math.floor(next() * n);
  const time = (date: string) => `${date}T${pick(TIMES)}${pick(ZONES)}`;
  const kinds = Object.entries(REQUEST_MIX) as [RequestKind, number][];
  const out: EditionRequest[] = [];
  for (let i = 0; i < count; i++) {
    // Deterministic proportions: the i-th request's kind by cumulative share.
    let at = ((i + 0.5) / count) * 100;
    const kind = kinds.find(([, share]) => (at -= share) < 0)?.[0] ?? "serial";
    out.push(make(kind));
  }
  // Fisher–Yates with the seeded generator.
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;

  function make(kind: RequestKind): EditionRequest {
    const q = (slug: string, params: Record<string, string>) => `/${slug}/edition/?${new URLSearchParams(params)}`;
    switch (kind) {
      case "today":
        return { kind, slug: DAILY, path: q(DAILY, { local_delivery_time: time(site.daily.today) }), expect: 200 };
      case "serial":
        return { kind, slug: SERIAL, path: q(SERIAL, { delivery_count: String(int(site.serial.count)) }), expect: 200 };
      case "dated":
        return {
          kind,
          slug: DAILY,
          path: q(DAILY, { local_delivery_time: time(pick(site.daily.dates)) }),
          expect: 200,
        };
      case "slot": {
        const name = pick(NAMES);
        return {
          kind,
          slug: CHOICES,
          path: q(CHOICES, { delivery_count: String(int(site.choices.count)), lang: pick(LANGS), name }),
          expect: 200,
          shows: escapeHtml(name),
        };
      }
      case "gap":
        return { kind, slug: DAILY, path: q(DAILY, { local_delivery_time: time(pick(site.daily.gaps)) }), expect: 204 };
      case "ended":
        return {
          kind,
          slug: SERIAL,
          path: q(SERIAL, { delivery_count: String(site.serial.count + int(50)) }),
          expect: 410,
        };
    }
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Checks an answer against what the request expects; returns a problem or undefined. */
export function checkAnswer(r: EditionRequest, status: number, body: string): string | undefined {
  if (status !== r.expect) return `${r.path}: expected ${r.expect}, got ${status}`;
  if (r.shows !== undefined && !body.includes(r.shows))
    return `${r.path}: the page does not show the name ${JSON.stringify(r.shows)}`;
  return undefined;
}
