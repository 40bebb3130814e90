// How Eleventy's Liquid and Markdown engines render editions: strict about
// variables unless the publication opts out, Markdown attributes such as
// {.dither}, and line breaks kept where the publication asks for it. Eleventy
// keeps its own engine instances and defaults (Markdown's `html: true`); these
// only amend them.
import type { EleventyConfig } from "@11ty/eleventy";
import type { Liquid } from "liquidjs";
import type MarkdownIt from "markdown-it";
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
  eleventyConfig.amendLibrary("md", (md: MarkdownIt) => {
    // Its types describe markdown-it's CommonJS build; the plugin works with either.
    md.use(markdownItAttrs as unknown as (md: MarkdownIt) => void);
    keepBreaksWhenAsked(md);
  });
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

/** A soft break (a line break inside a paragraph) becomes <br> for publications that keep line breaks. */
function keepBreaksWhenAsked(md: MarkdownIt) {
  const softbreak = md.renderer.rules.softbreak!;
  md.renderer.rules.softbreak = (tokens, idx, options, env, self) => {
    if (settingsOf(env)?.breaks) return options.xhtmlOut ? "<br />\n" : "<br>\n";
    return softbreak(tokens, idx, options, env, self);
  };
}
