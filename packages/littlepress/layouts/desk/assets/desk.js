// The desk's publication page: reads meta.json (as the platform does) and
// sets up the subscriber form, the delivery simulator and the print previews.
import { h, replace } from "./dom.js";
import { setupForm } from "./form.js";
import { setupHistory } from "./history.js";
import { fetchMeta, isObject, pageBase } from "./meta.js";
import { showPreviews } from "./previews.js";
import { setupSimulator } from "./simulator.js";

const root = document.querySelector("main[data-slug]");
if (root instanceof HTMLElement) void start(root);

/**
 * Each choice's default, by setting name, from the page (meta.json has none): {} when the page has none.
 * @param {HTMLElement} root
 * @returns {Record<string, string>}
 */
function pageDefaults(root) {
  try {
    /** @type {unknown} */
    const given = JSON.parse(root.dataset.defaults ?? "{}");
    return isObject(given) ? /** @type {Record<string, string>} */ (given) : {};
  } catch {
    return {};
  }
}

/** @param {HTMLElement} root the page's <main>, with the publication's slug */
async function start(root) {
  const slug = root.dataset.slug ?? "";
  const base = pageBase();
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));

  void showPreviews({ section: $("previews"), body: $("previews-body"), hint: $("preview-hint"), base });
  setupHistory({
    body: $("history-body"),
    refresh: /** @type {HTMLButtonElement} */ ($("history-refresh")),
    base,
  });

  let meta;
  try {
    meta = await fetchMeta(base);
  } catch (error) {
    const text = `The desk could not read meta.json: ${error instanceof Error ? error.message : String(error)}.`;
    replace($("settings-slot"), h("p", { class: "notice notice-error", role: "alert" }, text));
    $("sim-form").hidden = true;
    return;
  }
  if (meta.problems.length) {
    $("settings-slot").before(
      h(
        "div",
        { class: "notice notice-error" },
        "meta.json has problems the platform would trip on: ",
        meta.problems.join("; "),
        ".",
      ),
    );
  }
  setupForm({ slot: $("settings-slot"), slug, base, meta, defaults: pageDefaults(root) });
  setupSimulator({ root, slug, base, meta });
  root.dataset.ready = "true";
}
