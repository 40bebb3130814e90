// The delivery simulator: plays a subscription forward one day at a time,
// sending the /edition/ request the platform would send and printing what the
// platform would print. The platform's rules (which request on which day, what
// prints, when the subscription ends) are in deliveries.js; this module reads
// the inputs and shows the days.
import { deliveryDay, newTally, query, record, summary } from "./deliveries.js";
import { code, h, replace } from "./dom.js";
import { loadSettings, SETTINGS_EVENT } from "./settings.js";
import { dateText, isIsoDate, isTimeZone, PAPER_WIDTH_PX, todayIn } from "./model.js";
import { browserTimeZone, timeZones } from "./timezone.js";

/**
 * @typedef {import("./deliveries.js").Answer} Answer
 * @typedef {import("./deliveries.js").Day} Day
 * @typedef {import("./deliveries.js").Plan} Plan
 * @typedef {import("./deliveries.js").Verdict} Verdict
 * @typedef {import("./meta.js").Meta} Meta
 */

export const MAX_DAYS = 60;
/** A later platform server cropped editions taller than this. */
const CROP_HEIGHT = 10000;

/**
 * The simulator's part of the page.
 * @typedef {object} Ui
 * @property {(id: string) => HTMLElement} $ an element of the page by id
 * @property {HTMLFormElement} form
 * @property {HTMLInputElement} start
 * @property {HTMLInputElement} tz
 * @property {HTMLSelectElement} hour
 * @property {HTMLInputElement} count
 * @property {HTMLInputElement} days
 * @property {HTMLElement} status
 * @property {HTMLElement} log
 * @property {HTMLElement} roll
 */

/**
 * The simulator for one publication: what meta.json asks for and where its requests go.
 * @typedef {object} Sim
 * @property {Ui} ui
 * @property {string} slug
 * @property {URL} base
 * @property {Meta} meta
 * @property {() => boolean} current whether this run is still the latest one
 */

/**
 * @param {{ root: HTMLElement, slug: string, base: URL, meta: Meta }} options
 */
export function setupSimulator({ root, slug, base, meta }) {
  const ui = findUi(root);
  showGroups(root, ui, meta);
  if (meta.send_timezone_info) fillTimeInputs(root, ui);

  const settingsBox = ui.$("sim-settings");
  const showSettings = () => replace(settingsBox, settingsSummary(slug, meta));
  showSettings();
  document.addEventListener(SETTINGS_EVENT, showSettings);

  let run = 0;
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const plan = readPlan(ui, slug, meta);
    if (!plan) return;
    const mine = ++run;
    void playAndReport({ ui, slug, base, meta, current: () => mine === run }, plan);
  });
}

/**
 * @param {HTMLElement} root
 * @returns {Ui}
 */
function findUi(root) {
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (root.querySelector(`#${id}`));
  return {
    $,
    form: /** @type {HTMLFormElement} */ ($("sim-form")),
    start: /** @type {HTMLInputElement} */ ($("sim-start")),
    tz: /** @type {HTMLInputElement} */ ($("sim-tz")),
    hour: /** @type {HTMLSelectElement} */ ($("sim-hour")),
    count: /** @type {HTMLInputElement} */ ($("sim-count")),
    days: /** @type {HTMLInputElement} */ ($("sim-days")),
    status: $("sim-status"),
    log: $("sim-days-log"),
    roll: $("roll"),
  };
}

/**
 * Shows the inputs for what meta.json asks for, and says so when it asks for neither.
 * @param {HTMLElement} root
 * @param {Ui} ui
 * @param {Meta} meta
 */
function showGroups(root, ui, meta) {
  const byTime = meta.send_timezone_info;
  const byCount = meta.send_delivery_count;
  for (const group of root.querySelectorAll(".sim-group")) {
    const when = /** @type {HTMLElement} */ (group).dataset.when;
    /** @type {HTMLElement} */ (group).hidden = !((when === "timezone" && byTime) || (when === "count" && byCount));
  }
  if (!byTime && !byCount) {
    ui.form.prepend(
      h(
        "p",
        { class: "notice notice-quiet" },
        "meta.json asks for neither ",
        code("local_delivery_time"),
        " nor ",
        code("delivery_count"),
        ": each request carries only the settings.",
      ),
    );
  }
}

/**
 * The time inputs' choices and first values: this browser's zone, 06:00, a date with an edition.
 * @param {HTMLElement} root
 * @param {Ui} ui
 */
function fillTimeInputs(root, ui) {
  const zone = browserTimeZone();
  ui.tz.value = zone;
  replace(
    ui.$("sim-tz-list"),
    timeZones().map((z) => h("option", { value: z })),
  );
  replace(
    ui.hour,
    Array.from({ length: 24 }, (_, i) => h("option", { value: String(i) }, `${String(i).padStart(2, "0")}:00`)),
  );
  ui.hour.value = "6";
  ui.start.value = defaultStart(root.dataset, zone);
}

/**
 * Reads and checks the inputs; marks the wrong ones.
 * @param {Ui} ui
 * @param {string} slug
 * @param {Meta} meta
 * @returns {Plan | undefined}
 */
function readPlan(ui, slug, meta) {
  const { start, tz, count, days, status } = ui;
  const byTime = meta.send_timezone_info;
  const byCount = meta.send_delivery_count;
  /** @type {HTMLElement[]} */
  const problems = [];
  /**
   * @param {HTMLElement} input
   * @param {string} errorId
   * @param {string | undefined} text
   */
  const mark = (input, errorId, text) => {
    const box = ui.$(errorId);
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
    mark(
      tz,
      "sim-tz-error",
      isTimeZone(zone)
        ? undefined
        : `Time zone: "${zone}" is not a time zone this browser knows; use an IANA name such as Europe/Paris.`,
    );
  }
  let startCount = 0;
  if (byCount) {
    startCount = Number(count.value);
    const whole = count.value !== "" && Number.isSafeInteger(startCount) && startCount >= 0;
    mark(count, "sim-count-error", whole ? undefined : "First delivery_count: a whole number from 0 up.");
  }
  const n = Number(days.value);
  const inRange = Number.isInteger(n) && n >= 1 && n <= MAX_DAYS;
  mark(days, "sim-days-error", inRange ? undefined : `Days to play: a whole number from 1 to ${MAX_DAYS}.`);
  if (problems[0]) {
    status.className = "notice notice-error";
    replace(status, "Some inputs need fixing before the deliveries can play: see the notes beside them.");
    problems[0].focus();
    return undefined;
  }
  return {
    days: n,
    byTime,
    byCount,
    startCount,
    startDate: start.value,
    zone,
    hour: Number(ui.hour.value),
    settings: settingsToSend(slug, meta),
  };
}

/**
 * Clears the last run, plays this one and says how it went (unless a newer run took over).
 * @param {Sim} sim
 * @param {Plan} plan
 */
async function playAndReport(sim, plan) {
  const { log, roll, status } = sim.ui;
  replace(log);
  log.hidden = false;
  replace(roll);
  roll.scrollTop = 0;
  status.className = "notice";
  replace(status, "Playing the deliveries…");
  log.setAttribute("aria-busy", "true");
  try {
    const outcome = await play(sim, plan);
    if (sim.current()) {
      status.className = outcome.ended ? "notice notice-end" : "notice notice-ok";
      replace(status, outcome.summary);
    }
  } finally {
    if (sim.current()) log.removeAttribute("aria-busy");
  }
}

/**
 * Sends one request a day, in order, and shows each answer and each printed edition.
 * @param {Sim} sim
 * @param {Plan} plan
 * @returns {Promise<{ ended: boolean, summary: string }>}
 */
async function play(sim, plan) {
  let tally = newTally();
  for (let i = 0; i < plan.days; i++) {
    if (!sim.current()) break;
    const day = deliveryDay(plan, i);
    const url = new URL(`edition/?${query(day.params)}`, sim.base);
    const answer = await ask(url);
    if (!sim.current()) break;
    const step = record(tally, day, answer);
    tally = step.tally;
    showDay(sim, day, url, answer, step.verdict);
    if (tally.endedOn !== null) {
      showEnd(sim.ui, day);
      return { ended: true, summary: summary(tally, plan.days) };
    }
  }
  if (tally.played > 0 && !tally.printed) {
    sim.ui.roll.prepend(h("p", { class: "roll-empty" }, "Nothing printed on these days."));
  }
  return { ended: false, summary: summary(tally, plan.days) };
}

/**
 * One day in the log, and on the roll its edition or why none printed.
 * @param {Sim} sim
 * @param {Day} day
 * @param {URL} url
 * @param {Answer} answer
 * @param {Verdict} verdict
 */
function showDay(sim, day, url, answer, verdict) {
  const { log, roll } = sim.ui;
  log.append(dayEntry(sim.meta, day, url, answer, verdict));
  if (verdict.prints) roll.append(strip(day, url));
  else if (answer.status !== 410) {
    roll.append(h("p", { class: "roll-note" }, `${dayLabel(sim.meta, day)}: ${verdict.short}`));
  }
}

/**
 * The end of the subscription, in the log and on the roll.
 * @param {Ui} ui
 * @param {Day} day
 */
function showEnd(ui, day) {
  ui.log.append(
    h(
      "li",
      { class: "day day-ended" },
      h(
        "p",
        {},
        h("strong", {}, "The subscription ends here. "),
        "The platform deletes it and tells the subscriber; if they subscribe again, they start from edition 0.",
      ),
    ),
  );
  ui.roll.append(
    h(
      "div",
      { class: "roll-end", role: "note" },
      h("strong", {}, "410 · Series over"),
      h("span", {}, `The subscription ended on day ${day.n}.`),
    ),
  );
}

/**
 * @param {Meta} meta
 * @param {Day} day
 */
function dayLabel(meta, day) {
  if (meta.send_timezone_info) return `Day ${day.n} · ${dateText(day.date)}`;
  return `Day ${day.n}`;
}

/**
 * One line of the log: the request, the answer and whether the paper moves.
 * @param {Meta} meta
 * @param {Day} day
 * @param {URL} url
 * @param {Answer} answer
 * @param {Verdict} verdict
 */
function dayEntry(meta, day, url, answer, verdict) {
  const dataset = {
    day: String(day.n),
    status: String(answer.status ?? "error"),
    prints: verdict.prints ? "yes" : "no",
  };
  return h(
    "li",
    { class: `day day-${verdict.kind}`, dataset },
    dayHead(meta, day, answer, verdict),
    dayFacts(url, answer, verdict),
  );
}

/**
 * The log line's head: the day, when it is, the status and the verdict.
 * @param {Meta} meta
 * @param {Day} day
 * @param {Answer} answer
 * @param {Verdict} verdict
 */
function dayHead(meta, day, answer, verdict) {
  /** @type {(string | HTMLElement)[]} */
  const when = [];
  if (meta.send_timezone_info && day.time) {
    when.push(`${dateText(day.date)}, ${day.time.text.slice(11, 16)} (UTC${day.time.offset})`);
  }
  if (meta.send_delivery_count) when.push(h("span", {}, code("delivery_count"), ` ${day.count}`));
  return h(
    "div",
    { class: "day-head" },
    h("span", { class: "day-n" }, `Day ${day.n}`),
    h(
      "span",
      { class: "day-when" },
      when.map((w, i) => [i ? " · " : "", w]),
    ),
    h(
      "span",
      { class: `badge badge-${badgeClass(answer.status)}` },
      h("span", { class: "visually-hidden" }, "status "),
      answer.status === null ? "none" : String(answer.status),
    ),
    h("span", { class: `verdict verdict-${verdict.kind}` }, verdict.short),
  );
}

/**
 * The log line's facts: the request, the ETag and what happened to the paper.
 * @param {URL} url
 * @param {Answer} answer
 * @param {Verdict} verdict
 */
function dayFacts(url, answer, verdict) {
  const link = h("a", { class: "request-url", href: url.href, target: "_blank", rel: "noopener" }, code(url.href));
  const etag = answer.etag === null ? h("span", { class: "muted" }, "none") : code(answer.etag);
  const reason = answer.reason ? [" ", h("span", { class: "muted" }, "Server: ", answer.reason)] : null;
  return h(
    "dl",
    { class: "day-facts" },
    h("div", {}, h("dt", {}, "Request"), h("dd", {}, "GET ", link)),
    h("div", {}, h("dt", {}, "ETag"), h("dd", { class: "day-etag" }, etag)),
    h("div", {}, h("dt", {}, "Paper"), h("dd", { class: "day-why" }, verdict.why, reason)),
  );
}

/**
 * GETs an edition and keeps what the platform looks at.
 * @param {URL} url
 * @returns {Promise<Answer>}
 */
async function ask(url) {
  try {
    const res = await fetch(url, { cache: "no-store" });
    const answer = {
      status: res.status,
      etag: res.headers.get("ETag"),
      reason: res.headers.get("X-Littlepress-Reason") ?? "",
    };
    await res.arrayBuffer().catch(() => undefined);
    return answer;
  } catch (error) {
    return { status: null, etag: null, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** @param {number | null} status */
const badgeClass = (status) => (status === 200 || status === 204 || status === 410 ? String(status) : "other");

/**
 * A printed edition on the roll: the platform's header line, then the edition 384 px wide.
 * @param {Day} day
 * @param {URL} url
 */
function strip(day, url) {
  const when = day.time ? `${dateText(day.date)} · ${day.time.text.slice(11, 16)}` : `delivery_count ${day.count}`;
  const warnings = h("div", { class: "strip-warnings" });
  const frame = h("iframe", {
    class: "paper-strip",
    src: url.href,
    width: String(PAPER_WIDTH_PX),
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

/**
 * Sizes the strip to its edition's height (same origin, so the document can be read) and flags paper trouble.
 * @param {HTMLIFrameElement} frame
 * @param {HTMLElement} warnings
 */
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
  if (html.scrollWidth > PAPER_WIDTH_PX) {
    notes.push(
      `Wider than the paper: ${html.scrollWidth} px on a ${PAPER_WIDTH_PX} px roll; the printer cuts the rest.`,
    );
  }
  if (height > CROP_HEIGHT) notes.push(`${height} px tall: the platform crops at ${CROP_HEIGHT} px.`);
  replace(
    warnings,
    notes.map((t) => h("p", {}, t)),
  );
}

/**
 * The settings the simulator sends, in form order, from what validate_config accepted.
 * @param {string} slug
 * @param {Meta} meta
 * @returns {[string, string][]}
 */
function settingsToSend(slug, meta) {
  const saved = loadSettings(slug);
  if (!saved) return [];
  /** @type {[string, string][]} */
  const sent = [];
  for (const f of meta.fields) {
    const value = saved.values[f.name];
    if (value !== undefined) sent.push([f.name, value]);
  }
  return sent;
}

/**
 * @param {string} slug
 * @param {Meta} meta
 */
function settingsSummary(slug, meta) {
  if (meta.fields.length === 0) return [h("span", { class: "muted" }, "None: this publication has no settings.")];
  const sent = settingsToSend(slug, meta);
  if (sent.length === 0) {
    return [
      h(
        "span",
        { class: "muted" },
        "None saved yet, so the requests carry none and the publication falls back to its defaults. " +
          "Check and save the form to send yours.",
      ),
    ];
  }
  return [
    sent.map(([k, v], i) => [i ? " " : "", h("code", { class: "chip" }, `${k}=${v}`)]),
    " ",
    h("span", { class: "muted" }, "(accepted by validate_config/, saved in this browser)"),
  ];
}

/**
 * Today if the editions run through today, else the first edition's date.
 * @param {DOMStringMap} data the page's data-first-date and data-last-date
 * @param {string} zone
 */
function defaultStart(data, zone) {
  const today = todayIn(zone);
  const first = data.firstDate ?? "";
  const last = data.lastDate ?? "";
  if (first && (today < first || (last && today > last))) return first;
  return today;
}
