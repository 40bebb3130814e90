// What a Little Printer page uses that sirius's browser lacks. sirius renders
// with PhantomJS 2.1.1, QtWebKit of 2016, measured there: a script with
// ES2015 syntax (let, arrow functions, classes, template literals) is a
// SyntaxError and none of it runs (`const` it reads, as old WebKit did); CSS
// grid, var() and gap are dropped with their declaration; display: flex
// without -webkit- is no flex box at all; a character none of its DejaVu
// fonts has prints as nothing. The preview shows all of that as it prints; verify
// names each, with what to do instead, since none of it shows as an error.
import { parse } from "acorn";
import { attribute, isElement, isText, parsePage, walk, type PageNode } from "../../lib/build/page-tree.ts";
import { missingGlyphs } from "./font-coverage.ts";

/** A script type that browsers run as classic JavaScript. */
const CLASSIC = /^(|text\/javascript|application\/javascript|text\/ecmascript|application\/ecmascript)$/i;

/** What a page pasted into sirius's uses that QtWebKit lacks: one sentence each, with what to do. */
export function qtwebkitLacks(page: string): string[] {
  const scripts: string[] = [];
  const styles: string[] = [];
  let text = "";
  walk(parsePage(page), (node) => {
    if (isText(node)) text += node.value;
    if (!isElement(node)) return undefined;
    const style = attribute(node, "style");
    if (style) styles.push(style);
    if (node.tagName === "style") styles.push(textOf(node.childNodes));
    if (node.tagName === "script") {
      if (CLASSIC.test((attribute(node, "type") ?? "").trim()) && !attribute(node, "src"))
        scripts.push(textOf(node.childNodes));
      return undefined; // a script's text is not the page's
    }
    return node.tagName === "style" || node.tagName === "template" ? undefined : true;
  });
  const found = scripts.flatMap(scriptLacks);
  found.push(...cssLacks(styles.join("\n")));
  const missing = missingGlyphs(text);
  if (missing.length)
    found.push(
      `${missing.slice(0, 10).join(" ")} ${missing.length === 1 ? "is" : "are"} in no font sirius has ` +
        "(DejaVu Sans, Serif and Sans Mono) and print as nothing: write them another way, or use an image",
    );
  return found;
}

const textOf = (nodes: readonly PageNode[]) => nodes.map((n) => (isText(n) ? n.value : "")).join("");

/** A script QtWebKit cannot parse: where, and what. (`const` is read there, so it is not one.) */
function scriptLacks(source: string): string[] {
  // Same length, so that the line and column stay true.
  const withoutConst = source.replace(/\bconst\b/g, "var  ");
  try {
    parse(withoutConst, { ecmaVersion: 5, locations: true });
    return [];
  } catch (error) {
    const at = (error as { loc?: { line: number } }).loc;
    const line = at ? withoutConst.split("\n")[at.line - 1]!.trim().slice(0, 60) : "";
    return [
      `a script uses what ES5 lacks${at ? ` (its line ${at.line}: ${line})` : ""}: sirius's browser does not ` +
        "run any of it; write it in ES5 (var, function, no arrow functions, classes or template literals)",
    ];
  }
}

/** Declarations QtWebKit drops, found in the page's styles (comments removed). */
const CSS_RULES: { test: (css: string) => boolean; say: string }[] = [
  {
    test: (css) => /display\s*:\s*(inline-)?grid\b|\bgrid-(template|area|column|row)[\w-]*\s*:/i.test(css),
    say: "CSS grid does nothing in sirius's browser (the boxes stack as blocks): use floats, inline-blocks or a table",
  },
  {
    test: (css) => /\bvar\(\s*--/i.test(css),
    say: "var() is dropped by sirius's browser, with the declaration it is in: write the value itself",
  },
  {
    test: (css) => /(^|[;{\s"'])(row-)?gap\s*:/i.test(css),
    say: "gap does nothing in sirius's browser: put margins on the items instead",
  },
  {
    test: (css) => /display\s*:\s*(inline-)?flex\b/i.test(css) && !/display\s*:\s*-webkit-(inline-)?flex\b/i.test(css),
    say:
      "display: flex is no flex box in sirius's browser, which knows only -webkit-flex: " +
      "write display: -webkit-flex before it (and -webkit- before the other flex properties)",
  },
];

function cssLacks(css: string): string[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, "");
  return CSS_RULES.filter((rule) => rule.test(plain)).map((rule) => rule.say);
}

/** What sirius's browser lacks in a page, and the errors its scripts stopped with there (a SyntaxError said once). */
export function lacksOf(printed: string, errors: string[]): string[] {
  const lacks = qtwebkitLacks(printed);
  const stopped = errors.filter((e) => !/^SyntaxError/.test(e) || !lacks.some((l) => l.startsWith("a script")));
  return [...lacks, ...stopped.map((e) => `a script stopped in sirius's browser: ${e}`)];
}
