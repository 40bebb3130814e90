// The desk's delivery history: each local subscription to this publication
// (made on its subscribe page under npm start) and its deliveries, as the
// delivery runs recorded them: the time, the status, the ETag, printed or not.
import { h, replace } from "./dom.js";

/**
 * @typedef {{ date: string, at: string, localDeliveryTime: string, deliveryCount: number, state: string,
 *   detail: string, status: number | null, etag: string | null, printed: boolean, attempts: number }} Delivery
 * @typedef {{ id: string, printer: string, zone: string, hour: number, created: string, deliveryCount: number,
 *   ended: { at: string, reason: string } | null,
 *   endNotice?: { state: string, at: string, attempts: number, detail: string } | null,
 *   failing?: { days: number, last: string, paused: string | null } | null }} Sub
 * @typedef {{ subscription: Sub, deliveries: Delivery[] }} History
 */

/**
 * Shows the histories in `body`, and again on every click of `refresh`.
 * @param {{ body: HTMLElement, refresh: HTMLButtonElement, base: URL }} options
 */
export function setupHistory({ body, refresh, base }) {
  const show = () => void load(body, base);
  refresh.addEventListener("click", show);
  show();
}

/**
 * @param {HTMLElement} body
 * @param {URL} base
 */
async function load(body, base) {
  body.setAttribute("aria-busy", "true");
  try {
    const res = await fetch(new URL("deliveries/", base), { headers: { Accept: "application/json" } });
    /** @type {unknown} */
    const json = await res.json();
    const data = /** @type {{ subscriptions?: History[], error?: string }} */ (json);
    if (!res.ok || !data.subscriptions) {
      replace(body, h("p", { class: "notice" }, data.error ?? `deliveries/ answered ${res.status}.`));
      return;
    }
    if (!data.subscriptions.length) {
      replace(
        body,
        h("p", { class: "notice notice-quiet" }, "No subscriptions yet: subscribe a printer on the subscribe page."),
      );
      return;
    }
    replace(body, ...data.subscriptions.map(historyOf));
  } catch (error) {
    replace(body, h("p", { class: "notice notice-error" }, `The history could not be read: ${String(error)}.`));
  } finally {
    body.removeAttribute("aria-busy");
  }
}

/** @param {History} history */
function historyOf({ subscription: s, deliveries }) {
  const hour = `${String(s.hour).padStart(2, "0")}:00`;
  const state = s.ended
    ? `ended ${s.ended.at.slice(0, 10)}: ${s.ended.reason}` +
      (s.endNotice
        ? `; end slip ${s.endNotice.state}: ${s.endNotice.detail}` +
          (s.endNotice.attempts > 1 ? ` (${s.endNotice.attempts} tries)` : "")
        : "")
    : s.failing?.paused
      ? `paused since ${s.failing.paused}: the print key failed on ${s.failing.days} delivery days in a row; ` +
        "tried every 7th day until it prints again"
      : "active";
  const head = h(
    "h3",
    {},
    `${s.printer} · ${hour} ${s.zone} · ${s.id} · next delivery_count ${s.deliveryCount} · ${state}`,
  );
  if (!deliveries.length) return h("div", { class: "history" }, head, h("p", {}, "No deliveries yet."));
  const rows = deliveries.map((d) =>
    h(
      "tr",
      { class: d.printed ? "printed" : "" },
      h("td", {}, d.localDeliveryTime),
      h("td", {}, d.at),
      h("td", {}, String(d.deliveryCount)),
      h("td", {}, `${d.state}: ${d.detail}${d.attempts > 1 ? ` (${d.attempts} tries)` : ""}`),
      h("td", {}, d.status === null ? "—" : String(d.status)),
      h("td", {}, h("code", {}, d.etag ?? "—")),
      h("td", {}, d.printed ? "printed" : "not printed"),
    ),
  );
  const heads = ["Delivery", "Last change", "delivery_count", "Status", "edition/", "ETag", "Paper"];
  return h(
    "div",
    { class: "history" },
    head,
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, ...heads.map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ...rows),
    ),
  );
}
