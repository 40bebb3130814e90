// Under `npm start` every save is a build by a new Eleventy, with a new
// Nunjucks environment, which compiled the print layout and the desk's pages
// again from their text: parsing them and turning them into JavaScript took
// about a tenth of a save's rebuild beside 1,000 editions. What Nunjucks makes
// of a template (its root and block functions: Nunjucks's own precompiled
// form, which takes the environment when it renders) depends only on the
// text, its name and what the environment parses with (its async filters,
// its tags, its options), so npm start keeps it from one build to the next,
// named by all of these, for as long as its memory is kept (render-memory.ts:
// a changed layout clears it).
import type { EleventyConfig } from "@11ty/eleventy";

/** Nunjucks's Template, as far as its compiling goes (nunjucks/src/environment.js). */
interface NunjucksTemplate {
  env: NunjucksEnvironment;
  path: string | null;
  tmplStr?: string;
  tmplProps?: Record<string, unknown>;
  rootRenderFunc?: unknown;
  blocks?: Record<string, unknown>;
  _compile: (this: NunjucksTemplate) => void;
}

interface NunjucksEnvironment {
  asyncFilters: string[];
  extensionsList: { __name?: string; tags?: string[]; preprocess?: unknown }[];
  opts: Record<string, unknown>;
}

/** What the event `eleventy.engine.njk` hands over: Eleventy's Nunjucks, and the environment it made. */
interface NunjucksEngineEvent {
  nunjucks: { Template: { prototype: NunjucksTemplate } };
  environment: NunjucksEnvironment;
}

/** Each environment's store of compiled templates (one build's; the store is npm start's memory's). */
const stores = new WeakMap<NunjucksEnvironment, Map<string, Record<string, unknown>>>();
const wrapped = new WeakSet<NunjucksTemplate>();

/** Has this build's Nunjucks take compiled templates from `store`, and keep the ones it compiles there. */
export function keepCompiledTemplates(eleventyConfig: EleventyConfig, store: Map<string, Record<string, unknown>>) {
  eleventyConfig.on("eleventy.engine.njk", ({ nunjucks, environment }: NunjucksEngineEvent) => {
    stores.set(environment, store);
    wrapCompile(nunjucks.Template.prototype);
  });
}

/** Wraps Template's compiling once per Nunjucks: an environment without a store compiles as before. */
function wrapCompile(template: NunjucksTemplate): void {
  if (wrapped.has(template)) return;
  wrapped.add(template);
  const compile = template._compile;
  template._compile = function (this: NunjucksTemplate) {
    const store = stores.get(this.env);
    // A template made from compiled code (precompiled) is not compiled at all.
    if (!store || this.tmplProps || this.tmplStr === undefined) return compile.call(this);
    const name = compileKey(this);
    const kept = store.get(name);
    // Nunjucks takes `tmplProps`, when it is set, as the template's compiled form.
    if (kept) this.tmplProps = kept;
    compile.call(this);
    if (kept) return;
    const blocks = Object.entries(this.blocks ?? {}).map(([block, fn]): [string, unknown] => [`b_${block}`, fn]);
    store.set(name, { root: this.rootRenderFunc, ...Object.fromEntries(blocks) });
  };
}

/** All that Nunjucks compiles a template from. */
function compileKey({ env, path, tmplStr }: NunjucksTemplate): string {
  const tags = env.extensionsList.map((e) => [e.__name, e.tags, typeof e.preprocess]);
  return JSON.stringify([path, env.asyncFilters, tags, env.opts, tmplStr]);
}
