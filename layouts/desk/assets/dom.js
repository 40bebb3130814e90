// Builds DOM nodes from data safely: text always goes in as text nodes, never
// as HTML. h("p", { class: "x" }, "text", child) -> <p class="x">text…</p>

/**
 * @param {string} tag
 * @param {Record<string, unknown>} [props] attributes; `class`, `text`, `dataset`
 *   and `on<event>` are special; `true` sets an empty attribute, false/null/undefined skip it
 * @param {...(Node|string|number|null|undefined|false|Array<unknown>)} children
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Appends children (nodes, strings as text, nested arrays); skips empty ones. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces all children of `parent`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** `<code>` around a text. */
export const code = (text) => h("code", {}, text);
