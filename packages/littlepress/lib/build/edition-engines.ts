// How Eleventy's Liquid and Markdown engines render editions: strict about
// variables unless the publication opts out, Markdown attributes such as
// {.dither}, and line breaks kept where the publication asks for it. Eleventy
// keeps its own engine instances and defaults (Markdown's `html: true`); these
// only amend them.
import { createRequire } from "node:module";
import type { EleventyConfig } from "@11ty/eleventy";
import type { Liquid } from "liquidjs";
import type MarkdownIt from "markdown-it";
import type { StateCore } from "markdown-it";
import markdownItAttrs from "markdown-it-attrs";
import { printTextSetting } from "./text-settings.ts";

/** A publication's rendering settings (publication.json), as the engines read them. */
export interface RenderSettings {
  /** An unknown variable fails the build (`strict_variables`, default true). */
  strictVariables: boolean;
  /** A line break in a paragraph is printed as one (`markdown.breaks`, default false). */
  breaks: boolean;
}

// The settings travel in the data an edition is rendered with, which Liquid
// gets as its scope and markdown-it as its `env`; under a symbol, no template sees them.
const SETTINGS = Symbol("littlepress render settings");

/** The data to render an edition with: what its templates see, and its publication's settings. */
export function renderData(scope: Record<string, unknown>, settings: RenderSettings): Record<string | symbol, unknown> {
  return { ...scope, [SETTINGS]: settings };
}

const settingsOf = (data: unknown): RenderSettings | undefined =>
  (data as { [SETTINGS]?: RenderSettings } | undefined)?.[SETTINGS];

export function amendEngines(eleventyConfig: EleventyConfig) {
  // Under strict variables, `{% if x %}` and `{{ x | default: "…" }}` still accept an undefined x.
  // A text setting printed by {{ … }} leaves its slot; used any other way it fails the build.
  eleventyConfig.setLiquidOptions({
    ...eleventyConfig.liquid?.options,
    lenientIf: true,
    outputEscape: printTextSetting,
  });
  eleventyConfig.amendLibrary("liquid", strictForEditions);
  strictNunjucksForEditions();
  eleventyConfig.amendLibrary("md", (md: MarkdownIt) => {
    markdownAttributes(md);
    keepBreaksWhenAsked(md);
  });
}

/** What may be a `{` to markdown-it: the character, or an entity it decodes to one (`&#123;`, `&lbrace;` …). */
const MAY_HOLD_BRACE = /\{|&(?:#0*123|#x0*7b|lbrace|lcub);/i;

/**
 * Markdown attributes, `{.dither}` and the like (markdown-it-attrs). Its rule tries each of its patterns at
 * every token of a page; in Markdown with no `{` in it, nor an entity read as one, none can match, and the
 * rule is skipped: 1,000 editions took 52 ms with it and 28 ms without, warm (23 ms with no plugin).
 * test/unit/markdown-attributes.test.ts renders pages both ways.
 */
export function markdownAttributes(md: MarkdownIt): MarkdownIt {
  // Its types describe markdown-it's CommonJS build; the plugin works with either.
  md.use(markdownItAttrs as unknown as (md: MarkdownIt) => void);
  // The rule's function is kept only in the ruler's list (markdown-it has no getter for it).
  const rules = (md.core.ruler as unknown as { __rules__: { name: string; fn: (state: StateCore) => void }[] })
    .__rules__;
  const attributes = rules.find((rule) => rule.name === "curly_attributes")?.fn;
  if (attributes)
    md.core.ruler.at("curly_attributes", (state) => {
      if (MAY_HOLD_BRACE.test(state.src)) attributes(state);
    });
  return md;
}

/**
 * Eleventy renders Liquid with `render(template, data, options)`; an edition's
 * data says whether its variables are strict. Other templates keep Liquid's options.
 */
function strictForEditions(liquid: Liquid) {
  const render = liquid.render.bind(liquid);
  liquid.render = (tpl, scope, options) => {
    const settings = settingsOf(scope);
    return render(tpl, scope, settings ? { ...options, strictVariables: settings.strictVariables } : options);
  };
}

/** Nunjucks's template, as far as strictNunjucksForEditions uses it. */
interface NunjucksTemplate {
  compiled?: boolean;
  env: { opts: { throwOnUndefined?: boolean } };
  compile(): void;
  render: (this: NunjucksTemplate, ctx: unknown, ...rest: unknown[]) => unknown;
}
const STRICT = Symbol.for("littlepress strict Nunjucks editions");

/**
 * A post rendered in Nunjucks (a site's `markdownTemplateEngine: "njk"`) under strict variables: a `{{ … }}`
 * of its own text that outputs nothing (an unknown name, a misspelt key) fails its render, as an unknown
 * variable does in Liquid (Nunjucks says "attempted to output null or undefined value"; template-errors.ts
 * names it). Nunjucks compiles that check in only with `throwOnUndefined`, an option of its one environment,
 * which the site's own layouts and includes share and often rely on printing nothing: it is set only while
 * the post's own template compiles, synchronously (Nunjucks compiles a template at its first render), and
 * the templates the post includes compile later without it. An edition's data says it is one (renderData);
 * Eleventy's Nunjucks is the one resolved from Eleventy itself. Patched once per process.
 */
function strictNunjucksForEditions(): void {
  const require = createRequire(import.meta.resolve("@11ty/eleventy"));
  const { Template } = require("nunjucks") as { Template: { prototype: NunjucksTemplate & { [STRICT]?: true } } };
  const proto = Template.prototype;
  if (proto[STRICT]) return;
  proto[STRICT] = true;
  const render = proto.render;
  proto.render = function (this: NunjucksTemplate, ctx: unknown, ...rest: unknown[]) {
    if (!this.compiled && settingsOf(ctx)?.strictVariables) {
      const opts = this.env.opts;
      const was = opts.throwOnUndefined;
      opts.throwOnUndefined = true;
      try {
        this.compile();
      } catch {
        // A template that does not compile: its render compiles it again, and says why in its own words.
      } finally {
        opts.throwOnUndefined = was;
      }
    }
    return render.call(this, ctx, ...rest);
  };
}

/** A soft break (a line break inside a paragraph) becomes <br> for publications that keep line breaks. */
function keepBreaksWhenAsked(md: MarkdownIt) {
  const softbreak = md.renderer.rules.softbreak!;
  md.renderer.rules.softbreak = (tokens, idx, options, env, self) => {
    if (settingsOf(env)?.breaks) return options.xhtmlOut ? "<br />\n" : "<br>\n";
    return softbreak(tokens, idx, options, env, self);
  };
}
