import type { SpecField } from "../model/config-fields.ts";
import { fallbackValue, isChoice, specField } from "../model/config-fields.ts";
import { dateText, utcDateOf } from "../model/dates.ts";
import { renderDescription } from "../model/description.ts";
import type { EditionKey, EditionsBy } from "../model/edition-key.ts";
import { plural } from "../model/words.ts";
import type { PublicationSource } from "./site.ts";

/** What the desk (the site's own pages at / and /<slug>/) shows about a publication. */
export interface DeskPublication {
  slug: string;
  name: string;
  /** Rendered with only the tags the platform allows. */
  descriptionHtml: string;
  delivered_on: string;
  /** Whether this publication also answers at the site root. */
  isRoot: boolean;
  schedule: {
    by: EditionsBy;
    /** "one edition per delivery, by delivery_count", for people. */
    summary: string;
    count: number;
    first: EditionKey;
    last: EditionKey;
    ends: boolean;
    /** The first and last keys for people: "no. 0", "Mon 16 Nov 2026", "Sun 22 Nov 2026, 07:00 UTC". */
    firstText: string;
    lastText: string;
    /** Keys in the run from first to last that have no edition (they answer 204). */
    gaps: number;
    /** "24 editions; 3 days between them without one answer 204" */
    countText: string;
    /** What the platform gets after the last edition. */
    afterLast: string;
    /** The date (YYYY-MM-DD) of the first and last edition, for the simulator; "" when keyed by delivery_count. */
    firstDate: string;
    lastDate: string;
  };
  /** The editions marked push (printed at once to every subscriber), for people: "no. 3", "Sun 22 Nov 2026". */
  push: string[];
  /** The command that prints the first of them by hand ("npm run push -- news 3"); "" when there is none. */
  pushCommand: string;
  fields: SpecField[];
  /**
   * Each select's and radio's default, by name: meta.json has none (the spec's fields have no default), so the
   * desk's page carries them for its form to preselect, as the platform's subscribe page does.
   */
  defaults: Record<string, string>;
}

const BY_TEXT: Record<EditionsBy, string> = {
  delivery_count: "one edition per delivery, counted from the subscriber's first",
  local_date: "one edition per day, by the printer's local date",
  utc_date: "one edition per day, by the UTC date",
  utc_hour: "one edition per hour, by the UTC date and hour",
};

const HOUR_MS = 3_600_000;

/**
 * A key's instant (UTC midnight of a date, or the UTC hour), for counting and naming;
 * undefined for delivery counts.
 */
function keyInstant(by: EditionsBy, key: EditionKey): Date | undefined {
  if (by === "delivery_count" || key === "") return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}))?$/.exec(key);
  if (!m) return undefined;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0)));
}

/** An edition key for people. */
export function keyText(by: EditionsBy, key: EditionKey): string {
  if (key === "") return "none";
  if (by === "delivery_count") return `no. ${key}`;
  const at = keyInstant(by, key);
  if (!at) return key;
  const day = dateText(utcDateOf(at));
  return by === "utc_hour" ? `${day}, ${String(at.getUTCHours()).padStart(2, "0")}:00 UTC` : day;
}

/** How many keys between the first and the last have no edition. */
function gapsOf(by: EditionsBy, keys: EditionKey[]): number {
  const first = keys[0];
  const last = keys.at(-1);
  if (first === undefined || last === undefined) return 0;
  let span: number;
  if (by === "delivery_count") span = Number(last) - Number(first) + 1;
  else {
    const a = keyInstant(by, first);
    const b = keyInstant(by, last);
    if (!a || !b) return 0;
    span = Math.round((b.getTime() - a.getTime()) / (by === "utc_hour" ? HOUR_MS : 24 * HOUR_MS)) + 1;
  }
  return Math.max(0, span - keys.length);
}

const GAP_UNIT: Record<EditionsBy, string> = {
  delivery_count: "number",
  local_date: "day",
  utc_date: "day",
  utc_hour: "hour",
};

function countText(by: EditionsBy, count: number, gaps: number): string {
  const text = plural(count, "edition");
  return gaps ? `${text}; ${plural(gaps, GAP_UNIT[by])} between them without one answer 204` : text;
}

export function deskPublication(pub: PublicationSource, root: string | undefined): DeskPublication {
  const by = pub.editions.by;
  const firstPush = pub.editions.list.find((e) => e.push);
  const keys = pub.editions.list.map((e) => e.key);
  const first = keys[0] ?? "";
  const last = keys.at(-1) ?? "";
  const dateOf = (key: EditionKey) => (by === "delivery_count" ? "" : key.slice(0, 10));
  const gaps = gapsOf(by, keys);
  return {
    slug: pub.slug,
    name: pub.name,
    descriptionHtml: renderDescription(pub.description),
    delivered_on: pub.delivered_on,
    isRoot: pub.slug === root,
    schedule: {
      by,
      summary: BY_TEXT[by],
      count: keys.length,
      first,
      last,
      ends: pub.editions.ends,
      firstText: keyText(by, first),
      lastText: keyText(by, last),
      gaps,
      countText: countText(by, keys.length, gaps),
      afterLast: pub.editions.ends
        ? "then 410: the series ends and so does the subscription"
        : "then 204: nothing prints until new editions are added",
      firstDate: dateOf(first),
      lastDate: dateOf(last),
    },
    push: pub.editions.list.filter((e) => e.push).map((e) => keyText(by, e.key)),
    pushCommand: firstPush ? `npm run push -- ${pub.slug} ${firstPush.key}` : "",
    fields: pub.fields.map(specField),
    defaults: Object.fromEntries(pub.fields.filter(isChoice).map((f) => [f.name, fallbackValue(f)])),
  };
}

/** Where the desk's pages load the model's rules from: the site's /_desk/model.js. */
export const DESK_MODEL_FILE = "_desk/model.js";
