// Rules about deliveries taken together: the ETag is stable for the same
// request, new for each printed delivery, and a 410 is final for that
// subscription while a fresh subscription starts over.
import { daysDiffer, type Delivery } from "./delivery-runs.ts";
import type { Publication } from "./context.ts";
import { describeRequest, type Exchange } from "./http.ts";
import { type CheckResult, judge, type Observation, skip } from "./report.ts";

export function checkSequences(deliveries: Delivery[], publication: Publication): CheckResult[] {
  return [
    stable(deliveries),
    ...successive(deliveries, publication),
    afterEnd(deliveries),
    resubscribe(deliveries, publication),
  ];
}

const etagOf = (a: Exchange) => a.headers.get("etag") ?? "(none)";
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const label = (d: Delivery) =>
  `${d.date}${d.zone ? ` ${d.zone}` : ""}${d.count !== undefined ? ` delivery_count=${d.count}` : ""}`;

function stable(deliveries: Delivery[]): CheckResult {
  const observations = deliveries.flatMap((d): Observation[] => {
    if (!d.repeat) return [];
    const request = describeRequest(d.first);
    if (d.repeat.status !== 200)
      return [
        {
          status: "fail",
          detail: `answered 200, then ${d.repeat.status || d.repeat.error} to the same request`,
          request,
        },
      ];
    if (etagOf(d.repeat) !== etagOf(d.first))
      return [
        {
          status: "fail",
          detail:
            `ETag ${etagOf(d.first)}, then ${etagOf(d.repeat)} for the same request; ` +
            "the platform would print it again",
          request,
        },
      ];
    return [{ status: "pass", detail: "repeated requests keep their ETag", request }];
  });
  return judge("edition.etag-stable", observations, "no 200 answers to repeat");
}

/** Each printed delivery against the previous one of its subscription: what the platform compares. */
function successive(deliveries: Delivery[], publication: Publication): CheckResult[] {
  if (!daysDiffer(publication)) {
    const why =
      "the publication gets neither local_delivery_time nor delivery_count, so every day's request is the same; " +
      "only its own clock can tell days apart";
    return [skip("edition.etag-daily", why), skip("edition.etag-changes", why)];
  }
  const daily: Observation[] = [];
  const changes: Observation[] = [];
  const previous = new Map<string, Delivery>(); // per zone and subscription
  for (const d of deliveries) {
    if (d.role !== "delivery" || d.first.status !== 200) continue;
    const key = `${d.zone}|${d.subscription}`;
    const before = previous.get(key);
    previous.set(key, d);
    if (before) compare(before, d, daily, changes);
  }
  return [
    judge("edition.etag-daily", daily, "no two successive printed deliveries had identical content"),
    judge("edition.etag-changes", changes, "no two successive printed deliveries had different content"),
  ];
}

function compare(before: Delivery, d: Delivery, daily: Observation[], changes: Observation[]) {
  const request = describeRequest(d.first);
  const sameEtag = etagOf(before.first) === etagOf(d.first);
  if (sameBytes(before.first.body, d.first.body)) {
    daily.push(
      sameEtag
        ? {
            status: "fail",
            detail:
              `same content and same ETag ${etagOf(d.first)} on ${label(before)} and ${label(d)}: ` +
              "the platform would not print the second; derive the ETag from the date or count too",
            request,
          }
        : { status: "pass", detail: "identical content on successive deliveries gets distinct ETags", request },
    );
    return;
  }
  // A body that differs between two identical requests (a timestamp, say) says nothing about days.
  const steady = (x: Delivery) => !x.repeat || sameBytes(x.first.body, x.repeat.body);
  if (!steady(before) || !steady(d)) return;
  changes.push(
    sameEtag
      ? {
          status: "fail",
          detail:
            `content changed but ETag did not: ${etagOf(d.first)} on both ${label(before)} and ${label(d)}; ` +
            "the platform would not print the new content",
          request,
        }
      : { status: "pass", detail: "new content on successive deliveries gets a new ETag", request },
  );
}

function afterEnd(deliveries: Delivery[]): CheckResult {
  const observations = deliveries
    .filter((d) => d.role === "after-end")
    .map((d): Observation => {
      const request = describeRequest(d.first);
      const status = d.first.status;
      if (status === 410) return { status: "pass", detail: "still 410 the day after", request };
      const ended =
        "the subscription ended with 410 the day before, " + `yet ${label(d)} answers ${status || d.first.error}`;
      if (status === 200)
        return {
          status: "fail",
          detail: `${ended}: content past the end of the series that no subscriber would ever get`,
          request,
        };
      return { status: "warn", detail: `${ended}; a finished series should keep answering 410`, request };
    });
  return judge("edition.after-410", observations, "no 410 in the span");
}

function resubscribe(deliveries: Delivery[], publication: Publication): CheckResult {
  if (!publication.sendDeliveryCount)
    return skip(
      "edition.resubscribe",
      "only meaningful with send_delivery_count: without it a new subscription sends what the ended one sent",
    );
  const observations = deliveries
    .filter((d) => d.resubscribed)
    .map((d): Observation => {
      const request = describeRequest(d.first);
      if (d.first.status === 200 || d.first.status === 204)
        return { status: "pass", detail: `a fresh subscription from delivery_count=0 gets ${d.first.status}`, request };
      return {
        status: "fail",
        detail:
          `a fresh subscription on ${label(d)} gets ${d.first.status || d.first.error}; ` +
          "resubscribers start again from edition 0",
        request,
      };
    });
  return judge("edition.resubscribe", observations, "no 410 in the span, so no resubscription");
}
