// meta.json: reachable, real JSON served as JSON, the spec's fields with the
// spec's types. Later stages depend on what it says, so it also returns the
// flags and the form definition it found.
import { type CheckContext, type Publication, under } from "./context.ts";
import { checkForm } from "./form-checks.ts";
import { bodyText, describeRequest, type Exchange, redirectTarget, request } from "./http.ts";
import { type CheckResult, judge, type Observation, result, resultsFor, skip } from "./report.ts";

const REQUIRED_STRINGS = ["owner_email", "publication_api_version", "name", "description", "delivered_on"] as const;
const FLAGS = ["send_timezone_info", "send_delivery_count", "external_configuration"] as const;
/** The platform's rule for `description` (platform notes: "Printing"). */
const DESCRIPTION_TAGS = new Set(["strong", "em", "br", "a"]);
const AFTER_PARSE = ["meta.strings", "meta.flags", "meta.description", "meta.config", "meta.config-names"] as const;

export interface MetaOutcome {
  checks: CheckResult[];
  /** Present when meta.json could be read as an object at all. */
  publication?: Publication;
}

export async function checkMeta(ctx: CheckContext): Promise<MetaOutcome> {
  ctx.progress("meta.json ...");
  const exchange = await request(under(ctx, "meta.json"), { timeoutMs: ctx.timeoutMs, followSameOrigin: true });
  const reached = reachable(exchange);
  if (reached.status === "fail") {
    const why = "meta.json could not be fetched";
    return {
      checks: [
        reached,
        skip("meta.json", why),
        skip("meta.content-type", why),
        ...AFTER_PARSE.map((id) => skip(id, why)),
      ],
    };
  }
  const parsed = parseJson(exchange);
  if (!parsed.value)
    return {
      checks: [
        reached,
        parsed.check,
        contentType(exchange),
        ...AFTER_PARSE.map((id) => skip(id, "meta.json is not a JSON object")),
      ],
    };
  const meta = parsed.value;
  const req = describeRequest(exchange);
  return {
    checks: [
      reached,
      parsed.check,
      contentType(exchange),
      requiredStrings(meta, req),
      flags(meta, req),
      description(meta, req),
      ...checkForm(meta, req),
    ],
    publication: {
      name: typeof meta.name === "string" ? meta.name : "(unnamed)",
      // A flag that is not a real boolean counts as off; meta.flags says so.
      sendTimezoneInfo: meta.send_timezone_info === true,
      sendDeliveryCount: meta.send_delivery_count === true,
      fields: formFields(meta),
    },
  };
}

function formFields(meta: Record<string, unknown>): unknown[] {
  const config = meta.config as { fields?: unknown } | undefined;
  return config && typeof config === "object" && Array.isArray(config.fields) ? config.fields : [];
}

function reachable(exchange: Exchange): CheckResult {
  const r = resultsFor("meta.reachable", describeRequest(exchange));
  if (exchange.error) return r("fail", `no answer: ${exchange.error}`);
  const to = redirectTarget(exchange);
  if (to && new URL(to).origin !== new URL(exchange.url).origin)
    return r("fail", `redirects to another host (${to}); not followed: give the checker the final URL`);
  if (to) return r("fail", `still redirecting after ${exchange.redirects.length} redirects (${to})`);
  if (exchange.status !== 200) return r("fail", `answered ${exchange.status}, not 200`);
  return r("pass", `answered 200${exchange.redirects.length ? ` (after ${exchange.redirects.join(", ")})` : ""}`);
}

function parseJson(exchange: Exchange): { check: CheckResult; value?: Record<string, unknown> } {
  const r = resultsFor("meta.json", describeRequest(exchange));
  const text = bodyText(exchange);
  if (text.charCodeAt(0) === 0xfeff)
    return { check: r("fail", "starts with a byte-order mark; JSON parsers reject it") };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      check: r("fail", `not valid JSON: ${(error as Error).message}; it starts ${JSON.stringify(text.slice(0, 60))}`),
    };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { check: r("fail", `valid JSON but not an object: ${String(JSON.stringify(value)).slice(0, 60)}`) };
  return { check: r("pass", "parses as a JSON object"), value: value as Record<string, unknown> };
}

function contentType(exchange: Exchange): CheckResult {
  const r = resultsFor("meta.content-type", describeRequest(exchange));
  const type = exchange.headers.get("content-type") ?? "";
  const media = type.split(";")[0]!.trim().toLowerCase();
  if (media === "application/json") return r("pass", `Content-Type: ${type}`);
  if (media.endsWith("/json") || media.endsWith("+json"))
    return r("warn", `Content-Type: ${type}; the platform expects application/json`);
  return r("fail", `Content-Type: ${type || "(none)"}; serve meta.json as application/json`);
}

function requiredStrings(meta: Record<string, unknown>, request: string): CheckResult {
  const observations = REQUIRED_STRINGS.map((key): Observation => {
    const value = meta[key];
    if (value === undefined) return { status: "fail", detail: `"${key}" is missing`, request };
    if (typeof value !== "string")
      return { status: "fail", detail: `"${key}" is ${JSON.stringify(value)}, not a string`, request };
    if (value.trim() === "") return { status: "fail", detail: `"${key}" is empty`, request };
    if (key === "owner_email" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value))
      return {
        status: "warn",
        detail: `"owner_email" ${JSON.stringify(value)} does not look like an e-mail address`,
        request,
      };
    return { status: "pass", detail: `${REQUIRED_STRINGS.join(", ")} are non-empty strings`, request };
  });
  return judge("meta.strings", observations, "");
}

function flags(meta: Record<string, unknown>, request: string): CheckResult {
  const observations = FLAGS.map((key): Observation => {
    const value = meta[key];
    if (typeof value === "boolean") return { status: "pass", detail: `${FLAGS.join(", ")} are booleans`, request };
    if (value === undefined)
      return {
        status: "warn",
        detail: `"${key}" is missing; its default is not in the spec, so this checker treats it as false`,
        request,
      };
    return {
      status: "fail",
      detail: `"${key}" is ${JSON.stringify(value)}, not the JSON boolean true or false (treated as false here)`,
      request,
    };
  });
  return judge("meta.flags", observations, "");
}

function description(meta: Record<string, unknown>, request: string): CheckResult {
  if (typeof meta.description !== "string") return skip("meta.description", "no description text (see meta.strings)");
  const tags = [
    ...new Set([...meta.description.matchAll(/<\s*\/?\s*([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase())),
  ];
  const bad = tags.filter((t) => !DESCRIPTION_TAGS.has(t));
  if (bad.length)
    return result(
      "meta.description",
      "fail",
      `uses <${bad.join(">, <")}>; the platform allows only <strong>, <em>, <br> and <a>`,
      request,
    );
  return result("meta.description", "pass", tags.length ? `tags used: <${tags.join(">, <")}>` : "plain text", request);
}
