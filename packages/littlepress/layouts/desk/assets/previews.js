// Print previews, when `npm run preview` has made them: preview/index.json
// beside the page lists the PNGs. A 404 means there are none yet.
import { code, h, replace } from "./dom.js";
import { isObject } from "./meta.js";
import { PAPER_WIDTH_PX, plural } from "./model.js";

/**
 * @param {{ section: HTMLElement, body: HTMLElement, hint: HTMLElement, base: URL }} options
 */
export async function showPreviews({ section, body, hint, base }) {
  const folder = new URL("preview/", base);
  /** @type {unknown} */
  let index;
  try {
    const res = await fetch(new URL("index.json", folder), { cache: "no-store" });
    if (!res.ok) {
      hint.hidden = false;
      return;
    }
    index = await res.json();
  } catch {
    hint.hidden = false;
    return;
  }
  const found = isObject(index) ? index : {};
  /** @type {Record<string, unknown>[]} */
  const editions = Array.isArray(found.editions) ? found.editions.filter(isObject) : [];
  /** @type {HTMLElement[]} */
  const figures = [];
  for (const e of editions) {
    const src = inside(folder, e.file);
    if (!src) continue;
    const key = typeof e.key === "string" || typeof e.key === "number" ? String(e.key) : "";
    /** @type {string[]} */
    const facts = [];
    if (typeof e.heightPx === "number" && Number.isFinite(e.heightPx)) facts.push(`${e.heightPx} px`);
    if (typeof e.heightMm === "number" && Number.isFinite(e.heightMm)) facts.push(`${e.heightMm} mm of paper`);
    figures.push(
      h(
        "li",
        { class: `preview${e.tooLong === true ? " preview-long" : ""}` },
        h(
          "figure",
          {},
          h(
            "figcaption",
            {},
            h("span", { class: "preview-key" }, "Edition ", code(key)),
            facts.length ? h("span", { class: "muted" }, facts.join(" · ")) : null,
            e.tooLong === true ? h("span", { class: "tag tag-ends" }, "too long") : null,
          ),
          h("img", {
            src: src.href,
            alt: `Print preview of edition ${key}`,
            width: String(PAPER_WIDTH_PX),
            loading: "lazy",
            decoding: "async",
          }),
        ),
      ),
    );
  }
  const sheet = inside(folder, found.contactSheet);
  if (!figures.length && !sheet) {
    hint.hidden = false;
    return;
  }
  const long = editions.filter((e) => e.tooLong === true).length;
  replace(
    body,
    h(
      "p",
      { class: "panel-lede" },
      `What the printer will print, in black and white, from `,
      code("npm run preview"),
      `: ${plural(figures.length, "edition")}`,
      long ? `, ${long} of them longer than a receipt should be` : "",
      ".",
    ),
    figures.length
      ? h(
          "ul",
          {
            class: "preview-list",
            role: "list",
            tabindex: "0",
            "aria-label": "Print previews, one per edition (scrolls sideways)",
          },
          figures,
        )
      : null,
    sheet
      ? h(
          "details",
          { class: "contact-sheet" },
          h("summary", {}, "Contact sheet: every edition at a glance"),
          h(
            "a",
            { href: sheet.href },
            h("img", { src: sheet.href, alt: "Contact sheet of every edition's print preview", loading: "lazy" }),
          ),
        )
      : null,
  );
  section.hidden = false;
}

/**
 * A file name from index.json as a URL in the preview folder, or undefined if it points anywhere else.
 * @param {URL} folder
 * @param {unknown} file
 */
function inside(folder, file) {
  if (typeof file !== "string" || file === "") return undefined;
  try {
    const url = new URL(file, folder);
    return url.origin === folder.origin && url.pathname.startsWith(folder.pathname) ? url : undefined;
  } catch {
    return undefined;
  }
}
