// meta.json: reachable, real JSON served as JSON, the spec's fields with the
// spec's types. Later stages depend on what it says, so it also returns the
// flags and the form definition it found.
import { type CheckContext, type Publication, under } from "./context.ts";
import { bodyText, describeRequest, type Exchange, request } from "./http.ts";
import { type CheckResult, judge, type Observation, skip } from "./report.ts";

const REQUIRED_STRINGS = ["owner_email", "publication_api_version", "name", "description", "delivered_on"] as const;
const FLAGS = ["send_timezone_info", "send_delivery_count", "external_configuration"] as const;
/** The platform's rule for `description` (platform notes: "Printing"). */
const DESCRIPTION_TAGS = new Set(["strong", "em", "br", "a"]);

export interface MetaOutcome {
  checks: CheckResult[];
  publication?: Publication;
}

export async function checkMeta(ctx: CheckContext): Promise<MetaOutcome> {
  ctx.progress("meta.json ...");
  const exchange = await request(under(ctx, "meta.json"), { timeoutMs: ctx.timeoutMs, followSameOrigin: true });
  const reached = reachable(exchange);
  if (reached.status === "fail") {
    const why = "meta.json could not be fetched";
    return { checks: [reached, skip("meta.json", "meta.json is a JSON object", why), skip("meta.content-type", "served as application/json", why), ...skipRest(why)] };
  }
  const parsed = parseJson(exchange);
  if (parsed.check.status === "fail") return { checks: [reached, parsed.check, contentType(exchange), ...skipRest("meta.json is not a JSON object")] };
  const meta = parsed.value as Record<string, unknown>;
  const req = describeRequest(exchange);
  return {
    checks: [reached, parsed.check, contentType(exchange), requiredStrings(meta, req), flags(meta, req), description(meta, req)],
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

function skipRest(reason: string): CheckResult[] {
  return [
    skip("meta.strings", "required text fields", reason),
    skip("meta.flags", "flags are JSON booleans", reason),
    skip("meta.description", "description uses only <strong>, <em>, <br>, <a>", reason),
  ];
}

function reachable(exchange: Exchange): CheckResult {
  const title = "meta.json answers 200";
  const request = describeRequest(exchange);
  if (exchange.error) return { id: "meta.reachable", title, status: "fail", detail: `no answer: ${exchange.error}`, request };
  if (exchange.status >= 300 && exchange.status < 400) {
    const to = exchange.headers.get("location") ?? "nowhere";
    return { id: "meta.reachable", title, status: "fail", detail: `redirects to another host (${to}); not followed: give the checker the final URL`, request };
  }
  if (exchange.status !== 200) return { id: "meta.reachable", title, status: "fail", detail: `answered ${exchange.status}, not 200`, request };
  const via = exchange.redirects.length ? ` (after ${exchange.redirects.join(", ")})` : "";
  return { id: "meta.reachable", title, status: "pass", detail: `answered 200${via}`, request };
}

function parseJson(exchange: Exchange): { check: CheckResult; value?: unknown } {
  const title = "meta.json is a JSON object";
  const request = describeRequest(exchange);
  const text = bodyText(exchange);
  const fail = (detail: string) => ({ check: { id: "meta.json", title, status: "fail" as const, detail, request } });
  if (text.charCodeAt(0) === 0xfeff) return fail("starts with a byte-order mark; JSON parsers reject it");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON: ${(error as Error).message}; it starts ${JSON.stringify(text.slice(0, 60))}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return fail(`valid JSON but not an object: ${JSON.stringify(value)?.slice(0, 60)}`);
  return { check: { id: "meta.json", title, status: "pass", detail: "parses as a JSON object", request }, value };
}

function contentType(exchange: Exchange): CheckResult {
  const type = exchange.headers.get("content-type") ?? "";
  const media = type.split(";")[0]!.trim().toLowerCase();
  const o: Observation =
    media === "application/json" ? { status: "pass", detail: `Content-Type: ${type}` }
    : media.endsWith("/json") || media.endsWith("+json") ? { status: "warn", detail: `Content-Type: ${type}; the platform expects application/json` }
    : { status: "fail", detail: `Content-Type: ${type || "(none)"}; serve meta.json as application/json` };
  return judge("meta.content-type", "served as application/json", [{ ...o, request: describeRequest(exchange) }], "");
}

function requiredStrings(meta: Record<string, unknown>, request: string): CheckResult {
  const observations: Observation[] = REQUIRED_STRINGS.map((key): Observation => {
    const value = meta[key];
    if (value === undefined) return { status: "fail", detail: `"${key}" is missing`, request };
    if (typeof value !== "string") return { status: "fail", detail: `"${key}" is ${JSON.stringify(value)}, not a string`, request };
    if (value.trim() === "") return { status: "fail", detail: `"${key}" is empty`, request };
    if (key === "owner_email" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return { status: "warn", detail: `"owner_email" ${JSON.stringify(value)} does not look like an e-mail address`, request };
    return { status: "pass", detail: `${REQUIRED_STRINGS.join(", ")} are non-empty strings`, request };
  });
  return judge("meta.strings", "required text fields", observations, "");
}

function flags(meta: Record<string, unknown>, request: string): CheckResult {
  const observations = FLAGS.map((key): Observation => {
    const value = meta[key];
    if (typeof value === "boolean") return { status: "pass", detail: `${FLAGS.join(", ")} are booleans`, request };
    if (value === undefined) return { status: "warn", detail: `"${key}" is missing; its default is not in the spec, so this checker treats it as false`, request };
    return { status: "fail", detail: `"${key}" is ${JSON.stringify(value)}, not the JSON boolean true or false (treated as false here)`, request };
  });
  return judge("meta.flags", "flags are JSON booleans", observations, "");
}

function description(meta: Record<string, unknown>, request: string): CheckResult {
  const title = "description uses only <strong>, <em>, <br>, <a>";
  if (typeof meta.description !== "string") return skip("meta.description", title, "no description text (see meta.strings)");
  const tags = [...meta.description.matchAll(/<\s*\/?\s*([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
  const bad = [...new Set(tags.filter((t) => !DESCRIPTION_TAGS.has(t)))];
  if (bad.length) return { id: "meta.description", title, status: "fail", detail: `uses <${bad.join(">, <")}>; the platform allows only <strong>, <em>, <br> and <a>`, request };
  return { id: "meta.description", title, status: "pass", detail: tags.length ? `tags used: <${[...new Set(tags)].join(">, <")}>` : "plain text", request };
}
