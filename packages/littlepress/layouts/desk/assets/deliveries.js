// The platform's delivery rules, as the simulator plays them, with no DOM (so
// they can be tested on their own). Per the spec: one request a day, for the
// day's local delivery time and/or delivery_count; delivery_count goes up by
// one every day, printed or not; 200 prints when its ETag differs from the last
// one seen; 204 prints nothing; 410 ends the subscription.
import { addDays, editionAction, editionParams, lastEtagAfter, localDeliveryTime, plural } from "./model.js";

/**
 * What the subscriber asked the simulator to play.
 * @typedef {object} Plan
 * @property {number} days how many days to play
 * @property {boolean} byTime whether meta.json asks for local_delivery_time
 * @property {boolean} byCount whether meta.json asks for delivery_count
 * @property {string} startDate the first delivery's date, "YYYY-MM-DD" (used when byTime)
 * @property {number} hour the delivery hour, 0 to 23 (used when byTime)
 * @property {string} zone the printer's IANA time zone (used when byTime)
 * @property {number} startCount the first delivery's delivery_count (used when byCount)
 * @property {[string, string][]} settings the subscriber's saved settings, sent with every request
 */

/**
 * One day's delivery: the request the platform sends that day.
 * @typedef {object} Day
 * @property {number} n the day's number, from 1
 * @property {number} count its delivery_count
 * @property {string} date its date ("" when the publication does not ask for the time)
 * @property {import("./model.js").LocalDeliveryTime | undefined} time its local delivery time
 * @property {[string, string][]} params the request's query parameters, in order
 */

/**
 * What came back from edition/ (status null: the request failed).
 * @typedef {{ status: number | null, etag: string | null, reason: string }} Answer
 */

/**
 * What the platform does with an answer.
 * @typedef {"print" | "warn" | "same" | "none" | "end" | "error"} VerdictKind
 * @typedef {{ kind: VerdictKind, prints: boolean, short: string, why: string }} Verdict
 */

/**
 * The subscription so far.
 * @typedef {object} Tally
 * @property {string | null} lastEtag the ETag of the last 200 that had one
 * @property {number} played requests answered
 * @property {number} printed editions printed
 * @property {number | null} endedOn the day that answered 410, if one did
 */

/**
 * Day `index` (from 0) of the plan: its date and time, its delivery_count
 * (which counts days, not prints) and its query parameters.
 * @param {Plan} plan
 * @param {number} index
 * @returns {Day}
 */
export function deliveryDay(plan, index) {
  /** @type {Day} */
  const day = { n: index + 1, count: plan.startCount + index, date: "", time: undefined, params: [] };
  if (plan.byTime) {
    day.date = addDays(plan.startDate, index);
    day.time = localDeliveryTime(day.date, plan.hour, plan.zone);
  }
  day.params = editionParams(plan, {
    localDeliveryTime: day.time?.text ?? "",
    deliveryCount: day.count,
    settings: plan.settings,
  });
  return day;
}

/**
 * The request's query string, percent-encoded, with the harmless `:` and `,` left readable.
 * @param {[string, string][]} params
 */
export function query(params) {
  return params.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
}
/** @param {string} s */
const enc = (s) => encodeURIComponent(s).replace(/%3A/gi, ":").replace(/%2C/gi, ",");

/**
 * What the platform does with an answer, given the last ETag it saw.
 * @param {Answer} answer
 * @param {string | null} lastEtag
 * @returns {Verdict}
 */
export function judge(answer, lastEtag) {
  switch (editionAction(answer.status, answer.etag, lastEtag)) {
    case "print":
      if (answer.etag === null) {
        return {
          kind: "warn",
          prints: true,
          short: "Prints (no ETag!)",
          why:
            "Printed here, but the spec requires an ETag on every 200: " +
            "without one the platform cannot tell new content from old.",
        };
      }
      return {
        kind: "print",
        prints: true,
        short: "Prints",
        why:
          lastEtag === null
            ? "Printed: the first ETag this subscription has seen."
            : "Printed: the ETag differs from the last one seen.",
      };
    case "same":
      return {
        kind: "same",
        prints: false,
        short: "Not printed: same ETag",
        why: "Not printed: the ETag is the same as the last one seen, so the platform treats the content as unchanged.",
      };
    case "none":
      return {
        kind: "none",
        prints: false,
        short: "Nothing to print",
        why: "Nothing printed: 204 means nothing for this subscriber today. The subscription stays.",
      };
    case "end":
      return {
        kind: "end",
        prints: false,
        short: "Subscription ends",
        why: "The series has ended for this subscriber: the platform deletes the subscription.",
      };
    case "error":
      if (answer.status === null)
        return { kind: "error", prints: false, short: "No answer", why: "The request failed." };
      return {
        kind: "error",
        prints: false,
        short: "Not a spec status",
        why:
          "The spec allows only 200, 204 and 410 from edition/; " +
          `what the platform does with ${answer.status} is not defined.`,
      };
  }
}

/** @returns {Tally} */
export const newTally = () => ({ lastEtag: null, played: 0, printed: 0, endedOn: null });

/**
 * The subscription after day `day` answered `answer`: the platform remembers the
 * ETag of every 200 that has one (printed or not), and a 410 ends it.
 * @param {Tally} tally
 * @param {Day} day
 * @param {Answer} answer
 * @returns {{ tally: Tally, verdict: Verdict }}
 */
export function record(tally, day, answer) {
  const verdict = judge(answer, tally.lastEtag);
  return {
    verdict,
    tally: {
      lastEtag: lastEtagAfter(answer.status, answer.etag, tally.lastEtag),
      played: tally.played + 1,
      printed: tally.printed + (verdict.prints ? 1 : 0),
      endedOn: answer.status === 410 ? day.n : tally.endedOn,
    },
  };
}

/**
 * One sentence on a run of `days` planned days.
 * @param {Tally} tally
 * @param {number} days
 */
export function summary(tally, days) {
  const { played, printed, endedOn } = tally;
  const deliveries = plural(played, "delivery", "deliveries");
  if (endedOn !== null) {
    const rest = days - played;
    const notPlayed = rest ? `, so the last ${rest === 1 ? "day is" : `${rest} days are`} not played` : "";
    return (
      `Played ${deliveries}: ${printed} printed. ` +
      `Day ${endedOn} answered 410: the series is over and the subscription ends there${notPlayed}.`
    );
  }
  if (played === 0) return "Nothing played.";
  return `Played ${deliveries}: ${printed} printed, ${played - printed} not printed.`;
}
