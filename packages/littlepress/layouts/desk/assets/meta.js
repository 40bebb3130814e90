// Reads the publication's meta.json, relative to the page, and checks the
// parts the desk relies on. Everything in it is data: it only ever reaches the
// page as text.

/** The page's folder (`/<slug>/`), even when the page was opened without its trailing slash. */
export function pageBase() {
  const url = new URL(location.href);
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/**
 * @typedef {{ type: string, name: string, label: string, options: [string, string][] }} Field
 * @typedef {{
 *   name: string,
 *   send_timezone_info: boolean,
 *   send_delivery_count: boolean,
 *   fields: Field[],
 *   problems: string[]
 * }} Meta
 */

/**
 * @param {URL} base the page's folder
 * @returns {Promise<Meta>}
 */
export async function fetchMeta(base) {
  const url = new URL("meta.json", base);
  const res = await fetch(url, { cache: "no-store" });
  if (!res.ok) throw new Error(`meta.json answered ${res.status}`);
  /** @type {unknown} */
  let raw;
  try {
    raw = await res.json();
  } catch {
    throw new Error("meta.json is not valid JSON");
  }
  if (!isObject(raw)) throw new Error("meta.json is not a JSON object");
  /** @type {string[]} */
  const problems = [];
  /** @param {string} name */
  const flag = (name) => {
    if (typeof raw[name] === "boolean") return raw[name];
    if (raw[name] !== undefined) problems.push(`${name} is ${JSON.stringify(raw[name])}, not true or false`);
    return false;
  };
  /** @type {Field[]} */
  const fields = [];
  const list = isObject(raw.config) && Array.isArray(raw.config.fields) ? raw.config.fields : [];
  for (const f of list) {
    if (!isObject(f) || typeof f.name !== "string" || f.name === "") {
      problems.push("a config field has no name");
      continue;
    }
    const options = Array.isArray(f.options)
      ? f.options
          .filter((o) => Array.isArray(o) && o.length === 2)
          .map((/** @type {unknown[]} */ o) => /** @type {[string, string]} */ ([String(o[0]), String(o[1])]))
      : [];
    fields.push({
      type: typeof f.type === "string" ? f.type : "text",
      name: f.name,
      label: typeof f.label === "string" ? f.label : f.name,
      options,
    });
  }
  return {
    name: typeof raw.name === "string" ? raw.name : "",
    send_timezone_info: flag("send_timezone_info"),
    send_delivery_count: flag("send_delivery_count"),
    fields,
    problems,
  };
}

/**
 * Whether a JSON value is an object (arrays count: their named keys are all undefined).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return Boolean(value) && typeof value === "object";
}
