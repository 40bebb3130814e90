// The subscriber's accepted settings, kept in localStorage per publication so
// the simulator sends them (as the platform stores them after validate_config
// says valid: true).
import { isObject } from "./meta.js";

/** @param {string} slug */
const KEY = (slug) => `littlepress-desk:${slug}:settings`;
export const SETTINGS_EVENT = "desk:settings";

/**
 * Values kept when storage fails (private windows), for this page view.
 * @type {Map<string, string>}
 */
const memory = new Map();

/**
 * @param {string} slug
 * @returns {{ values: Record<string, string>, savedAt: string } | null}
 */
export function loadSettings(slug) {
  /** @type {string | null} */
  let raw;
  try {
    raw = localStorage.getItem(KEY(slug));
  } catch {
    raw = memory.get(slug) ?? null;
  }
  if (!raw) return null;
  try {
    const data = /** @type {unknown} */ (JSON.parse(raw));
    if (!isObject(data) || !isObject(data.values)) return null;
    /** @type {Record<string, string>} */
    const values = {};
    for (const [k, v] of Object.entries(data.values)) if (typeof v === "string") values[k] = v;
    return { values, savedAt: typeof data.savedAt === "string" ? data.savedAt : "" };
  } catch {
    return null;
  }
}

/**
 * Stores the values and tells the page. Returns false when the browser would
 * not store them (they are kept for this page view only).
 * @param {string} slug
 * @param {Record<string, string>} values
 */
export function saveSettings(slug, values) {
  const raw = JSON.stringify({ values, savedAt: new Date().toISOString() });
  let stored = true;
  try {
    localStorage.setItem(KEY(slug), raw);
  } catch {
    memory.set(slug, raw);
    stored = false;
  }
  document.dispatchEvent(new CustomEvent(SETTINGS_EVENT, { detail: { slug } }));
  return stored;
}
