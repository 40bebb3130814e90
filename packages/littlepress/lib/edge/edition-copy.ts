// The prebuilt copy of an edition a subscriber's settings pick, as the
// edition endpoints answer with it.
import type { EditionKey } from "../model/edition-key.ts";
import type { EditionShard, PrebuiltEdition } from "../model/shard.ts";
import { subscriberSettings } from "../model/subscriber.ts";
import type { PublishedPublication } from "./publication-store.ts";

/** What /edition/ answers, decided before any byte is written. */
export type EditionDecision =
  | {
      status: 200;
      key: EditionKey;
      etag: string;
      html: string;
      slots: boolean;
      values: Map<string, string>;
      /** The prebuilt copy picked: the answer keeps its page's encoded bytes for as long as its shard is kept. */
      copy: PrebuiltEdition;
    }
  /** Nothing to print now; `reason` says why (sent in a header, never taken from the request). */
  | { status: 204; reason: string }
  /** The finite series is over for this subscriber. */
  | { status: 410; reason: string };

/** The copy of edition `key` in `shard` built for the settings in `params`; 204 when none was. */
export function serveCopy(
  pub: PublishedPublication,
  shard: EditionShard,
  key: EditionKey,
  params: URLSearchParams,
): EditionDecision {
  const settings = subscriberSettings(pub.index.fields, params, pub.validate);
  const edition = shard.editions[key]![settings.variantId];
  if (!edition) return { status: 204, reason: "this edition was not built for these settings" };
  return {
    status: 200,
    key,
    etag: edition.etag,
    html: shard.bodies[edition.body]!,
    slots: edition.slots,
    values: settings.values,
    copy: edition,
  };
}
