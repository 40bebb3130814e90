// The state store's keys, in one place (checkKey in state-store.ts: plain names
// joined by "/"):
// - subscriptions/<id>: a subscription (its id random and public);
// - deliveries/<id>/<date>: one of its deliveries, claimed once per date;
// - live/<publication>/<id>: the index of a publication's live subscriptions,
//   one small key per subscription, which the subscribe page counts (by
//   listing the keys, reading none) to keep to the publication's cap;
// - seats/<publication>/<n>: the cap's seats, numbered 0 to the cap less one,
//   each taken with a conditional create by one subscribe (seats.ts), so that
//   subscribes at the same moment cannot together pass the cap;
// - limits/<action>/<UTC hour>/<client hash>: rate-limit counters (rate-limit.ts);
// - slots/<hour>.<zone>/<id>: the schedule, one small key per live subscription
//   under its delivery hour and time zone (the zone in base64url, since zone
//   names hold "+"), which a scheduled run lists to find who is due without
//   reading a subscription (delivering/batches.ts);
// - batches/<not before>.<batch id>: a scheduled run's batches of deliveries
//   still to finish (delivering/batches.ts).
//
// Why an index beside the subscriptions rather than the slug in their keys
// (subscriptions/<publication>/<id>): the subscriptions stored before the cap
// keep their keys, so nothing is moved (a move is two writes that a run
// delivering the same subscription could race, losing its update); the
// unsubscribe links and the delivery records, which name a subscription by id
// alone, keep working as they are; and an ended subscription (410, an unknown
// print key), which stays stored for the desk, leaves the index at once, so
// the index counts the live ones only. The index is kept with conditional
// creates (one key per id: no two writers ever contend for one record), and
// the delivery runs, which read every subscription anyway, keep it right:
// they add what is missing (the subscriptions stored before it, a subscribe
// that died between its two writes) and remove what is not live.

export const SUBSCRIPTIONS = "subscriptions/";
export const subscriptionKey = (id: string) => `${SUBSCRIPTIONS}${id}`;

export const deliveriesOf = (id: string) => `deliveries/${id}/`;
export const deliveryKey = (id: string, date: string) => `${deliveriesOf(id)}${date}`;

export const LIVE = "live/";
/**
 * A publication as a key part: its slug, or `_root` for the one at the site
 * root (whose slug, "", is no key part; no slug starts with "_", so no
 * publication's own slug can be taken for it).
 */
export const publicationKey = (slug: string) => slug || "_root";
/** The prefix of a publication's live-subscription index. */
export const liveOf = (slug: string) => `${LIVE}${publicationKey(slug)}/`;
export const liveKey = (slug: string, id: string) => `${liveOf(slug)}${id}`;

/** What an index key holds: when its subscription was made (a run leaves a young key without a subscription alone). */
export interface LiveEntry {
  at: string;
}

/** The cap's seats (seats.ts): `seats/<publication>/<n>`. */
export const SEATS = "seats/";
export const seatsOf = (slug: string) => `${SEATS}${publicationKey(slug)}/`;
export const seatKey = (slug: string, seat: number) => `${seatsOf(slug)}${seat}`;

/** Where the rate-limit counters are: `limits/<action>/<UTC hour>/<client hash>`. */
export const LIMITS = "limits/";

// Push editions (lib/model/push.ts):
// - pushes/<publication>/<edition>: a push edition a run has seen, with the
//   time it was published (its first build's) and, once nothing is left to
//   do for it, when it was done;
// - pushed/<id>/<edition>: one subscription's copy of a push edition, claimed
//   once (a conditional create), as a day's delivery is. Removed with its subscription.
export const PUSHES = "pushes/";
export const pushKey = (slug: string, edition: string) => `${PUSHES}${publicationKey(slug)}/${edition}`;
export const pushedOf = (id: string) => `pushed/${id}/`;
export const pushedKey = (id: string, edition: string) => `${pushedOf(id)}${edition}`;

/** The schedule (see above): who is due at which hour on which clock. */
export const SLOTS = "slots/";
/** A slot's folder name: the delivery hour, two digits, and the time zone in base64url. */
export const slotName = (zone: string, hour: number) =>
  `${String(hour).padStart(2, "0")}.${Buffer.from(zone, "utf8").toString("base64url")}`;
export const slotOf = (zone: string, hour: number) => `${SLOTS}${slotName(zone, hour)}/`;
export const slotKey = (sub: { zone: string; hour: number; id: string }) => `${slotOf(sub.zone, sub.hour)}${sub.id}`;
/** A slot's hour and zone from its folder name, or undefined for a name that is not one. */
export function slotFrom(name: string): { hour: number; zone: string } | undefined {
  const m = /^(\d{2})\.([A-Za-z0-9_-]+)$/.exec(name);
  if (!m) return undefined;
  const hour = Number(m[1]);
  const zone = Buffer.from(m[2]!, "base64url").toString("utf8");
  return hour < 24 && slotName(zone, hour) === name ? { hour, zone } : undefined;
}
