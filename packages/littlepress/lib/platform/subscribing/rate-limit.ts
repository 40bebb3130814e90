// A limit on how often one client may do something (subscribe): a counter per
// client and hour in the state store, so it holds across function instances.
// A client is an IPv4 address, or an IPv6 /64 (one host commonly holds a whole
// /64, so counting its addresses one by one would let it through 2^64 times);
// an IPv4-mapped IPv6 address is its IPv4 address. The client is kept only as
// a keyed hash. A refused try writes nothing: the counter is read first, and a
// client has at most one counter an hour. The counters of hours
// that are over are pruned by the delivery runs (rate-limit-pruning.ts), never
// on the request's path.
import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { utcHourOf } from "../../model/dates.ts";
import type { StateStore } from "../stores/state-store.ts";
import { LIMITS } from "../stores/store-keys.ts";

export interface RateLimit {
  /** What is limited, as a key part ("subscribe"). */
  action: string;
  /** How many per client and UTC hour. */
  perHour: number;
}

/**
 * Counts one try by `client`; false when the client already used up the
 * hour's tries. `secret` keys the hash, so the stored names tell no addresses.
 */
export async function allowTry(
  store: StateStore,
  limit: RateLimit,
  client: string,
  secret: Buffer,
  at: Date,
): Promise<boolean> {
  const who = createHmac("sha256", secret).update(rateClient(client)).digest("hex").slice(0, 24);
  const key = `${LIMITS}${limit.action}/${utcHourOf(at)}/${who}`;
  for (let tries = 0; tries < 8; tries++) {
    const held = await store.get<number>(key);
    if (!held) {
      if (await store.create(key, 1)) return true;
      continue;
    }
    if (held.value >= limit.perHour) return false;
    if (await store.replace(key, held.value + 1, held.version)) return true;
  }
  return false; // a client racing itself this hard is refused
}

/**
 * Who a try is counted against: an IPv4 address as it is, an IPv6 address by
 * its /64 ("2001:db8:0:1::/64"), an IPv4-mapped IPv6 address ("::ffff:192.0.2.1")
 * as its IPv4 address; anything else (no address known) as it is.
 */
export function rateClient(client: string): string {
  const address = client.replace(/%.*$/, ""); // an IPv6 zone ("fe80::1%eth0") names no other client
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return client;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return ipv4Of(groups[6]!, groups[7]!);
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (isIPv6), a trailing dotted IPv4 part included. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");
