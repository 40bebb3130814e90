// What the real internet sends to edition/ besides the platform's own calls:
// delivery_count that is no count, local_delivery_time that is no time or has
// an odd offset, keys twice, settings nobody defined, settings holding markup.
// The spec allows 200, 204 and 410 only, whatever the query: a 400 or a 500 is
// a failed delivery. The answers also go through response-checks.ts, so a 200
// here needs its quoted ETag and charset, and a 204 or 410 no body.
import { type CheckContext, type Publication } from "./context.ts";
import { editionUrl } from "./delivery-runs.ts";
import { localDeliveryTime } from "../../lib/model/delivery-time.ts";
import { bodyText, describeRequest, type Exchange, request } from "./http.ts";
import { type CheckResult, judge, type Observation } from "./report.ts";

/** Markup put into every setting: a page that shows it unescaped prints the subscriber's text as HTML. */
export const PROBE = '"><lp-probe>&amp;</lp-probe>';
const PROBE_TAG = "<lp-probe>";

export interface BadRequest {
  /** What is odd about it, for the report: "delivery_count=abc". */
  what: string;
  params: [string, string][];
}

export interface BadValuesPlan {
  start: string;
  hour: number;
  zone: string;
  config: Record<string, string>;
}

const BAD_COUNTS = ["abc", "-1", "", "99999999999999999999999999", "2.5", " 1", "1e3", "0x10", "NaN"];
const BAD_TIMES = [
  "yesterday",
  "",
  "2026-02-30T06:00:00+00:00", // no such day
  "2026-13-01T06:00:00Z", // no such month
  "2026-01-10T25:61:00Z", // no such hour
  "2026-01-10T06:00:00+25:00", // no such offset
  "2026-01-10T06:00:00+05:45", // Nepal: a real, odd offset
  "2026-01-10T06:00:00-00:00",
  "2026-01-10T06:00:00+14:00",
  "2026-01-10T06:00:00.123456789+01:00",
  "2026-01-10T06:00:00 01:00", // an unencoded "+" read as a space
  "2026-01-10",
  "0000-01-01T00:00:00Z",
  "99999-01-01T06:00:00Z",
  "2026-01-10T06:00:00+0100",
];

/** The odd requests, each one valid delivery with exactly one thing changed. */
export function badRequests(publication: Publication, plan: BadValuesPlan): BadRequest[] {
  const time = localDeliveryTime(plan.start, plan.hour, plan.zone).text;
  const good: [string, string][] = [];
  if (publication.sendTimezoneInfo) good.push(["local_delivery_time", time]);
  if (publication.sendDeliveryCount) good.push(["delivery_count", "0"]);
  good.push(...Object.entries(plan.config));
  const setting = (key: string, value: string): [string, string][] => [
    ...good.filter(([k]) => k !== key),
    [key, value],
  ];
  const out: BadRequest[] = [];
  for (const v of BAD_COUNTS)
    out.push({ what: `delivery_count=${JSON.stringify(v)}`, params: setting("delivery_count", v) });
  for (const v of BAD_TIMES)
    out.push({ what: `local_delivery_time=${JSON.stringify(v)}`, params: setting("local_delivery_time", v) });
  out.push({ what: "delivery_count twice", params: [...setting("delivery_count", "0"), ["delivery_count", "5"]] });
  out.push({
    what: "local_delivery_time twice",
    params: [...setting("local_delivery_time", time), ["local_delivery_time", "2030-06-01T06:00:00+00:00"]],
  });
  for (const key of Object.keys(plan.config)) {
    out.push({ what: `setting ${key} twice`, params: [...good, [key, "x"]] });
    out.push({ what: `setting ${key} holding markup`, params: setting(key, PROBE) });
    out.push({ what: `setting ${key} empty`, params: setting(key, "") });
    out.push({ what: `setting ${key} missing`, params: good.filter(([k]) => k !== key) });
  }
  out.push({ what: "an unknown setting", params: [...good, ["utm_source", "newsletter"], ["colour", PROBE]] });
  out.push({ what: "a 4000-character setting", params: [...good, ["note", "x".repeat(4000)]] });
  return out;
}

export interface BadValuesOutcome {
  checks: CheckResult[];
  /** Every answer, for the per-answer rules of response-checks.ts. */
  answers: Exchange[];
}

export async function checkBadValues(
  ctx: CheckContext,
  publication: Publication,
  plan: BadValuesPlan,
): Promise<BadValuesOutcome> {
  ctx.progress("edition/ with odd and broken parameters ...");
  const statuses: Observation[] = [];
  const echoes: Observation[] = [];
  const answers: Exchange[] = [];
  for (const bad of badRequests(publication, plan)) {
    const a = await request(editionUrl(ctx, bad.params), { timeoutMs: ctx.timeoutMs });
    answers.push(a);
    const req = describeRequest(a);
    if (a.error) statuses.push({ status: "fail", detail: `${bad.what}: no answer: ${a.error}`, request: req });
    else if ([200, 204, 410].includes(a.status))
      statuses.push({ status: "pass", detail: "200, 204 or 410 whatever the query", request: req });
    else
      statuses.push({
        status: "fail",
        detail: `${bad.what}: answered ${a.status}; answer 200, 204 (nothing to print) or 410, never an error`,
        request: req,
      });
    // A server that stopped answering would cost a timeout per request; two in a row is enough said.
    if (a.error && answers.at(-2)?.error) break;
    if (a.status === 200 && bad.params.some(([, v]) => v === PROBE))
      echoes.push(
        bodyText(a).includes(PROBE_TAG)
          ? { status: "fail", detail: `${bad.what}: the page shows it as markup; escape <, > and &`, request: req }
          : { status: "pass", detail: "settings holding markup are not echoed as markup", request: req },
      );
  }
  return {
    checks: [
      judge("edition.bad-values", statuses, "no odd requests were made"),
      judge("edition.escapes", echoes, "no 200 answers to settings holding markup"),
    ],
    answers,
  };
}
