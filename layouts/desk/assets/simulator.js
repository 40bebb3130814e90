// The delivery simulator: plays a subscription forward one day at a time,
// sending the /edition/ request the platform would send and printing what the
// platform would print. Per the spec: 200 prints when its ETag differs from
// the last one seen; 204 prints nothing; 410 ends the subscription.
// delivery_count goes up by one every day, printed or not.
import { code, h, replace } from "./dom.js";
import { loadSettings, SETTINGS_EVENT } from "./settings.js";
import { addDays, browserTimeZone, dateText, isIsoDate, isTimeZone, localDeliveryTime, timeZones, todayIn } from "./timezone.js";

export const MAX_DAYS = 60;
const PAPER_WIDTH = 384;
/** A later platform server cropped editions taller than this. */
const CROP_HEIGHT = 10000;

/**
 * @param {{ root: HTMLElement, slug: string, base: URL, meta: import("./meta.js").Meta }} options
 */
export function setupSimulator({ root, slug, base, meta }) {
  const $ = (id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  const form = /** @type {HTMLFormElement} */ ($("sim-form"));
  const start = /** @type {HTMLInputElement} */ ($("sim-start"));
  const tz = /** @type {HTMLInputElement} */ ($("sim-tz"));
  const hour = /** @type {HTMLSelectElement} */ ($("sim-hour"));
  const count = /** @type {HTMLInputElement} */ ($("sim-count"));
  const days = /** @type {HTMLInputElement} */ ($("sim-days"));
  const status = $("sim-status");
  const log = $("sim-days-log");
  const roll = $("roll");
  const settingsBox = $("sim-settings");

  const byTime = meta.send_timezone_info;
  const byCount = meta.send_delivery_count;
  for (const group of root.querySelectorAll(".sim-group")) {
    const when = /** @type {HTMLElement} */ (group).dataset.when;
    /** @type {HTMLElement} */ (group).hidden = !((when === "timezone" && byTime) || (when === "count" && byCount));
  }
  if (!byTime && !byCount) {
    form.prepend(h("p", { class: "notice notice-quiet" }, "meta.json asks for neither ", code("local_delivery_time"), " nor ", code("delivery_count"), ": each request carries only the settings."));
  }

  if (byTime) {
    const zone = browserTimeZone();
    tz.value = zone;
    replace($("sim-tz-list"), timeZones().map((z) => h("option", { value: z })));
    replace(hour, Array.from({ length: 24 }, (_, i) => h("option", { value: String(i) }, `${String(i).padStart(2, "0")}:00`)));
    hour.value = "6";
    start.value = defaultStart(root.dataset, zone);
  }

  const showSettings = () => replace(settingsBox, settingsSummary(slug, meta));
  showSettings();
  document.addEventListener(SETTINGS_EVENT, showSettings);

  let run = 0;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const plan = readPlan();
    if (!plan) return;
    const mine = ++run;
    replace(log);
    log.hidden = false;
    replace(roll);
    roll.scrollTop = 0;
    status.className = "notice";
    replace(status, "Playing the deliveries…");
    log.setAttribute("aria-busy", "true");
    try {
      const outcome = await play(plan, () => mine === run);
      if (mine === run) {
        status.className = outcome.ended ? "notice notice-end" : "notice notice-ok";
        replace(status, outcome.summary);
      }
    } finally {
      if (mine === run) log.removeAttribute("aria-busy");
    }
  });

  /** Reads and checks the inputs; marks the wrong ones. */
  function readPlan() {
    const problems = [];
    const mark = (input, errorId, text) => {
      const box = $(errorId);
      box.textContent = text ?? "";
      box.hidden = !text;
      if (text) {
        input.setAttribute("aria-invalid", "true");
        problems.push(input);
      } else input.removeAttribute("aria-invalid");
    };
    // in the order of the page, so the focus goes to the first wrong one
    const zone = tz.value.trim();
    if (byTime) {
      mark(start, "sim-start-error", isIsoDate(start.value) ? undefined : "First delivery date: choose a date.");
      mark(tz, "sim-tz-error", isTimeZone(zone) ? undefined : `Time zone: "${zone}" is not a time zone this browser knows; use an IANA name such as Europe/Paris.`);
    }
    let startCount = 0;
    if (byCount) {
      startCount = Number(count.value);
      mark(count, "sim-count-error", count.value !== "" && Number.isSafeInteger(startCount) && startCount >= 0 ? undefined : "First delivery_count: a whole number from 0 up.");
    }
    const n = Number(days.value);
    mark(days, "sim-days-error", Number.isInteger(n) && n >= 1 && n <= MAX_DAYS ? undefined : `Days to play: a whole number from 1 to ${MAX_DAYS}.`);
    if (problems.length) {
      status.className = "notice notice-error";
      replace(status, "Some inputs need fixing before the deliveries can play: see the notes beside them.");
      problems[0].focus();
      return undefined;
    }
    return {
      days: n,
      startCount,
      startDate: start.value,
      zone,
      hour: Number(hour.value),
      settings: settingsToSend(slug, meta),
    };
  }

  /** Sends one request a day, in order, and shows each answer and each printed edition. */
  async function play(plan, current) {
    let lastEtag = null;
    let printed = 0;
    let played = 0;
    for (let i = 0; i < plan.days; i++) {
      if (!current()) break;
      const day = { n: i + 1, count: plan.startCount + i, date: "", time: undefined };
      const params = [];
      if (byTime) {
        day.date = addDays(plan.startDate, i);
        day.time = localDeliveryTime(day.date, plan.hour, plan.zone);
        params.push(["local_delivery_time", day.time.text]);
      }
      if (byCount) params.push(["delivery_count", String(day.count)]);
      params.push(...plan.settings);
      const url = new URL(`edition/?${query(params)}`, base);
      const answer = await ask(url);
      if (!current()) break;
      played++;

      const verdict = judge(answer, lastEtag);
      if (answer.status === 200 && answer.etag !== null) lastEtag = answer.etag;
      if (verdict.prints) printed++;
      log.append(dayEntry(day, url, answer, verdict));
      if (verdict.prints) roll.append(strip(day, url));
      else if (answer.status !== 410) roll.append(h("p", { class: "roll-note" }, `${dayLabel(day)}: ${verdict.short}`));
      if (answer.status === 410) {
        log.append(h("li", { class: "day day-ended" }, h("p", {}, h("strong", {}, "The subscription ends here. "), "The platform deletes it and tells the subscriber; if they subscribe again, they start from edition 0.")));
        roll.append(h("div", { class: "roll-end", role: "note" }, h("strong", {}, "410 · Series over"), h("span", {}, `The subscription ended on day ${day.n}.`)));
        const rest = plan.days - played;
        return {
          ended: true,
          summary: `Played ${played} ${played === 1 ? "delivery" : "deliveries"}: ${printed} printed. Day ${day.n} answered 410: the series is over and the subscription ends there${rest ? `, so the last ${rest === 1 ? "day is" : `${rest} days are`} not played` : ""}.`,
        };
      }
    }
    if (played === 0) return { ended: false, summary: "Nothing played." };
    if (!printed) roll.prepend(h("p", { class: "roll-empty" }, "Nothing printed on these days."));
    return { ended: false, summary: `Played ${played} ${played === 1 ? "delivery" : "deliveries"}: ${printed} printed, ${played - printed} not printed.` };
  }

  function dayLabel(day) {
    if (byTime) return `Day ${day.n} · ${dateText(day.date)}`;
    return `Day ${day.n}`;
  }

  /** One line of the log: the request, the answer and whether the paper moves. */
  function dayEntry(day, url, answer, verdict) {
    const when = [];
    if (byTime) when.push(`${dateText(day.date)}, ${day.time.text.slice(11, 16)} (UTC${day.time.offset})`);
    if (byCount) when.push(h("span", {}, code("delivery_count"), ` ${day.count}`));
    return h(
      "li",
      { class: `day day-${verdict.kind}`, dataset: { day: String(day.n), status: String(answer.status ?? "error"), prints: verdict.prints ? "yes" : "no" } },
      h(
        "div",
        { class: "day-head" },
        h("span", { class: "day-n" }, `Day ${day.n}`),
        h("span", { class: "day-when" }, when.map((w, i) => [i ? " · " : "", w])),
        h("span", { class: `badge badge-${badgeClass(answer.status)}` }, h("span", { class: "visually-hidden" }, "status "), answer.status === null ? "none" : String(answer.status)),
        h("span", { class: `verdict verdict-${verdict.kind}` }, verdict.short),
      ),
      h(
        "dl",
        { class: "day-facts" },
        h("div", {}, h("dt", {}, "Request"), h("dd", {}, "GET ", h("a", { class: "request-url", href: url.href, target: "_blank", rel: "noopener" }, code(url.href)))),
        h("div", {}, h("dt", {}, "ETag"), h("dd", { class: "day-etag" }, answer.etag === null ? h("span", { class: "muted" }, "none") : code(answer.etag))),
        h("div", {}, h("dt", {}, "Paper"), h("dd", { class: "day-why" }, verdict.why, answer.reason ? [" ", h("span", { class: "muted" }, "Server: ", answer.reason)] : null)),
      ),
    );
  }
}

/** The request's query string, percent-encoded, with the harmless `:` and `,` left readable. */
function query(params) {
  return params
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join("&");
}
const enc = (s) => encodeURIComponent(s).replace(/%3A/gi, ":").replace(/%2C/gi, ",");

/** GETs an edition and keeps what the platform looks at. */
async function ask(url) {
  try {
    const res = await fetch(url, { cache: "no-store" });
    const answer = { status: res.status, etag: res.headers.get("ETag"), reason: res.headers.get("X-Littlepress-Reason") ?? "" };
    await res.arrayBuffer().catch(() => undefined);
    return answer;
  } catch (error) {
    return { status: null, etag: null, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** What the platform does with an answer, given the last ETag it saw. */
function judge(answer, lastEtag) {
  switch (answer.status) {
    case 200:
      if (answer.etag === null) return { kind: "warn", prints: true, short: "Prints (no ETag!)", why: "Printed here, but the spec requires an ETag on every 200: without one the platform cannot tell new content from old." };
      if (lastEtag === null) return { kind: "print", prints: true, short: "Prints", why: "Printed: the first ETag this subscription has seen." };
      if (answer.etag !== lastEtag) return { kind: "print", prints: true, short: "Prints", why: "Printed: the ETag differs from the last one seen." };
      return { kind: "same", prints: false, short: "Not printed: same ETag", why: "Not printed: the ETag is the same as the last one seen, so the platform treats the content as unchanged." };
    case 204:
      return { kind: "none", prints: false, short: "Nothing to print", why: "Nothing printed: 204 means nothing for this subscriber today. The subscription stays." };
    case 410:
      return { kind: "end", prints: false, short: "Subscription ends", why: "The series has ended for this subscriber: the platform deletes the subscription." };
    case null:
      return { kind: "error", prints: false, short: "No answer", why: "The request failed." };
    default:
      return { kind: "error", prints: false, short: "Not a spec status", why: `The spec allows only 200, 204 and 410 from edition/; what the platform does with ${answer.status} is not defined.` };
  }
}

const badgeClass = (status) => (status === 200 || status === 204 || status === 410 ? String(status) : "other");

/** A printed edition on the roll: the platform's header line, then the edition 384 px wide. */
function strip(day, url) {
  const when = day.time ? `${dateText(day.date)} · ${day.time.text.slice(11, 16)}` : `delivery_count ${day.count}`;
  const warnings = h("div", { class: "strip-warnings" });
  const frame = h("iframe", {
    class: "paper-strip",
    src: url.href,
    width: String(PAPER_WIDTH),
    height: "120",
    scrolling: "no",
    tabindex: "-1",
    title: `Edition printed on day ${day.n} (${when})`,
    dataset: { day: String(day.n) },
  });
  frame.addEventListener("load", () => fit(frame, warnings));
  return h(
    "figure",
    { class: "strip", dataset: { day: String(day.n) } },
    h("figcaption", { class: "strip-header" }, h("span", {}, `Day ${day.n}`), h("span", {}, when)),
    frame,
    warnings,
  );
}

/** Sizes the strip to its edition's height (same origin, so the document can be read) and flags paper trouble. */
function fit(frame, warnings) {
  let doc;
  try {
    doc = frame.contentDocument;
  } catch {
    return;
  }
  if (!doc || !doc.documentElement) return;
  const html = doc.documentElement;
  const height = Math.ceil(Math.max(html.getBoundingClientRect().height, doc.body ? doc.body.scrollHeight : 0));
  frame.style.height = `${Math.max(height, 1)}px`;
  frame.dataset.fitted = String(height);
  const notes = [];
  if (html.scrollWidth > PAPER_WIDTH) notes.push(`Wider than the paper: ${html.scrollWidth} px on a ${PAPER_WIDTH} px roll; the printer cuts the rest.`);
  if (height > CROP_HEIGHT) notes.push(`${height} px tall: the platform crops at ${CROP_HEIGHT} px.`);
  replace(warnings, notes.map((t) => h("p", {}, t)));
}

/** The settings the simulator sends, in form order, from what validate_config accepted. */
function settingsToSend(slug, meta) {
  const saved = loadSettings(slug);
  if (!saved) return [];
  return meta.fields.filter((f) => saved.values[f.name] !== undefined).map((f) => [f.name, saved.values[f.name]]);
}

function settingsSummary(slug, meta) {
  if (meta.fields.length === 0) return [h("span", { class: "muted" }, "None: this publication has no settings.")];
  const sent = settingsToSend(slug, meta);
  if (sent.length === 0) {
    return [h("span", { class: "muted" }, "None saved yet, so the requests carry none and the publication falls back to its defaults. Check and save the form to send yours.")];
  }
  return [sent.map(([k, v], i) => [i ? " " : "", h("code", { class: "chip" }, `${k}=${v}`)]), " ", h("span", { class: "muted" }, "(accepted by validate_config/, saved in this browser)")];
}

/** Today if the editions run through today, else the first edition's date. */
function defaultStart(data, zone) {
  const today = todayIn(zone);
  const first = data.firstDate ?? "";
  const last = data.lastDate ?? "";
  if (first && (today < first || (last && today > last))) return first;
  return today;
}
