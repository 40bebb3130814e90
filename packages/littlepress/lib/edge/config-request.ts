import { CUT_SHORT, MAX_CONFIG_KEYS, MAX_JSON_DEPTH, jsonDepth, readLimited } from "./request-limits.ts";

/** The largest /validate_config/ body accepted (and subscribe form); a settings form is a few hundred bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** A submitted config read from a request, or why it could not be read (a JSON error answer). */
export type ConfigRequest = { config: Record<string, unknown> } | { error: string; status: 400 | 413 };

const NO_CONFIG =
  'The request has no "config": send a form field named config holding a JSON object, such as {"lang": "en"}.';
const DEEP = `The JSON nests deeper than ${MAX_JSON_DEPTH} levels; a config is one object of texts.`;
const NOT_OBJECT = 'The "config" field must hold a JSON object, such as {"lang": "en"}.';

/**
 * Reads `config` the ways the platform and people send it: a url-encoded or
 * multipart form field holding JSON text, or a JSON body {"config": {...}}.
 */
export async function readConfigRequest(req: Request): Promise<ConfigRequest> {
  const body = await readLimited(req, MAX_BODY_BYTES);
  if (body === undefined)
    return { error: `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`, status: 413 };
  if (body === CUT_SHORT)
    return { error: "The request body was cut short: the client stopped sending it.", status: 400 };
  const field = await configField(body, req.headers.get("content-type") ?? "");
  if ("error" in field) return field;
  let config = field.value;
  if (config === undefined || config === null || config === "") return { error: NO_CONFIG, status: 400 };
  if (typeof config === "string") {
    config = parseJson(config);
    if (config === TOO_DEEP) return { error: DEEP, status: 400 };
    if (config === INVALID) return { error: 'The "config" field is not valid JSON.', status: 400 };
  }
  if (!isObject(config)) return { error: NOT_OBJECT, status: 400 };
  if (Object.keys(config).length > MAX_CONFIG_KEYS)
    return { error: `The config has more than ${MAX_CONFIG_KEYS} settings.`, status: 400 };
  return { config };
}

/** The body's `config`, as sent (a form field's text, or a JSON body's value), or why the body cannot be read. */
async function configField(
  body: Uint8Array<ArrayBuffer>,
  header: string,
): Promise<{ value: unknown } | { error: string; status: 400 }> {
  const type = header.toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      // The boundary is case-sensitive: parse with the header as sent.
      form = await new Response(body, { headers: { "content-type": header } }).formData();
    } catch {
      return { error: "The multipart form could not be read; it may be cut short.", status: 400 };
    }
    const field = form.get("config");
    return { value: typeof field === "string" ? field : field ? await field.text() : undefined };
  }
  const text = new TextDecoder().decode(body);
  const json = type.startsWith("application/json") || (!type.includes("form") && text.trimStart().startsWith("{"));
  if (!json) return { value: new URLSearchParams(text).get("config") ?? undefined };
  const parsed = parseJson(text);
  if (parsed === TOO_DEEP) return { error: DEEP, status: 400 };
  if (parsed === INVALID) return { error: "The request body is not valid JSON.", status: 400 };
  return { value: isObject(parsed) && Object.hasOwn(parsed, "config") ? parsed.config : undefined };
}

const INVALID = Symbol("invalid JSON");
const TOO_DEEP = Symbol("too deep");

function parseJson(text: string): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) return TOO_DEEP;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID; // also catches nesting deep enough to overflow the parser
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
