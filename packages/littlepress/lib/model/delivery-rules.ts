// The platform's side of the spec, in one home: which query parameters a
// delivery's /edition/ request carries, and what the platform does with the
// answer. The desk's simulator (layouts/desk/assets/deliveries.js, through
// desk-rules.ts) and the real deliveries (lib/platform/delivering/run.ts) both use it.

/** What meta.json asks the platform to send. */
export interface EditionAsks {
  /** meta.json's send_timezone_info: send local_delivery_time. */
  byTime: boolean;
  /** meta.json's send_delivery_count: send delivery_count. */
  byCount: boolean;
}

/** One delivery's request: its local delivery time, its delivery_count and the subscriber's settings. */
export interface EditionRequestParts {
  /** "2026-11-22T06:00:00-08:00" (see localDeliveryTime). */
  localDeliveryTime: string;
  /** Deliveries made before this one, from 0. */
  deliveryCount: number;
  /** The subscriber's saved settings, one query parameter per field name. */
  settings: readonly (readonly [string, string])[];
}

/**
 * The query parameters of a delivery's /edition/ request, in order:
 * local_delivery_time and delivery_count only when meta.json asks for them,
 * then the settings as strings.
 */
export function editionParams(asks: EditionAsks, parts: EditionRequestParts): [string, string][] {
  const params: [string, string][] = [];
  if (asks.byTime) params.push(["local_delivery_time", parts.localDeliveryTime]);
  if (asks.byCount) params.push(["delivery_count", String(parts.deliveryCount)]);
  for (const [name, value] of parts.settings) params.push([name, value]);
  return params;
}

/**
 * What the platform does with an /edition/ answer (the spec's table):
 * - "print": a 200 whose ETag differs from the last one seen (or the first);
 * - "same": a 200 with the last ETag seen, treated as unchanged: nothing printed;
 * - "none": 204, nothing for this subscriber now; the subscription stays;
 * - "end": 410, the series is over for this subscriber; the subscription ends;
 * - "error": no answer, or a status the spec does not allow: nothing printed.
 * A 200 without an ETag breaks the spec but has content: it prints.
 */
export type EditionAction = "print" | "same" | "none" | "end" | "error";

/** The platform's move for an answer with `status` (null: no answer) and `etag`, given the last ETag seen. */
export function editionAction(status: number | null, etag: string | null, lastEtag: string | null): EditionAction {
  if (status === 200) return etag !== null && etag === lastEtag ? "same" : "print";
  if (status === 204) return "none";
  if (status === 410) return "end";
  return "error";
}

/** The ETag the platform remembers after an answer: that of every 200 that has one, printed or not. */
export function lastEtagAfter(status: number | null, etag: string | null, lastEtag: string | null): string | null {
  return status === 200 && etag !== null ? etag : lastEtag;
}
