// Subscribing: post the form to validate_config/ the way the platform does
// (form-encoded, one field `config` holding JSON) and read the verdict.
import { type CheckContext, type Publication, under } from "./context.ts";
import { bodyText, describeRequest, type Exchange, request } from "./http.ts";
import type { CheckId } from "./catalogue.ts";
import { type CheckResult, resultsFor, skip } from "./report.ts";
import { invalidConfig, sampleConfigs } from "./sample-config.ts";

type Config = Record<string, string>;

const IDS: CheckId[] = [
  "subscribe.accepts-valid",
  "subscribe.rejects-invalid",
  "subscribe.error-texts",
  "subscribe.empty-config",
  "subscribe.multipart",
];

export interface SubscribeOutcome {
  checks: CheckResult[];
  /** The config deliveries carry: one the publication accepted, else the first tried. */
  config: Config;
}

/** One validate_config answer, read leniently so the checks can say what is wrong. */
interface Verdict {
  exchange: Exchange;
  request: string;
  json?: Record<string, unknown>;
  problem?: string;
}

export async function checkSubscribe(
  ctx: CheckContext,
  publication: Publication,
  overrides: Config,
): Promise<SubscribeOutcome> {
  const fields = publication.fields;
  if (fields.length === 0) {
    const why = "meta.json has no config fields: there is no form to submit";
    return { checks: IDS.map((id) => skip(id, why)), config: {} };
  }
  ctx.progress("validate_config/ ...");
  const accepted = await findAcceptedConfig(ctx, fields, overrides);
  const invalid = invalidConfig(fields, accepted.config);
  const refusal = await post(ctx, invalid.config);
  const empty = await post(ctx, {});
  const multipart = await post(ctx, accepted.config, true);
  return {
    checks: [
      accepted.check,
      rejects(refusal, invalid.hasBadOption),
      errorTexts(refusal),
      survivesEmpty(empty),
      sameAnswer(multipart, accepted.verdict),
    ],
    config: accepted.config,
  };
}

async function findAcceptedConfig(ctx: CheckContext, fields: unknown[], overrides: Config) {
  const first = sampleConfigs(fields, overrides)[0]!;
  let verdict = await post(ctx, first);
  const refusedWith = errorList(verdict);
  const retries = sampleConfigs(fields, overrides, refusedWith).slice(1);
  let config = first;
  for (const next of retries) {
    if (verdict.problem || verdict.json?.valid !== false) break; // only a clean refusal is worth another try
    verdict = await post(ctx, next);
    config = next;
  }
  return { check: accepts(verdict, refusedWith), config: verdict.json?.valid === true ? config : first, verdict };
}

async function post(ctx: CheckContext, config: Config, multipart = false): Promise<Verdict> {
  const json = JSON.stringify(config);
  const body = multipart ? formData(json) : new URLSearchParams({ config: json }).toString();
  const headers = multipart ? undefined : { "Content-Type": "application/x-www-form-urlencoded" };
  const exchange = await request(under(ctx, "validate_config/"), {
    method: "POST",
    body,
    headers,
    timeoutMs: ctx.timeoutMs,
  });
  const req = `${describeRequest(exchange)}${multipart ? " (multipart)" : ""} with config=${json}`;
  if (exchange.error) return { exchange, request: req, problem: `no answer: ${exchange.error}` };
  if (exchange.status >= 500)
    return { exchange, request: req, problem: `crashed: answered ${exchange.status} ${snippet(exchange)}` };
  try {
    const parsed: unknown = JSON.parse(bodyText(exchange));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      return { exchange, request: req, json: parsed as Record<string, unknown> };
  } catch {
    // reported just below, with what came instead
  }
  return {
    exchange,
    request: req,
    problem: `answered ${exchange.status} with something other than a JSON object: ${snippet(exchange)}`,
  };
}

function formData(json: string): FormData {
  const form = new FormData();
  form.set("config", json);
  return form;
}

const snippet = (exchange: Exchange) => JSON.stringify(bodyText(exchange).slice(0, 80));
const errorList = (v: Verdict) =>
  Array.isArray(v.json?.errors) ? v.json.errors.filter((e): e is string => typeof e === "string") : [];

function accepts(v: Verdict, firstErrors: string[]): CheckResult {
  const r = resultsFor("subscribe.accepts-valid", v.request);
  if (v.problem) return r("fail", v.problem);
  const valid = v.json?.valid;
  if (valid === true)
    return r(
      "pass",
      firstErrors.length
        ? `accepted with some text fields empty ("Ada" was refused: ${firstErrors.join("; ")})`
        : "accepted",
    );
  if (valid === false)
    return r(
      "fail",
      `refused every sample config (${errorList(v).join("; ") || "no errors given"}); ` +
        "if the samples are at fault, pass --config name=value",
    );
  return r("fail", `"valid" is ${JSON.stringify(valid)}, not the JSON boolean true`);
}

function rejects(v: Verdict, hasBadOption: boolean): CheckResult {
  const r = resultsFor("subscribe.rejects-invalid", v.request);
  if (v.problem) return r("fail", v.problem);
  const valid = v.json?.valid;
  if (valid === false) return r("pass", "refused");
  // Without a select, the only thing wrong is an unknown key, which the platform never sends.
  if (valid === true && !hasBadOption)
    return r(
      "warn",
      "accepted an unknown setting; harmless from the platform's form, but nothing else here could be tested",
    );
  if (valid === true) return r("fail", "accepted a value that is not among the select's options");
  return r("fail", `"valid" is ${JSON.stringify(valid)}, not the JSON boolean false`);
}

function errorTexts(v: Verdict): CheckResult {
  const r = resultsFor("subscribe.error-texts", v.request);
  if (v.problem || v.json?.valid !== false)
    return skip("subscribe.error-texts", "the invalid config was not refused (see subscribe.rejects-invalid)");
  const errors = v.json.errors;
  if (!Array.isArray(errors) || errors.length === 0)
    return r("fail", `"errors" is ${JSON.stringify(errors)}; the platform shows an array of one or more texts`);
  const bad = errors.findIndex((e) => typeof e !== "string" || e.trim() === "");
  if (bad >= 0)
    return r(
      "fail",
      `errors[${bad}] is ${JSON.stringify(errors[bad])}, not a text; the platform shows each element as a message`,
    );
  return r("pass", `errors: ${errors.join("; ")}`);
}

function survivesEmpty(v: Verdict): CheckResult {
  const r = resultsFor("subscribe.empty-config", v.request);
  if (v.problem) return r("fail", v.problem);
  if (!("valid" in v.json!)) return r("fail", `answer has no "valid": ${snippet(v.exchange)}`);
  return r("pass", `answered ${JSON.stringify(v.json)}`.slice(0, 160));
}

function sameAnswer(v: Verdict, urlencoded: Verdict): CheckResult {
  const r = resultsFor("subscribe.multipart", v.request);
  if (urlencoded.problem)
    return skip("subscribe.multipart", "the form-encoded post already went wrong (see subscribe.accepts-valid)");
  const mine = v.problem ?? JSON.stringify(v.json?.valid);
  const theirs = JSON.stringify(urlencoded.json?.valid);
  if (mine === theirs) return r("pass", `valid: ${mine}, as for the form-encoded post`);
  return r(
    "warn",
    `answered ${v.problem ?? `valid: ${mine}`}, but valid: ${theirs} to the same config form-encoded; ` +
      "the platform was seen sending multipart too",
  );
}
