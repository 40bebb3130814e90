import { compareKeys, isDated, requestedKey, type EditionKey } from "./edition-key.ts";
import { utcDateOf, utcHourOf } from "./dates.ts";
import type { Manifest, PrebuiltEdition } from "./manifest.ts";
import type { PublishedPublication } from "./publication-store.ts";
import { subscriberSettings } from "./subscriber.ts";

/** What /edition/ answers, decided before any byte is written. */
export type EditionDecision =
  | { status: 200; key: EditionKey; edition: PrebuiltEdition; values: Map<string, string> }
  /** Nothing to print now; `reason` says why (sent in a header, never taken from the request). */
  | { status: 204; reason: string }
  /** The finite series is over for this subscriber. */
  | { status: 410; reason: string };

/** Picks the edition for a request's parameters, following the spec and the publication's `editions`. */
export function decideEdition(pub: PublishedPublication, params: URLSearchParams, now: Date): EditionDecision {
  const m = pub.manifest;
  const asked = requestedKey(m.by, params);
  if (asked.kind === "invalid") return { status: 204, reason: asked.reason };
  const key = asked.kind === "absent" ? defaultKey(m, now) : asked.key;
  if (!Object.hasOwn(m.editions, key)) return missing(m, key);
  return serve(pub, key, params);
}

/** The sample edition shown to people browsing publications, with the settings sent or the defaults. */
export function decideSample(pub: PublishedPublication, params: URLSearchParams): EditionDecision {
  return serve(pub, pub.manifest.sample, params);
}

function serve(pub: PublishedPublication, key: EditionKey, params: URLSearchParams): EditionDecision {
  const m = pub.manifest;
  const copies = m.editions[key]!;
  const settings = subscriberSettings(m.fields, params, pub.validate);
  const edition = copies[settings.variantId];
  if (!edition) return { status: 204, reason: "this edition was not built for these settings" };
  return { status: 200, key, edition, values: settings.values };
}

function missing(m: Manifest, key: EditionKey): EditionDecision {
  const first = m.keys[0]!;
  const last = m.keys.at(-1)!;
  if (compareKeys(m.by, key, last) > 0) {
    return m.ends ? { status: 410, reason: `the series ended with edition ${last}` } : { status: 204, reason: `no edition after ${last} yet` };
  }
  if (compareKeys(m.by, key, first) < 0) return { status: 204, reason: `the first edition is ${first}` };
  return { status: 204, reason: `no edition for ${key}` };
}

/**
 * The edition a request without its key gets (a browser, or the platform's
 * validator): edition 0, or the latest dated edition not after now.
 */
function defaultKey(m: Manifest, now: Date): EditionKey {
  if (!isDated(m.by)) return Object.hasOwn(m.editions, "0") ? "0" : m.keys[0]!;
  const today = m.by === "utc_hour" ? utcHourOf(now) : utcDateOf(now);
  let latest = m.keys[0]!;
  let lo = 0;
  let hi = m.keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(m.by, m.keys[mid]!, today) <= 0) {
      latest = m.keys[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return latest;
}
