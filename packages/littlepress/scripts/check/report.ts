// The report: one result per named check, and the helpers that turn many
// observations (one per request) into that one result.
import { CHECKS, type CheckId } from "./catalogue.ts";
import { UNANSWERED } from "./http.ts";
import { shownText } from "../../lib/model/printer-name.ts";
import { plural } from "../../lib/model/words.ts";

export type Status = "pass" | "warn" | "fail" | "skip";

export interface CheckResult {
  /** Stable name, e.g. "edition.etag-quoted"; the prefix is the section. */
  id: string;
  title: string;
  status: Status;
  detail: string;
  /** The request that showed the result: "GET http://...". */
  request?: string;
}

export interface Report {
  base: string;
  publication?: { name: string; sendTimezoneInfo: boolean; sendDeliveryCount: boolean; fields: number };
  plan: { start: string; days: number; hour: number; zones: string[]; strict: boolean };
  checks: CheckResult[];
  counts: Record<Status, number>;
  ok: boolean;
}

/** What one request (or one field) showed about a check. */
export interface Observation {
  status: Exclude<Status, "skip">;
  detail: string;
  request?: string;
}

const RANK: Record<Status, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };

/**
 * Folds observations into one result: the worst one speaks, with a count of
 * how many requests agreed, so a long run gives one line, not fourteen.
 * No observations at all means the check could not be exercised: SKIP.
 */
export function judge(id: CheckId, observations: Observation[], skipReason: string): CheckResult {
  if (observations.length === 0) return skip(id, skipReason);
  let worst = observations[0]!;
  for (const o of observations) if (RANK[o.status] > RANK[worst.status]) worst = o;
  const same = observations.filter((o) => o.status === worst.status).length;
  const tally = observations.length > 1 ? ` (${same} of ${observations.length})` : "";
  return result(id, worst.status, worst.detail + tally, worst.request);
}

export function result(id: CheckId, status: Status, detail: string, request?: string): CheckResult {
  return { id, title: CHECKS[id], status, detail, ...(request ? { request } : {}) };
}

export const skip = (id: CheckId, detail: string): CheckResult => result(id, "skip", detail);

/** A maker of results for one check, tied to the request that shows them. */
export const resultsFor = (id: CheckId, request?: string) => (status: Status, detail: string) =>
  result(id, status, detail, request);

/** Counts, and --strict: a warning there is a failure, marked as such. */
export function finish(
  base: string,
  plan: Report["plan"],
  checks: CheckResult[],
  publication?: Report["publication"],
): Report {
  const final = plan.strict
    ? checks.map((c) =>
        c.status === "warn"
          ? { ...c, status: "fail" as const, detail: `${c.detail} [warning, failed by --strict]` }
          : c,
      )
    : checks;
  const counts: Record<Status, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const c of final) counts[c.status]++;
  return { base, publication, plan, checks: final, counts, ok: counts.fail === 0 };
}

const SECTIONS: Record<string, string> = {
  meta: "meta.json and icon",
  subscribe: "Subscribing (validate_config)",
  edition: "Delivering (edition)",
};

export function formatReport(report: Report): string {
  // The publication chose its name and much of each detail (its headers, its bodies): each shown as one clean line.
  const lines = [`littlepress check: ${shownText(report.base)}`];
  const p = report.publication;
  if (p) {
    const flags =
      `delivery_count ${p.sendDeliveryCount ? "on" : "off"}, ` +
      `local_delivery_time ${p.sendTimezoneInfo ? "on" : "off"}`;
    lines.push(`publication: ${shownText(p.name)} (${flags}; ${plural(p.fields, "config field")})`);
  }
  const { plan } = report;
  const zones = p && !p.sendTimezoneInfo ? "any zone (no local_delivery_time is sent)" : plan.zones.join(", ");
  lines.push(
    `deliveries: ${plan.days} days from ${plan.start} at ${String(plan.hour).padStart(2, "0")}:00 in ${zones}` +
      (plan.strict ? " (strict)" : ""),
  );
  let section = "";
  for (const check of report.checks) {
    const prefix = check.id.split(".")[0] ?? "";
    if (prefix !== section) lines.push("", SECTIONS[prefix] ?? prefix);
    section = prefix;
    lines.push(
      `  ${check.status.toUpperCase().padEnd(4)}  ${check.id}: ${check.title}`,
      `        ${shownText(check.detail)}`,
    );
    if (check.request) lines.push(`        ${shownText(check.request)}`);
  }
  const c = report.counts;
  lines.push(
    "",
    `${report.ok ? "OK" : "NOT READY"}: ${c.pass} passed, ` +
      `${plural(c.warn, "warning")}, ${c.fail} failed, ${c.skip} skipped`,
    ...slowHint(report),
  );
  return lines.join("\n") + "\n";
}

/**
 * When a failure is a request that ran out of time, how to tell a slow machine from a publication that hangs:
 * a local stand-in can be slow where a deploy is not (netlify serve starts each function anew for every request).
 */
function slowHint(report: Report): string[] {
  if (!report.checks.some((c) => c.status === "fail" && UNANSWERED.test(c.detail))) return [];
  return [
    "Some requests had no answer in time. If the server is only slow here (a busy machine, or netlify serve, " +
      "which starts each function anew), give it longer with --timeout SECONDS: netlify-cli gives a function 30.",
  ];
}

/**
 * The report as JSON for a terminal or a log: JSON.stringify escapes the C0 controls, and this the rest that a
 * terminal or a log reads as more than text (DEL, the C1 controls, the line and paragraph separators, the bidi
 * and other format characters), as \\u escapes: the data is unchanged, the output is inert.
 */
export function reportJson(report: Report): string {
  return JSON.stringify(report, null, 2).replace(/[\u007f-\u009f\u2028\u2029\p{Cf}]/gu, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  );
}
