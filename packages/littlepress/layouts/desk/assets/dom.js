// Builds DOM nodes from data safely: text always goes in as text nodes, never
// as HTML. h("p", { class: "x" }, "text", child) -> <p class="x">text…</p>

/**
 * A child for h(), append() and replace(): a node, a text, or a nested list of them.
 * @typedef {Node | string | number | null | undefined | false | ChildList} Child
 * @typedef {Array<Child>} ChildList
 */

/**
 * Attributes for h(): `class`, `text`, `dataset` and `on<event>` are special;
 * `true` sets an empty attribute, false/null/undefined skip it.
 * @typedef {{
 *   [name: string]: string | number | boolean | null | undefined | Record<string, string> | EventListener
 * }} Props
 */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "object") {
      if (key === "dataset") Object.assign(el.dataset, value);
    } else if (typeof value === "function") {
      if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    } else if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * Appends children (nodes, strings as text, nested arrays); skips empty ones.
 * @template {ParentNode} P
 * @param {P} parent
 * @param {Child[]} children
 * @returns {P}
 */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * Replaces all children of `parent`.
 * @template {ParentNode} P
 * @param {P} parent
 * @param {...Child} children
 * @returns {P}
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/**
 * `<code>` around a text.
 * @param {string} text
 */
export const code = (text) => h("code", {}, text);
