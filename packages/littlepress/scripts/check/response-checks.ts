// Rules every single edition/ answer must keep, whatever day it is for:
// only 200, 204 or 410; a 200 carries a quoted ETag, a charset and a body;
// a 204 or 410 carries no body.
import { describeRequest, type Exchange, redirectTarget } from "./http.ts";
import type { CheckId } from "./catalogue.ts";
import { type CheckResult, judge, type Observation } from "./report.ts";

/** A quoted entity tag, strong "..." or weak W/"...": RFC 9110, section 8.8.3. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what an entity tag may not hold
const ETAG = /^(W\/)?"[^"\x00-\x20\x7f]*"$/;
const CHARSET = /;\s*charset\s*=\s*"?[\w.:-]+/i;

/**
 * `answers` are the requests the platform itself would make; `odd` are the
 * odd ones of bad-values.ts, whose statuses that check judges, but whose 200s,
 * 204s and 410s must keep the same rules as any other.
 */
export function checkResponses(answers: Exchange[], odd: Exchange[] = []): CheckResult[] {
  const all = [...answers, ...odd];
  const ok = all.filter((a) => a.status === 200);
  const empty = all.filter((a) => a.status === 204 || a.status === 410);
  const see = (a: Exchange, status: Observation["status"], detail: string): Observation => ({
    status,
    detail,
    request: describeRequest(a),
  });
  const NO_200 = "no 200 answers to look at";
  // Each check: which answers it looks at, what it sees in one, and what it says when there are none.
  const checks: [id: CheckId, looked: Exchange[], observe: (a: Exchange, see: See) => Observation, none: string][] = [
    ["edition.status", answers, statusObservation, "no edition/ requests were made"],
    ["edition.etag-quoted", ok, etagObservation, NO_200],
    ["edition.charset", ok, charsetObservation, NO_200],
    ["edition.html-body", ok, bodyObservation, NO_200],
    ["edition.no-body", empty, noBodyObservation, "no 204 or 410 answers to look at"],
  ];
  return checks.map(([id, looked, observe, none]) =>
    judge(
      id,
      looked.map((a) => observe(a, see)),
      none,
    ),
  );
}

type See = (a: Exchange, status: Observation["status"], detail: string) => Observation;

function statusObservation(a: Exchange, see: See): Observation {
  if (a.error) return see(a, "fail", `no answer: ${a.error}`);
  if ([200, 204, 410].includes(a.status)) return see(a, "pass", "200, 204 and 410 only");
  if (a.status === 304)
    return see(a, "fail", "answered 304; the platform expects 200, 204 or 410 and never sends If-None-Match");
  const to = redirectTarget(a);
  if (to) return see(a, "fail", `answered ${a.status}, a redirect to ${to}; the platform expects 200, 204 or 410`);
  return see(a, "fail", `answered ${a.status}; only 200, 204 and 410 are allowed`);
}

function etagObservation(a: Exchange, see: See): Observation {
  const etag = a.headers.get("etag");
  if (etag === null) return see(a, "fail", "no ETag header");
  if (!ETAG.test(etag)) return see(a, "fail", `ETag ${etag} is not a quoted string; send "${etag.replace(/"/g, "")}"`);
  return see(a, "pass", "quoted ETags");
}

function charsetObservation(a: Exchange, see: See): Observation {
  const type = a.headers.get("content-type");
  if (type && CHARSET.test(type)) return see(a, "pass", `Content-Type: ${type}`);
  return see(a, "fail", `Content-Type: ${type ?? "(none)"} names no charset; send e.g. text/html; charset=utf-8`);
}

function bodyObservation(a: Exchange, see: See): Observation {
  if (a.body.length === 0) return see(a, "fail", "200 with an empty body; answer 204 when there is nothing to print");
  const media = (a.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (media !== "text/html" && media !== "application/xhtml+xml")
    return see(a, "warn", `Content-Type ${media || "(none)"}; the printer renders HTML`);
  return see(a, "pass", "non-empty HTML");
}

function noBodyObservation(a: Exchange, see: See): Observation {
  const length = Number(a.headers.get("content-length") ?? 0);
  if (a.body.length > 0) return see(a, "fail", `${a.status} with a ${a.body.length}-byte body; send none`);
  // HTTP drops a 204's body in transit, but a Content-Length above 0 shows one was sent.
  if (length > 0) return see(a, "fail", `${a.status} with Content-Length: ${length}: a body was sent; send none`);
  return see(a, "pass", "no body");
}
