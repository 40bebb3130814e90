// Editions' Markdown attributes (`{.dither}`): the build skips markdown-it-attrs' rule on Markdown that holds
// no `{` (markdownAttributes, lib/build/edition-engines.ts). Every page here is rendered by markdown-it with
// the plugin as it comes and by the build's, and the HTML must be the same: the fixtures' editions, pages
// with braces and entities that read as braces, and thousands of generated pages.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import markdownItAttrs from "markdown-it-attrs";
import { describe, expect, it } from "vitest";
import { markdownAttributes } from "../../lib/build/edition-engines.ts";
import { FIXTURES } from "../helpers/sites.ts";

const plugin = markdownItAttrs as unknown as (md: MarkdownIt) => void;
/** Eleventy's markdown-it options (html: true), with and without breaks. */
const engines = [{ html: true }, { html: true, breaks: true }].map((options) => ({
  reference: new MarkdownIt(options).use(plugin),
  build: markdownAttributes(new MarkdownIt(options)),
}));

function sameEverywhere(pages: string[]): void {
  for (const { reference, build } of engines)
    for (const page of pages) expect(build.render(page), page).toBe(reference.render(page));
}

/** Every Markdown file among the kit's test fixtures (editions, and the front matter left on them). */
function fixturePages(dir = FIXTURES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return fixturePages(file);
    return entry.name.endsWith(".md") ? [readFileSync(file, "utf8")] : [];
  });
}

/** A small seeded generator: the same pages on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = [
  "# A heading",
  "## Weather {.center}",
  "Some *text* and **bold**",
  "{.dither}",
  "{#top}",
  '{data-x="1"}',
  "&#123;.wide}",
  "&lbrace;#id&rbrace;",
  "&#x7B;.x&#x7D;",
  "&lcub;.y&rcub;",
  "&amp; &lt;b&gt;",
  "\\{.escaped}",
  "`code {.x}`",
  "- an item",
  "- an item {.small}",
  "1. first",
  "> a quote",
  "![a picture](pic.png){.dither}",
  "![a picture](pic.png)",
  "[a link](https://example.com) {target=_blank}",
  "```js {.fence}\nlet a = {b: 1};\n```",
  "```\nplain\n```",
  "```&#123;.info}\nx\n```",
  "<div>html</div>",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "---",
  "text with } only",
  "",
];

function generatedPages(count: number): string[] {
  const next = random(38);
  return Array.from({ length: count }, () => {
    const lines = Array.from({ length: 1 + Math.floor(next() * 8) }, () => {
      const piece = PIECES[Math.floor(next() * PIECES.length)]!;
      const joiner = next() < 0.3 ? " " : "\n";
      return next() < 0.2 ? piece + joiner + PIECES[Math.floor(next() * PIECES.length)]! : piece;
    });
    return lines.join(next() < 0.5 ? "\n\n" : "\n");
  });
}

describe("markdown attributes, skipped on Markdown without a brace", () => {
  it("render the fixtures' editions as markdown-it-attrs does", () => {
    const pages = fixturePages();
    expect(pages.length).toBeGreaterThan(20);
    sameEverywhere(pages);
  });

  it("render braces, and entities that read as braces, as markdown-it-attrs does", () => {
    const pages = PIECES.filter((piece) => /\{|&/.test(piece));
    sameEverywhere(pages);
    // The attributes are there: the skip must not drop them.
    expect(engines[0]!.build.render("## Weather {.center}")).toBe('<h2 class="center">Weather</h2>\n');
  });

  it("render 3,000 generated pages as markdown-it-attrs does", () => {
    sameEverywhere(generatedPages(3_000));
  });
});
